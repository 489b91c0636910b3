"""Knowledge base browser: search the Flink cases and doc snippets, filter them, see what accumulate added."""

import streamlit as st

from dashboard import services
from dashboard.workflows.flink_diagnosis import stores
from dashboard.workflows.flink_diagnosis.knowledge_browser import (render_case_table, render_index_panel, render_search)

st.title("Knowledge base")
st.caption("Similar cases and documentation snippets in Chroma, searched by the Flink diagnosis's retrieve step. "
           "Diagnoses with confidence at or above the accumulate threshold become new cases.")
try:
    settings = services.current_settings()
    knowledge = stores.flink_knowledge(settings)
    if render_index_panel(knowledge, settings):
        search_tab, cases_tab = st.tabs(["Search", "Cases"])
        with search_tab:
            render_search(knowledge)
        with cases_tab:
            render_case_table(knowledge.store)
except services.storage_errors() as exc:
    services.storage_failure(exc)
