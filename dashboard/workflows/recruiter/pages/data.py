"""Recruiting data: jobs, candidates, the pipeline by stage, the guardrail log, and imports of JSONL or CSV files."""

import streamlit as st

from dashboard import services
from dashboard.workflows.recruiter import stores
from dashboard.workflows.recruiter.data_views import render_data_page
from pipelines.core.markup import escape_markdown

st.title("Recruiting data")
st.caption("What Open Recruiter's chat and agents work with: jobs, candidates, applications by stage, and every "
           "guardrail warning and block. `python -m pipelines recruiter import` does the Import tab's work from a "
           "terminal.")
try:
    store = stores.recruiting_store()
    if problem := stores.load_demo(store):
        st.warning(escape_markdown(problem))
    render_data_page(store)
except services.storage_errors() as exc:
    services.storage_failure(stores.storage_error(exc))
