"""The recruiter's dashboard hooks: the chat above the studio, its start form, and the Recruiting data page."""

from pathlib import Path

from dashboard.studio.plugins import WorkflowPage, WorkflowUI
from dashboard.workflows.recruiter.chat import render_chat, render_start_form

PAGES = Path(__file__).parent / "pages"

# The recruiter works in the chat; the studio below shows the router, the chat subgraph and their state. A status
# change waits for approval in the studio's form, or for a yes or no in the chat.
UI = WorkflowUI(start_form=render_start_form, lead=render_chat, section="Recruiting",
                pages=(WorkflowPage(PAGES / "data.py", "Recruiting data", ":material/table_view:", "recruiting_data"),))
