"""The Research documents page's views: pick or name a collection, add files in a background job (progress, Stop and
a result per file), the collection's documents as a table, a document's chunks, delete, and the shipped collections'
index."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from pipelines.core.errors import InvalidInput
from pipelines.core.markup import escape_markdown
from pipelines.deep_research.documents import MAX_DOCUMENT_MB, SUFFIXES, DocumentError, check_size
from pipelines.deep_research.indexing import FileResult, IndexJob, IndexJobs, add_files
from pipelines.deep_research.library import (UPLOADS, DocumentInfo, ResearchLibrary, check_collection_name, hidden_explained,
                                             hidden_note)
from pipelines.deep_research.shipped import SHIPPED_TITLES

__all__ = ["FLAG_NOTE", "KEY", "NEW_COLLECTION", "UPLOAD_LIMIT", "add_files", "render_documents_page"]

KEY = "research_docs_"
NEW_COLLECTION = "New collection…"  # the selectbox's last option: type a name instead (no name has a space)
UPLOAD_TYPES = sorted(suffix.lstrip(".") for suffix in SUFFIXES)
UPLOAD_LIMIT = f"up to {MAX_DOCUMENT_MB} MB per file"
PREVIEW_CHUNKS = 200  # a long document's preview stops here
POLL_SECONDS = 0.5
FLAG_NOTE = "They are kept as data and never followed."
_RESULTS, _PICK, _NONCE, _FLASH = KEY + "results", KEY + "pick_next", KEY + "upload_nonce", KEY + "flash"
_WATCHED, _REFUSED = KEY + "watched_jobs", KEY + "refused"  # jobs this browser session saw; files refused at once


@st.cache_resource(show_spinner=False)
def index_jobs() -> IndexJobs:
    """The adds going on in this server process, shared by every browser session."""
    return IndexJobs()


def documents_table(documents: Sequence[DocumentInfo]) -> pd.DataFrame:
    return pd.DataFrame([{"File": d.name, "Title": d.title, "Type": d.kind, "Pages": d.pages, "Chunks": d.chunks,
                          "Flagged passages": d.flagged, "Hidden dropped": d.hidden,
                          "Added": d.added_at[:16].replace("T", " ")}
                         for d in documents],
                        columns=["File", "Title", "Type", "Pages", "Chunks", "Flagged passages", "Hidden dropped", "Added"])


def collection_label(name: str) -> str:
    return f"{name} — {SHIPPED_TITLES[name]}" if name in SHIPPED_TITLES else name


def pick_collection(library: ResearchLibrary) -> str | None:
    """The collection chosen in the selectbox, or the new name typed (None while it is empty or invalid)."""
    options = sorted(set(library.collections()) | {UPLOADS})
    if (wanted := st.session_state.pop(_PICK, None)) in options:
        st.session_state[KEY + "collection"] = wanted  # a new collection just made, before its widget exists
    if st.session_state.get(KEY + "collection") not in (*options, NEW_COLLECTION):
        st.session_state[KEY + "collection"] = UPLOADS  # first visit, or a collection whose last document went
    choice = st.selectbox("Collection", [*options, NEW_COLLECTION], key=KEY + "collection", format_func=collection_label)
    if choice != NEW_COLLECTION:
        return choice
    typed = st.text_input("New collection's name", key=KEY + "new_name", placeholder="supplier-reports",
                          help="3 to 40 lower-case letters, digits, '-' or '_'; it is made when its first file is added.")
    if not typed.strip():
        st.caption("Type a name, then add files to it.")
        return None
    try:
        name = check_collection_name(typed)
    except DocumentError as exc:
        st.error(escape_markdown(exc))
        return None
    if name in SHIPPED_TITLES:
        st.error(escape_markdown(f"{name!r} is a shipped example collection; choose another name."))
        return None
    if name in options:
        st.info(escape_markdown(f"{name!r} already exists: files are added to it."))
    return name


def render_shipped(library: ResearchLibrary, collection: str, documents: Sequence[DocumentInfo]) -> bool:
    """A shipped collection's title, and its Index now button while it is not indexed. True once indexed."""
    st.info(escape_markdown(f"{SHIPPED_TITLES[collection]}: an example collection shipped with Stepwise (read-only "
                            "here; add your own files to another collection)."))
    if documents:
        return True
    st.caption("Not indexed on this machine yet; a research run indexes it on first use, or index it now.")
    if st.button("Index now", key=KEY + "index", type="primary"):
        bar = st.progress(0.0, text="Indexing…")
        library.ensure(collection, progress=lambda done, total: bar.progress(
            done / max(total, 1), text=f"Indexing {collection}: document {done} of {total}"))
        st.session_state[_FLASH] = f"Indexed {collection}."
        st.rerun()
    return False


