"""iCan career guidance (seed 003): the counselor's session page on the studio anatomy."""

from dashboard.components.ican_results import render_results_tab
from dashboard.components.ican_session import render_chat, render_start_form
from dashboard.components.workflow_page import render_workflow_page
from pipelines.core.registry import get_spec
from pipelines.ican.nodes import CLIENT_MESSAGE

# The counselor works in the chat first; the studio (graph, controls, state, checkpoints) follows below it.
render_workflow_page(get_spec("ican"), extra_tabs={"Results": render_results_tab}, start_form=render_start_form,
                     lead=render_chat, lead_answers=[CLIENT_MESSAGE])
