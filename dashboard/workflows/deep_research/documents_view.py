"""The Research documents page's views: pick or name a collection, add files with a progress bar and a result per
file, the collection's documents as a table, a document's chunks, delete, and the shipped collections' index."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from pipelines.core.markup import escape_markdown
from pipelines.deep_research.documents import MAX_DOCUMENT_BYTES, SUFFIXES, DocumentError
from pipelines.deep_research.library import UPLOADS, DocumentInfo, ResearchLibrary, check_collection_name
from pipelines.deep_research.shipped import SHIPPED_TITLES

KEY = "research_docs_"
NEW_COLLECTION = "New collection…"  # the selectbox's last option: type a name instead (no name has a space)
UPLOAD_TYPES = sorted(suffix.lstrip(".") for suffix in SUFFIXES)
MAX_UPLOAD_MB = MAX_DOCUMENT_BYTES // 1024 // 1024
PREVIEW_CHUNKS = 200  # a long document's preview stops here
FLAG_NOTE = "They are kept as data and never followed."
_RESULTS, _PICK, _NONCE, _FLASH = KEY + "results", KEY + "pick_next", KEY + "upload_nonce", KEY + "flash"


@dataclass(frozen=True)
class FileResult:
    """One file of an add: added (or replacing its earlier copy) with its counts, or skipped with the reason."""
    name: str
    added: bool
    reason: str = ""                          # why it was skipped
    chunks: int = 0
    pages: int = 0
    flagged: int = 0                          # passages the guardrails flagged
    flag_reasons: tuple[str, ...] = ()
    replaced: bool = False                    # the same content was in the collection already
    doc_id: str = ""


def add_files(library: ResearchLibrary, collection: str, files: Sequence[tuple[str, bytes]],
              progress: Callable[[float, str], None] | None = None) -> list[FileResult]:
    """Each file read, scanned and indexed into the collection; a file that cannot be used is skipped with the
    reason and the others are still added. `progress(fraction done, file name)` advances per file and within one.
    A store that cannot be reached (KnowledgeStoreError) stops the add: the files before it stay added."""
    collection = check_collection_name(collection)
    known = {info.doc_id for info in library.documents(collection)}
    results: list[FileResult] = []
    total = max(len(files), 1)
    for number, (name, data) in enumerate(files):
        def within(done: int, steps: int, number: int = number, name: str = name) -> None:
            if progress:
                progress(min((number + done / max(steps, 1)) / total, 1.0), name)

        within(0, 1)
        try:
            added = library.add(collection, name, data, progress=within)
        except DocumentError as exc:
            results.append(FileResult(name, False, reason=str(exc)))
        else:
            info = added.document
            results.append(FileResult(name, True, chunks=info.chunks, pages=info.pages, flagged=info.flagged,
                                      flag_reasons=added.flag_reasons, replaced=info.doc_id in known,
                                      doc_id=info.doc_id))
            known.add(info.doc_id)
        within(1, 1)
    return results


def documents_table(documents: Sequence[DocumentInfo]) -> pd.DataFrame:
    return pd.DataFrame([{"File": d.name, "Title": d.title, "Type": d.kind, "Pages": d.pages, "Chunks": d.chunks,
                          "Flagged passages": d.flagged, "Added": d.added_at[:16].replace("T", " ")}
                         for d in documents],
                        columns=["File", "Title", "Type", "Pages", "Chunks", "Flagged passages", "Added"])


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
    nonce = st.session_state.setdefault(_NONCE, 0)
    files = st.file_uploader("Add documents", help="Several at once; a file that cannot be read is skipped with the reason.",
                             type=UPLOAD_TYPES, accept_multiple_files=True, max_upload_size=MAX_UPLOAD_MB,
                             key=f"{KEY}upload_{nonce}")
    if st.button("Add to the collection", key=KEY + "add", type="primary", disabled=not files):
        bar = st.progress(0.0, text="Reading…")
        results = add_files(library, collection, [(f.name, f.getvalue()) for f in files or []],
                            lambda done, name: bar.progress(done, text=escape_markdown(f"Adding {name}…", line_breaks=False)))
        st.session_state[_RESULTS] = (collection, results)
        st.session_state[_PICK] = collection
        st.session_state[_NONCE] = nonce + 1  # a fresh, empty uploader
        st.rerun()


def render_results(collection: str) -> None:
    """The last add's result per file, while its collection is shown."""
    shown, results = st.session_state.get(_RESULTS, (None, []))
    if shown != collection:
        return
    for r in results:
        if not r.added:
            st.warning(escape_markdown(f"Skipped {r.name}: {r.reason}"))
            continue
        verb = "Replaced the earlier copy of" if r.replaced else "Added"
        st.success(escape_markdown(f"{verb} {r.name}: {r.chunks} chunk(s), {r.pages} page(s)."))
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
    st.caption(f"{len(documents)} document(s), {sum(d.chunks for d in documents)} chunk(s), "
               f"{sum(d.flagged for d in documents)} flagged passage(s).")
    small = {name: st.column_config.NumberColumn(width="small") for name in ("Pages", "Chunks")}
    st.dataframe(documents_table(documents), hide_index=True, key=KEY + "table", column_config={
        "File": st.column_config.TextColumn(width="medium"), "Type": st.column_config.TextColumn(width="small"),
        **small, "Flagged passages": st.column_config.NumberColumn("Flagged", width="small",
                                                                   help="Passages the guardrails flagged"),
        "Added": st.column_config.TextColumn("Added (UTC)", width="medium")})
    by_id = {d.doc_id: d for d in documents}
    if st.session_state.get(KEY + "document") not in by_id:
        st.session_state.pop(KEY + "document", None)  # deleted, or another collection's
    doc_id = st.selectbox("Document", list(by_id), key=KEY + "document",
                          format_func=lambda i: f"{by_id[i].name} — {by_id[i].title}" if by_id[i].title else by_id[i].name)
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
