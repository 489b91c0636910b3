"""The research library: collections of documents chunked into Chroma and BM25, scanned for hidden instructions,
searched hybrid (BM25 and embeddings fused), each passage kept with its document, page and section."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pipelines.core.clock import now_iso
from pipelines.core.guardrails.document_scan import scan_document
from pipelines.core.knowledge.store import Hit, KnowledgeBase
from pipelines.deep_research.documents import (TABLE_KINDS, DocumentError, LoadedDocument, chunk_document,
                                               load_document)
from pipelines.deep_research.citations import location
from pipelines.deep_research.glossary import expand
from pipelines.deep_research.retrieval import Bm25Index, fuse

PREFIX = "research-"

UPLOADS = "uploads"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{1,38}[a-z0-9]$")
SEARCH_POOL = 30  # each retriever's list before fusion
# The embedding ranking's weight in the fusion: the offline embedding ranks worse than BM25 on the dev set
# (recall@5 0.65 vs 0.80), and at equal weight it pulled the fused list down (0.71); at 0.3 it adds what BM25 misses.
EMBEDDING_WEIGHT = 0.3
# Passages scanned, embedded and stored at a time: Stop takes effect between batches, and the library's lock is held
# only while a batch is written, so searches and listings go on meanwhile.
INDEX_BATCH = 256
# Passages per call into Chroma: its embedded store holds Python's global lock for a whole call, and its index grows
# costlier per passage as the collection grows, so small calls keep the server answering other pages meanwhile.
WRITE_BATCH = 64
READING, SPLITTING, INDEXING = "reading", "splitting", "scanning and indexing"
Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True)
class Passage:
    id: str                  # "<doc id>#<chunk>"
    text: str
    document: str            # the file name
    title: str
    collection: str
    doc_id: str
    chunk: int
    page: int | None = None
    section: str = ""
    flagged: bool = False    # the guardrails found hidden instructions in it: quoted as data, never followed
    score: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def where(self) -> str:
        """"p. 3", "§ Results > Costs" or both: where in the document the passage sits."""
        return location(self.page, self.section)


@dataclass(frozen=True)
class DocumentInfo:
    doc_id: str
    name: str
    title: str
    kind: str
    pages: int
    chunks: int
    flagged: int            # passages the guardrails flagged
    added_at: str
    hidden: int = 0         # passages of hidden HTML dropped before indexing (invisible elements, comments)

    @property
    def hidden_note(self) -> str:
        """"2 hidden passages dropped", or "" when there were none."""
        return hidden_note(self.hidden)


def hidden_note(count: int) -> str:
    return f"{count} hidden passage{'s' if count != 1 else ''} dropped" if count else ""


def hidden_explained(count: int) -> str:
    """`hidden_note` with what hidden passages are, for a message that stands alone."""
    return f"{hidden_note(count)} (text a browser would not show: invisible elements and comments, never read)" \
        if count else ""


@dataclass(frozen=True)
class AddResult:
    document: DocumentInfo
    flag_reasons: tuple[str, ...]


class IndexingStopped(Exception):
    """Stop was asked while a document was being indexed: a new document was taken out again, an earlier copy of
    the same content was kept."""

    def __init__(self, name: str, done: int, total: int, replacing: bool) -> None:
        kept = "its earlier copy is kept" if replacing else "nothing of it was kept"
        when = f"after {done} of {total} passages" if total else "before its passages were indexed"
        super().__init__(f"{name}: stopped {when}; {kept}")
        self.name, self.done, self.total, self.replacing = name, done, total, replacing


def _report(progress: Progress | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def check_collection_name(name: str) -> str:
    name = (name or "").strip().lower()
    if not _NAME.match(name):
        raise DocumentError(f"{name or 'an empty name'!r} cannot name a collection: use 3 to 40 lower-case letters, "
                            "digits, '-' or '_', starting and ending with a letter or digit")
    return name


class ResearchLibrary:
    """Named collections in one Chroma store; the BM25 side is rebuilt from Chroma when a collection changed."""

    def __init__(self, kb: KnowledgeBase, shipped: dict[str, Callable[[], list[LoadedDocument]]] | None = None,
                 files_dir: Path | None = None, shipped_tables: dict[str, list[Path]] | None = None) -> None:
        self.kb = kb
        self.shipped = shipped or {}
        # The uploaded files themselves, for the coder to compute over tables (Chroma keeps only their text).
        self.files_dir = files_dir
        self.shipped_tables = shipped_tables or {}
        self._bm25: dict[str, tuple[int, Bm25Index, dict[str, dict[str, Any]]]] = {}
        self._lock = threading.RLock()
        self._indexing: set[tuple[str, str]] = set()  # (collection, doc id) of new documents being added

    # -- collections and documents ------------------------------------------------------------------------------
    def collections(self) -> list[str]:
        """Collections with documents, and the shipped ones (indexed on first use)."""
        names = {n[len(PREFIX):] for n in self.kb.names() if n.startswith(PREFIX)}
        return sorted(names | set(self.shipped))

    def documents(self, collection: str) -> list[DocumentInfo]:
        by_doc: dict[str, dict[str, Any]] = {}
        hidden = self.indexing(collection)
        for row in self.kb.get(PREFIX + collection, texts=False):
            meta = row["metadata"]
            if meta.get("doc_id") in hidden:
                continue
            doc = by_doc.setdefault(str(meta.get("doc_id")), {"meta": meta, "chunks": 0, "flagged": 0})
            doc["chunks"] += 1
            doc["flagged"] += bool(meta.get("flagged"))
        return sorted((DocumentInfo(doc_id, str(d["meta"].get("document", "")), str(d["meta"].get("title", "")),
                                    str(d["meta"].get("kind", "")), int(d["meta"].get("pages") or 1), d["chunks"],
                                    d["flagged"], str(d["meta"].get("added_at", "")), int(d["meta"].get("hidden") or 0))
                       for doc_id, d in by_doc.items()), key=lambda info: (info.added_at, info.name))

    def add(self, collection: str, name: str, data: bytes, progress: Progress | None = None,
            stop: threading.Event | None = None) -> AddResult:
        """Read, chunk, scan and index one file (DocumentError says why a file cannot be used). The same content
        added again replaces its earlier copy. `progress(stage, done, total)` follows it; `stop`, once set, ends it
        between batches with IndexingStopped."""
        collection = check_collection_name(collection)
        _report(progress, READING, 0, 1)
        document = load_document(name, data)
        if stop is not None and stop.is_set():
            raise IndexingStopped(document.name, 0, 0, False)
        doc_id = hashlib.sha256(data).hexdigest()[:16]
        result = self.add_loaded(collection, document, doc_id, progress, stop)
        if self.files_dir is not None and document.kind in TABLE_KINDS:
            folder = self.files_dir / collection
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{doc_id}{Path(name).suffix.lower()}").write_bytes(data)
        return result

    def add_loaded(self, collection: str, document: LoadedDocument, doc_id: str, progress: Progress | None = None,
                   stop: threading.Event | None = None) -> AddResult:
        """Chunk, scan and index a read document, a batch at a time: each batch is scanned, embedded and stored
        before the next, so `stop` takes effect within one batch. A new document stays hidden from listings and
        searches until its last batch is in, and is taken out again if the add stops or fails; a document that
        replaces its earlier copy (the same bytes) keeps that copy whole meanwhile."""
        _report(progress, SPLITTING, 0, 1)
        chunks = chunk_document(document)
        if not chunks:
            raise DocumentError(f"{document.name} has no text to index")
        name = PREFIX + collection
        key = (collection, doc_id)
        with self._lock:
            replacing = key in self._indexing or bool(self.kb.count(name) and self.kb.get(
                name, where={"doc_id": doc_id}, limit=1, texts=False))
            if not replacing:
                self._indexing.add(key)
        reasons: list[str] = []
        flagged = 0
        added = now_iso()
        _report(progress, INDEXING, 0, len(chunks))
        try:
            for start in range(0, len(chunks), INDEX_BATCH):
                if stop is not None and stop.is_set():
                    raise IndexingStopped(document.name, start, len(chunks), replacing)
                batch = chunks[start:start + INDEX_BATCH]
                metadatas = []
                for chunk in batch:
                    # The one scan every document goes through; a flagged passage stays in the library, marked, to
                    # be quoted as data and never followed.
                    scanned = scan_document(chunk.text)
                    reasons += [reason for reason in scanned.reasons if reason not in reasons]
                    flagged += bool(scanned)
                    metadatas.append({"doc_id": doc_id, "document": document.name, "title": document.title,
                                      "kind": document.kind, "pages": document.pages, "page": chunk.page,
                                      "section": chunk.section, "chunk": chunk.index, "flagged": bool(scanned),
                                      "hidden": document.hidden, "added_at": added})
                texts = [c.text for c in batch]
                vectors = self.kb.embedder.embed(texts)  # outside the lock: searches and listings go on meanwhile
                with self._lock:
                    self.kb.upsert(name, [f"{doc_id}#{c.index}" for c in batch], texts, metadatas, embeddings=vectors,
                                   batch_size=WRITE_BATCH)
                    self._bm25.pop(collection, None)
                _report(progress, INDEXING, start + len(batch), len(chunks))
            if replacing:  # an earlier copy cut into more chunks leaves its tail behind
                with self._lock:
                    self.kb.delete(name, {"doc_id": doc_id, "chunk": {"$gte": len(chunks)}})
        except BaseException:
            if not replacing:  # a half-indexed document is never left behind (Stop, a store error, Ctrl-C)
                with self._lock:
                    self.kb.delete(name, {"doc_id": doc_id})
            raise
        finally:
            with self._lock:
                self._indexing.discard(key)
                self._bm25.pop(collection, None)
        info = DocumentInfo(doc_id, document.name, document.title, document.kind, document.pages, len(chunks),
                            flagged, added, document.hidden)
        return AddResult(info, tuple(reasons))

    def indexing(self, collection: str) -> set[str]:
        """The documents of the collection being added right now, not listed or searched until they are whole."""
        with self._lock:
            return {doc_id for name, doc_id in self._indexing if name == collection}

    def delete(self, collection: str, doc_id: str) -> None:
        with self._lock:
            self.kb.delete(PREFIX + collection, {"doc_id": doc_id})
            self._bm25.pop(collection, None)
        if self.files_dir is not None:
            for path in (self.files_dir / collection).glob(f"{doc_id}.*"):
                path.unlink(missing_ok=True)

    def tables(self, resources: Sequence[dict[str, Any]]) -> list[tuple[str, Path]]:
        """(file name, path) of the tables the resources hold: uploaded CSV files and the shipped data sets."""
        out: dict[str, Path] = {}
        for resource in resources:
            collection = str(resource.get("name") or "")
            for path in self.shipped_tables.get(collection, []):
                out.setdefault(path.name, path)
            if self.files_dir is None or collection in self.shipped_tables:
                continue
            wanted = set(resource.get("documents") or [])
            for info in self.documents(collection) if (self.files_dir / collection).is_dir() else []:
                path = next((self.files_dir / collection).glob(f"{info.doc_id}.*"), None)
                if path is not None and info.kind in TABLE_KINDS and (not wanted or info.doc_id in wanted):
                    out.setdefault(Path(info.name).name, path)
        return sorted(out.items())

    @staticmethod
    def table_previews(tables: Sequence[tuple[str, Path]], rows: int = 5) -> str:
        """The first rows of each table, for a model writing code over them."""
        import pandas as pd

        parts = []
        for name, path in tables:
            try:
                frame = pd.read_excel(path, nrows=rows) if path.suffix == ".xlsx" else pd.read_csv(path, nrows=rows)
                preview = frame.to_csv(index=False)[:2000]
            except Exception as exc:  # noqa: BLE001 - a table the preview cannot read is named, the coder may still try
                preview = f"(no preview: {type(exc).__name__})"
            parts.append(f"{name}:\n{preview}")
        return "\n\n".join(parts)

    def ensure(self, collection: str, progress: Callable[[int, int], None] | None = None) -> None:
        """Index a shipped collection the first time it is used."""
        if collection in self.shipped and self.kb.count(PREFIX + collection) == 0:
            documents = self.shipped[collection]()
            for number, document in enumerate(documents, start=1):
                key = hashlib.sha256(f"{collection}/{document.name}".encode()).hexdigest()[:16]
                self.add_loaded(collection, document, key)
                if progress:
                    progress(number, len(documents))

    # -- search ---------------------------------------------------------------------------------------------------
    def _index(self, collection: str) -> tuple[Bm25Index, dict[str, dict[str, Any]]]:
        name = PREFIX + collection
        with self._lock:
            count = self.kb.count(name)
            cached = self._bm25.get(collection)
            if cached is None or cached[0] != count:
                rows = {row["id"]: row for row in self.kb.get(name)}
                cached = (count, Bm25Index(list(rows), [r["document"] for r in rows.values()]), rows)
                self._bm25[collection] = cached
            return cached[1], cached[2]

    def search(self, resources: Sequence[dict[str, Any]], query: str, k: int = 5,
               mode: str = "hybrid") -> list[Passage]:
        """The k best passages over the resources (each a collection, narrowed to some documents or not): BM25 and
        embedding rankings fused by reciprocal rank ("bm25" or "embedding" alone for comparison)."""
        if not query.strip():
            return []
        query = expand(query)
        rankings: list[list[str]] = [[], []]
        rows: dict[str, tuple[str, dict[str, Any]]] = {}  # passages that may be returned: not of a half-added file
        for resource in resources:
            collection = str(resource.get("name") or "")
            if not collection:
                continue
            self.ensure(collection)
            docs = [str(d) for d in resource.get("documents") or []]
            index, stored = self._index(collection)
            allowed = {i for i, r in stored.items() if r["metadata"].get("doc_id") in docs} if docs else None
            if mode in ("hybrid", "bm25"):
                rankings[0] += [i for i, _ in index.search(query, SEARCH_POOL, allowed)]
            if mode in ("hybrid", "embedding"):
                where = {"doc_id": {"$in": docs}} if docs else None
                hits: list[Hit] = self.kb.search(PREFIX + collection, query, k=SEARCH_POOL, where=where)
                rankings[1] += [h.id for h in sorted(hits, key=lambda h: -h.score)]
            rows.update({i: (collection, r) for i, r in self._whole(collection, stored).items()})
        fused = fuse([rankings[0], rankings[1]], weights=[1.0, EMBEDDING_WEIGHT if mode == "hybrid" else 1.0])
        return [self._passage(rows[i][0], i, rows[i][1], score) for i, score in fused if i in rows][:k]

    def passages(self, ids: Iterable[str], collection: str) -> list[Passage]:
        stored = self._whole(collection, self._index(collection)[1])
        return [self._passage(collection, i, stored[i]) for i in ids if i in stored]

    def all_passages(self, collection: str, doc_ids: Sequence[str] = ()) -> list[Passage]:
        if doc_ids:  # read straight from the store: a preview need not build the collection's BM25 index
            wanted = [d for d in doc_ids if d not in self.indexing(collection)]
            rows = self.kb.get(PREFIX + collection, where={"doc_id": {"$in": wanted}}) if wanted else []
            return [self._passage(collection, r["id"], r) for r in rows]
        stored = self._whole(collection, self._index(collection)[1])
        return [self._passage(collection, i, r) for i, r in stored.items()]

    def _whole(self, collection: str, stored: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """The stored passages without those of documents still being added."""
        hidden = self.indexing(collection)
        return {i: r for i, r in stored.items() if r["metadata"].get("doc_id") not in hidden} if hidden else stored

    @staticmethod
    def _passage(collection: str, passage_id: str, row: dict[str, Any], score: float = 0.0) -> Passage:
        meta = row["metadata"]
        page = meta.get("page")
        return Passage(passage_id, row["document"], str(meta.get("document", "")), str(meta.get("title", "")), collection,
                       str(meta.get("doc_id", "")), int(meta.get("chunk") or 0),
                       int(page) if isinstance(page, (int, float)) and page else None, str(meta.get("section") or ""),
                       bool(meta.get("flagged")), round(float(score), 6))


_OPEN: dict[tuple[str, ...], ResearchLibrary] = {}
_OPEN_LOCK = threading.Lock()


def open_library(settings: Any) -> ResearchLibrary:
    """The library under the data dir (Chroma embedded or the server the settings name), shipped collections on;
    one per store and embedding model in a process, so its BM25 indexes are built once."""
    from pipelines.core.knowledge.store import open_knowledge
    from pipelines.deep_research.shipped import SHIPPED, SHIPPED_TABLES

    key = (str(settings.data_path.resolve()), settings.chroma_url or "", settings.embedding_provider,
           settings.embedding_model)
    with _OPEN_LOCK:
        if key not in _OPEN:
            _OPEN[key] = ResearchLibrary(open_knowledge(settings), SHIPPED, settings.data_path / "research" / "files",
                                         SHIPPED_TABLES)
        return _OPEN[key]


def close_libraries() -> None:
    with _OPEN_LOCK:
        for library in _OPEN.values():
            library.kb.close()
        _OPEN.clear()
