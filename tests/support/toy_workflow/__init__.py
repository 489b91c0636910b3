"""A workflow package as a plug-in would ship one: its SPEC, and the one registry line that makes it appear."""

from pipelines.core.spec import WorkflowEntry
from tests.support.toy_pipeline import make_toy_spec

SPEC = make_toy_spec()
ENTRY = WorkflowEntry("toy", "Toy workflow", "-", "Testers of plug-ins",
                      "Draft, two reviews in parallel, an approval, publish.", package="tests.support.toy_workflow")
