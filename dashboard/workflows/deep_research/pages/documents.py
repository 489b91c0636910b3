"""Research documents: the collections the research assistant searches, their documents and chunks; add files to a
collection, preview a document's chunks, delete one, index a shipped example collection."""

import streamlit as st

from dashboard import services
from dashboard.workflows.deep_research.documents_view import render_documents_page
from pipelines.deep_research.library import open_library

st.title("Research documents")
st.caption("The local document collections the research assistant searches. Files are read into chunks that keep "
           "their page and section, scanned by the guardrails (a passage that tries to instruct an AI is flagged, "
           "kept as data and never followed) and indexed for keyword and meaning search. "
           "`python -m pipelines research add` does the same from a terminal.")
try:
    render_documents_page(open_library(services.current_settings()))
except services.storage_errors() as exc:
    services.storage_failure(exc)
