"""iCan's dashboard hooks: the counselor's chat above the studio, its start form, and the Results tab."""

from dashboard.studio.plugins import WorkflowUI
from dashboard.workflows.ican.results import render_results_tab
from dashboard.workflows.ican.session import CHAT, render_chat, render_start_form

# The counselor works in the chat first; the studio (graph, controls, state, checkpoints) follows below it, and
# leaves the client's messages (the interrupt the chat answers) to the chat.
UI = WorkflowUI(extra_tabs={"Results": render_results_tab}, start_form=render_start_form, lead=render_chat,
                lead_answers=(CHAT.kind,))