def render_upload(library: ResearchLibrary, collection: str) -> None:
    """The uploader, or the add under way in this collection (started here or in another tab)."""
    jobs = index_jobs()
    job = jobs.get(library, collection)
    if job is not None and (job.running or job.job_id in st.session_state.get(_WATCHED, set())):
        render_job(library, collection)
    if job is not None and job.running:
        return
    nonce = st.session_state.setdefault(_NONCE, 0)
    files = st.file_uploader(f"Add documents ({UPLOAD_LIMIT})", type=UPLOAD_TYPES, accept_multiple_files=True,
                             max_upload_size=MAX_DOCUMENT_MB, key=f"{KEY}upload_{nonce}",
                             help=f"Several at once, {UPLOAD_LIMIT}. A file that cannot be read is skipped with the "
                                  "reason. Large files are added in the background: the page stays usable.")
    if st.button("Add to the collection", key=KEY + "add", type="primary", disabled=not files):
        start_add(library, collection, files or [])


def start_add(library: ResearchLibrary, collection: str, files: Sequence) -> None:
    """Refuse files over the limit at once (the server checks what the browser was told), add the others in the
    background."""
    accepted, refused = [], []
    for upload in files:
        try:
            check_size(upload.name, upload.size)
        except DocumentError as exc:
            refused.append(FileResult(upload.name, False, reason=str(exc)))
        else:
            accepted.append((upload.name, upload.getvalue()))
    st.session_state[_NONCE] = st.session_state.get(_NONCE, 0) + 1  # a fresh, empty uploader
    st.session_state[_PICK] = collection
    if not accepted:
        st.session_state[_RESULTS] = (collection, refused, None)
        st.rerun()
    try:
        job = index_jobs().start(library, collection, accepted)
    except InvalidInput as exc:  # another tab started an add here a moment ago: its progress shows after the rerun
        st.session_state[_RESULTS] = (collection, refused, ("warning", f"Nothing was added: {exc}."))
        st.rerun()
    st.session_state.setdefault(_WATCHED, set()).add(job.job_id)
    st.session_state.setdefault(_REFUSED, {})[job.job_id] = refused
    st.session_state.pop(_RESULTS, None)
    st.rerun()


@st.fragment(run_every=POLL_SECONDS)
def render_job(library: ResearchLibrary, collection: str) -> None:
    """The add under way, redrawn every half second from the worker's progress; when it has ended, a full rerun
    shows its results and the new table. The worker never touches Streamlit."""
    job = index_jobs().get(library, collection)
    if job is None:
        return
    watched = st.session_state.setdefault(_WATCHED, set())
    if not job.running:
        if job.job_id in watched:
            finish_job(job)
            st.rerun()
        return
    watched.add(job.job_id)
    with st.container(border=True):
        st.progress(job.fraction, text=escape_markdown(f"Adding to {collection}: {job.describe()}", line_breaks=False))
        cols = st.columns([1, 4], vertical_alignment="center")
        if job.stop_requested:
            cols[1].caption("Stopping after the current batch of passages…")
        elif cols[0].button("Stop", key=KEY + "stop", icon=":material/stop_circle:",
                            help="Stops between batches of passages: the files already added are kept, the file "
                                 "under way is taken out again, the rest are not added."):
            job.request_stop()
            cols[1].caption("Stopping after the current batch of passages…")
        st.caption(f"{job.elapsed_s:.0f} s. You may leave or reload the page, or use other pages: the add goes on "
                   "in the background, and any tab on this collection shows it.")


def finish_job(job: IndexJob) -> None:
    """Show a finished job's results once in this browser session."""
    st.session_state[_WATCHED].discard(job.job_id)
    refused = st.session_state.get(_REFUSED, {}).pop(job.job_id, [])
    stopped = job.stop_requested and any(r.stopped for r in job.results)
    note = ("error", job.summary()) if job.error else ("info", job.summary()) if stopped else None
    st.session_state[_RESULTS] = (job.collection, [*refused, *job.results], note)
    st.session_state[_PICK] = job.collection


