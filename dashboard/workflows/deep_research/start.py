"""A new research session: the question, the documents to upload, the collections to search, and how to run."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import services
from dashboard.state_keys import FLASH
from dashboard.studio.run_sidebar import start_run
from pipelines.core.markup import escape_markdown
from pipelines.core.spec import PipelineSpec
from dashboard.workflows.deep_research.documents_view import add_files
from pipelines.deep_research.documents import MAX_DOCUMENT_BYTES, SUFFIXES
from pipelines.deep_research.library import UPLOADS, open_library
from pipelines.deep_research.schemas import MAX_QUERY_CHARS
from pipelines.deep_research.shipped import SHIPPED_TITLES

KEY = "research"
AUTORUN = f"{KEY}_autorun"
UPLOAD_TYPES = sorted(s.lstrip(".") for s in SUFFIXES)
LOCALES = {"detect": "From the question", "en-US": "English", "zh-CN": "中文"}


def add_uploads(library: Any, uploads: list[Any], bar: Any) -> tuple[list[str], list[str]]:
    """(document ids, problems): each file read, scanned and indexed into `uploads`; a bad one is skipped."""
    def progress(done: float, name: str) -> None:
        bar.progress(done, text=escape_markdown(f"Indexing {name}", line_breaks=False))

    results = add_files(library, UPLOADS, [(u.name, u.getvalue()) for u in uploads], progress)
    bar.progress(1.0, text="Indexed")
    problems = [f"{r.reason}; it was skipped." for r in results if not r.added]
    problems += [f"{r.name}: {r.flagged} passage(s) look like hidden instructions; they are kept as data to quote, never "
                 "followed." for r in results if r.added and r.flagged]
    return [r.doc_id for r in results if r.added], problems


def render_start_form(spec: PipelineSpec) -> None:
    """Start from a question over uploaded documents and chosen collections; the run goes on to its first question
    (the preferences form) in the background."""
    settings = services.current_settings()
    library = open_library(settings)
    collections = [c for c in library.collections() if c != UPLOADS]
    with st.form(f"{KEY}_start", border=True):
        st.markdown("#### New research")
        question = st.text_area("Your question", key=f"{KEY}_question", height=100, max_chars=MAX_QUERY_CHARS,
                                placeholder="e.g. What did the 2023 annual report say about revenue, and was it "
                                            "corrected later? / 这份规划对电动公交的目标是什么？")
        uploads = st.file_uploader("Documents to research (PDF, DOCX, Markdown, TXT, HTML, CSV, Excel)", type=UPLOAD_TYPES,
                                   accept_multiple_files=True, key=f"{KEY}_uploads",
                                   max_upload_size=MAX_DOCUMENT_BYTES // (1024 * 1024),
                                   help="Added to the 'uploads' collection: each file is read, cut into passages "
                                        "with their page or section, scanned for hidden instructions and indexed.")
        chosen = st.multiselect("Collections to search as well", collections, key=f"{KEY}_collections",
                                format_func=lambda c: SHIPPED_TITLES.get(c, c))
        columns = st.columns(3)
        locale = columns[0].radio("Report language", list(LOCALES), format_func=LOCALES.get, key=f"{KEY}_locale")
        auto = columns[1].checkbox("Accept the plan without review", key=f"{KEY}_auto_accept")
        background = columns[2].checkbox("Background investigation first", value=True, key=f"{KEY}_background")
        submitted = st.form_submit_button("Start the research", type="primary")
    if not submitted:
        return
    if not question.strip():
        st.error("Write a question first.")
        return
    resources: list[dict[str, Any]] = []
    if uploads:
        ids, problems = add_uploads(library, uploads, st.progress(0.0, text="Indexing"))
        for problem in problems:
            st.warning(escape_markdown(problem), icon=":material/description:")
        if ids:
            resources.append({"type": "rag", "name": UPLOADS, "title": "Uploaded documents", "documents": ids})
    resources += [{"type": "rag", "name": c, "title": SHIPPED_TITLES.get(c, c), "documents": []} for c in chosen]
    if not resources:
        st.error("Add at least one readable document or choose a collection: research needs something to search. "
                 "Your question is kept.")
        return
    raw = {"user_query": question, "resources": resources, "auto_accepted_plan": auto,
           "enable_background_investigation": background, **({"locale": locale} if locale != "detect" else {})}
    if start_run(spec, raw, None):
        st.session_state[AUTORUN] = True
        st.rerun()
    st.error(escape_markdown(st.session_state.pop(FLASH, ("error", "The research could not start."))[1]))
