"""The recruiter's dashboard hooks: the chat above the studio, its start form, and the Recruiting data page."""

from pathlib import Path

from dashboard.studio.plugins import WorkflowPage, WorkflowUI
from dashboard.workflows.recruiter.cards import KINDS
from dashboard.workflows.recruiter.chat import render_chat, render_start_form

PAGES = Path(__file__).parent / "pages"

# The recruiter works in the chat; the studio below shows the router, the chat subgraph and their state. The plan's
# approvals and a status change are answered by the cards under the chat (or a yes or no in it), so the studio
# says "answer above" for those kinds instead of drawing its generic form.
UI = WorkflowUI(start_form=render_start_form, lead=render_chat, lead_answers=KINDS, section="Recruiting",
                pages=(WorkflowPage(PAGES / "data.py", "Recruiting data", ":material/table_view:", "recruiting_data"),))
