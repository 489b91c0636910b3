"""A new research session: the question, the documents to upload (added in the background, with progress and
Stop), the collections to search, and how to run."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import services
from dashboard.state_keys import FLASH
from dashboard.studio.run_sidebar import start_run
from dashboard.workflows.deep_research.documents_view import POLL_SECONDS, UPLOAD_LIMIT, index_jobs
from pipelines.core.errors import InvalidInput
from pipelines.core.markup import escape_markdown
from pipelines.core.spec import PipelineSpec
from pipelines.deep_research.documents import MAX_DOCUMENT_MB, SUFFIXES, DocumentError, check_size
from pipelines.deep_research.indexing import FileResult
from pipelines.deep_research.library import UPLOADS, ResearchLibrary, hidden_explained, open_library
from pipelines.deep_research.schemas import MAX_QUERY_CHARS
from pipelines.deep_research.shipped import SHIPPED_TITLES

KEY = "research"
AUTORUN = f"{KEY}_autorun"
PENDING = f"{KEY}_pending_start"  # the start waiting for its uploads: {"job", "raw", "chosen", "problems"}
UPLOAD_TYPES = sorted(s.lstrip(".") for s in SUFFIXES)
LOCALES = {"detect": "From the question", "en-US": "English", "zh-CN": "中文"}


def upload_problems(results: list[FileResult]) -> list[str]:
    """What the user should know about the uploads: each skipped file's reason, and flagged passages."""
    problems = [f"{r.reason}; it was skipped." for r in results if not r.added and not r.stopped]
    problems += [f"{r.name}: {r.flagged} passage(s) look like hidden instructions; they are kept as data to quote, never "
                 "followed." for r in results if r.added and r.flagged]
    problems += [f"{r.name}: {hidden_explained(r.hidden)}."
                 for r in results if r.added and r.hidden]
    return problems


def resources_for(doc_ids: list[str], chosen: list[str]) -> list[dict[str, Any]]:
    resources: list[dict[str, Any]] = []
    if doc_ids:
        resources.append({"type": "rag", "name": UPLOADS, "title": "Uploaded documents", "documents": doc_ids})
    return resources + [{"type": "rag", "name": c, "title": SHIPPED_TITLES.get(c, c), "documents": []} for c in chosen]


def begin(spec: PipelineSpec, raw: dict[str, Any], resources: list[dict[str, Any]], problems: list[str]) -> None:
    """Start the run over the resources, or say why not (the question stays in its box)."""
    for problem in problems:
        st.warning(escape_markdown(problem), icon=":material/description:")
    if not resources:
        st.error("Add at least one readable document or choose a collection: research needs something to search. "
                 "Your question is kept.")
        return
    if start_run(spec, {**raw, "resources": resources, "upload_notes": problems}, None):
        st.session_state[AUTORUN] = True
        st.rerun(scope="app")
    st.error(escape_markdown(st.session_state.pop(FLASH, ("error", "The research could not start."))[1]))


@st.fragment(run_every=POLL_SECONDS)
def render_pending_start(spec: PipelineSpec, library: ResearchLibrary) -> None:
    """The uploads being added before the research starts; when they are in, the run starts."""
    pending = st.session_state.get(PENDING)
    job = index_jobs().get(library, UPLOADS)
    if pending is None:
        return
    if job is None or job.job_id != pending["job"]:  # the server restarted: nothing to wait for
        st.session_state.pop(PENDING, None)
        st.session_state[f"{KEY}_question"] = pending["raw"]["user_query"]
        st.rerun(scope="app")
    if job.running:
        with st.container(border=True):
            st.progress(job.fraction, text=escape_markdown(f"Adding your documents: {job.describe()}",
                                                           line_breaks=False))
            if job.stop_requested:
                st.caption("Stopping after the current batch of passages…")
            elif st.button("Stop", key=f"{KEY}_uploads_stop", icon=":material/stop_circle:",
                           help="The research does not start; the documents already added stay in 'uploads'."):
                job.request_stop()
            st.caption("The research starts when they are in. Other pages stay usable meanwhile.")
        return
    st.session_state.pop(PENDING, None)
    if job.error or job.stop_requested:
        st.session_state[f"{KEY}_question"] = pending["raw"]["user_query"]  # the form was not drawn meanwhile
        why = "the store failed" if job.error else "you stopped adding your documents"
        results = " ".join(f"Not added: {r.reason}." for r in job.results if r.stopped)
        st.session_state[FLASH] = ("warning", f"The research did not start: {why}. {job.summary()} {results} "
                                              "Your question is kept.")
        st.rerun(scope="app")
    doc_ids = [r.doc_id for r in job.results if r.added]
    begin(spec, pending["raw"], resources_for(doc_ids, pending["chosen"]), [*pending["problems"],
                                                                              *upload_problems(job.results)])


def render_start_form(spec: PipelineSpec) -> None:
    """Start from a question over uploaded documents and chosen collections; the uploads are added in the background,
    then the run goes on to its first question (the preferences form) in the background."""
    settings = services.current_settings()
    library = open_library(settings)
    if PENDING in st.session_state:
        render_pending_start(spec, library)
        return
    collections = [c for c in library.collections() if c != UPLOADS]
    with st.form(f"{KEY}_start", border=True):
        st.markdown("#### New research")
        question = st.text_area("Your question", key=f"{KEY}_question", height=100, max_chars=MAX_QUERY_CHARS,
                                placeholder="e.g. What did the 2023 annual report say about revenue, and was it "
                                            "corrected later? / 这份规划对电动公交的目标是什么？")
        uploads = st.file_uploader(f"Documents to research (PDF, DOCX, Markdown, TXT, HTML, CSV, Excel; {UPLOAD_LIMIT})",
                                   type=UPLOAD_TYPES, accept_multiple_files=True, key=f"{KEY}_uploads",
                                   max_upload_size=MAX_DOCUMENT_MB,
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
    raw = {"user_query": question, "auto_accepted_plan": auto, "enable_background_investigation": background,
           **({"locale": locale} if locale != "detect" else {})}
    accepted, problems = [], []
    for upload in uploads or []:
        try:
            check_size(upload.name, upload.size)
            accepted.append((upload.name, upload.getvalue()))
        except DocumentError as exc:
            problems.append(f"{exc}; it was skipped.")
    if not accepted:
        begin(spec, raw, resources_for([], chosen), problems)
        return
    try:
        job = index_jobs().start(library, UPLOADS, accepted)
    except InvalidInput as exc:
        st.error(escape_markdown(f"Your documents cannot be added now: {exc}. Your question is kept."))
        return
    st.session_state[PENDING] = {"job": job.job_id, "raw": raw, "chosen": chosen, "problems": problems}
    st.rerun()