def render_results(collection: str) -> None:
    """The last add's result per file, while its collection is shown."""
    shown, results, note = st.session_state.get(_RESULTS, (None, [], None))
    if shown != collection:
        return
    if note:
        getattr(st, note[0])(escape_markdown(note[1]))
    for r in results:
        if r.stopped:
            st.info(escape_markdown(f"Not added: {r.reason}"))
            continue
        if not r.added:
            st.warning(escape_markdown(f"Skipped {r.name}: {r.reason}"))
            continue
        verb = "Replaced the earlier copy of" if r.replaced else "Added"
        hidden = f", {hidden_explained(r.hidden)}" if r.hidden else ""
        st.success(escape_markdown(f"{verb} {r.name}: {r.chunks} chunk(s), {r.pages} page(s){hidden}."))
        if r.flagged:
            reasons = " ".join(reason if reason.endswith(".") else reason + "." for reason in r.flag_reasons)
            st.warning(escape_markdown(f"{r.name}: the guardrails flagged {r.flagged} passage(s) that try to instruct "
                                       f"an AI. {reasons} {FLAG_NOTE}".replace("  ", " ")))


def render_preview(library: ResearchLibrary, collection: str, info: DocumentInfo) -> None:
    passages = sorted(library.all_passages(collection, [info.doc_id]), key=lambda p: p.chunk)
    with st.expander(escape_markdown(f"Chunks of {info.name} ({len(passages)})", line_breaks=False)):
        for passage in passages[:PREVIEW_CHUNKS]:
            where = passage.where or "no page or section"
            flag = " · ⚠ flagged: kept as data, never followed" if passage.flagged else ""
            st.caption(escape_markdown(f"Chunk {passage.chunk + 1} · {where}{flag}", line_breaks=False))
            st.text(passage.text)
        if len(passages) > PREVIEW_CHUNKS:
            st.caption(f"The first {PREVIEW_CHUNKS} of {len(passages)} chunks are shown.")


def render_delete(library: ResearchLibrary, collection: str, info: DocumentInfo) -> None:
    sure = st.checkbox(escape_markdown(f"Yes, delete {info.name} from {collection}", line_breaks=False),
                       key=f"{KEY}confirm_{info.doc_id}")
    if st.button("Delete", key=KEY + "delete", disabled=not sure,
                 help="Removes the document's chunks from the collection; tick the box above first."):
        library.delete(collection, info.doc_id)
        st.session_state[_FLASH] = f"Deleted {info.name} from {collection}."
        st.session_state.pop(_RESULTS, None)
        st.rerun()


def render_documents(library: ResearchLibrary, collection: str, documents: Sequence[DocumentInfo],
                     deletable: bool) -> None:
    if not documents:
        st.info("No documents in this collection yet.")
        return
    hidden = sum(d.hidden for d in documents)
    st.caption(f"{len(documents)} document(s), {sum(d.chunks for d in documents)} chunk(s), "
               f"{sum(d.flagged for d in documents)} flagged passage(s)" + (f", {hidden_note(hidden)}." if hidden else "."))
    small = {name: st.column_config.NumberColumn(width="small") for name in ("Pages", "Chunks")}
    st.dataframe(documents_table(documents), hide_index=True, key=KEY + "table", column_config={
        "File": st.column_config.TextColumn(width="medium"), "Type": st.column_config.TextColumn(width="small"),
        **small, "Flagged passages": st.column_config.NumberColumn("Flagged", width="small",
                                                                   help="Passages the guardrails flagged"),
        "Hidden dropped": st.column_config.NumberColumn(
            "Hidden dropped", width="small", help="Passages of hidden HTML (invisible elements, comments) that were "
                                                  "dropped before indexing: the engines never read them"),
        "Added": st.column_config.TextColumn("Added (UTC)", width="medium")})
    by_id = {d.doc_id: d for d in documents}
    if st.session_state.get(KEY + "document") not in by_id:
        st.session_state.pop(KEY + "document", None)  # deleted, or another collection's
    doc_id = st.selectbox("Document", list(by_id), key=KEY + "document",
                          format_func=lambda i: f"{by_id[i].name} — {by_id[i].title}" if by_id[i].title else by_id[i].name)
    if by_id[doc_id].hidden:
        st.caption(escape_markdown(f"{by_id[doc_id].name}: {hidden_explained(by_id[doc_id].hidden)}."))
    render_preview(library, collection, by_id[doc_id])
    if deletable:
        render_delete(library, collection, by_id[doc_id])


def render_documents_page(library: ResearchLibrary) -> None:
    """The whole page below its title: collection, add, results, documents."""
    if flash := st.session_state.pop(_FLASH, None):
        st.success(escape_markdown(flash))
    collection = pick_collection(library)
    if collection is None:
        return
    documents = library.documents(collection)
    shipped = collection in SHIPPED_TITLES
    if shipped and not render_shipped(library, collection, documents):
        return
    if not shipped:
        render_upload(library, collection)
        render_results(collection)
    st.subheader("Documents")
    render_documents(library, collection, documents, deletable=not shipped)
