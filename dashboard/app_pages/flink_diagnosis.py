"""Flink job diagnosis (seed 001) in the studio: step one exception through collect → … → accumulate."""

from dashboard.components.flink_views import render_context_tab, render_diagnosis_tab
from dashboard.components.workflow_page import render_workflow_page
from pipelines.core.registry import get_spec

render_workflow_page(get_spec("flink_diagnosis"),
                     extra_tabs={"Diagnosis": render_diagnosis_tab, "Retrieved context": render_context_tab})
