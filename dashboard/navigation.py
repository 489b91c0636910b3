"""The app's pages, built from the registry: home, a studio page per workflow and its own pages, then Runs,
Metrics and Settings. Pages and links get their page objects here, so a workflow's URL is defined once."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from dashboard.studio.plugins import registered_uis, workflow_ui
from dashboard.studio.workflow_page import render_workflow_page
from pipelines.core.registry import get_spec, workflow_entry

PAGES = Path(__file__).parent / "app_pages"


def show_workflow(workflow_id: str) -> None:
    """A workflow's studio page: the generic anatomy with the hooks of its UI."""
    ui = workflow_ui(workflow_entry(workflow_id))
    render_workflow_page(get_spec(workflow_id), extra_tabs=ui.extra_tabs, start_form=ui.start_form, lead=ui.lead,
                         lead_answers=ui.lead_answers)


def workflow_page(workflow_id: str) -> StreamlitPage:
    """The studio page of a workflow (its URL path is its id), for navigation, page links and switch_page."""
    entry = workflow_entry(workflow_id)

    def show() -> None:
        show_workflow(workflow_id)

    show.__name__ = workflow_id
    return st.Page(show, title=entry.title, icon=entry.icon, url_path=workflow_id)


def app_pages() -> dict[str, list[StreamlitPage]]:
    uis = registered_uis()
    sections = {"Stepwise": [st.Page(PAGES / "home.py", title="Home", icon=":material/home:", default=True)],
                "Workflows": [workflow_page(entry.id) for entry, _ in uis]}
    for entry, ui in uis:
        for page in ui.pages:
            sections.setdefault(ui.section or entry.title, []).append(
                st.Page(page.path, title=page.title, icon=page.icon, url_path=page.url_path))
    sections["Studio"] = [st.Page(PAGES / "runs.py", title="Runs", icon=":material/history:", url_path="runs"),
                          st.Page(PAGES / "metrics.py", title="Metrics", icon=":material/monitoring:",
                                  url_path="metrics")]
    sections["Setup"] = [st.Page(PAGES / "settings.py", title="Settings", icon=":material/settings:",
                                 url_path="settings")]
    return sections
