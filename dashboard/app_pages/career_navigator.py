"""CareerNavigator (seed 000) in the studio: step the graph, answer feedback, read the plan."""

from dashboard.components.workflow_page import render_workflow_page
from pipelines.core.registry import get_spec

render_workflow_page(get_spec("career_navigator"))
