"""iCan career guidance (seed 003): the counselor's session page on the studio anatomy."""

from dashboard.components.ican_session import render_results_tab, render_session_tab, render_start_form
from dashboard.components.workflow_page import render_workflow_page
from pipelines.core.registry import get_spec

render_workflow_page(get_spec("ican"), extra_tabs={"Session": render_session_tab, "Results": render_results_tab},
                     start_form=render_start_form)
