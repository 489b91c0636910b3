"""Recruiting data: jobs, candidates, the pipeline by stage (with each application's history and its undo), the
outbox, the interview calendar, the plans with their changes, the guardrail log, and imports of JSONL or CSV files."""

import streamlit as st

from dashboard import services
from dashboard.workflows.recruiter import stores
from dashboard.workflows.recruiter.data_views import render_data_page
from pipelines.core.markup import escape_markdown

st.title("Recruiting data")
st.caption("What Open Recruiter's chat and agents work with and what they did: jobs, candidates, applications by "
           "stage, the emails in the outbox, the interviews booked, the plans and their changes, and every "
           "guardrail warning and block. `python -m pipelines recruiter import` does the Import tab's work from a "
           "terminal.")
try:
    store = stores.recruiting_store()
    if problem := stores.load_demo(store):
        st.warning(escape_markdown(problem))
    render_data_page(store)
except services.storage_errors() as exc:
    services.storage_failure(stores.storage_error(exc))
