"""Deep research's dashboard hooks: the research assistant above the studio, its start form, the Documents page."""

from pathlib import Path

from dashboard.studio.plugins import WorkflowPage, WorkflowUI
from dashboard.workflows.deep_research.assistant import render_assistant
from dashboard.workflows.deep_research.cards import CARDS
from dashboard.workflows.deep_research.start import render_start_form

PAGES = Path(__file__).parent / "pages"

# The preferences form and the plan review are answered in the assistant's cards, so the studio below says
# "answer above" for those kinds instead of drawing its generic form.
UI = WorkflowUI(start_form=render_start_form, lead=render_assistant, lead_answers=tuple(CARDS), section="Research",
                pages=(WorkflowPage(PAGES / "documents.py", "Research documents", ":material/folder_open:",
                                    "research_documents"),))
