"""Knowledge store: Chroma, embedded under the data dir or a server, searched through one embedding model."""

from __future__ import annotations

import json
import socket
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Iterator, Sequence
from urllib.parse import urlsplit

import chromadb
import httpx
import numpy as np
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import ChromaError, NotFoundError

from pipelines.core.knowledge.embeddings import (DEFAULT_DIM, MODEL_KEY, LangChainEmbedding, OfflineEmbedding, _Embedding,
                                       make_embedder)
from pipelines.core.settings import Settings

__all__ = ["DEFAULT_DIM", "MODEL_KEY", "Hit", "KnowledgeBase", "KnowledgeStoreError", "LangChainEmbedding",
           "OfflineEmbedding", "clean_metadata", "make_embedder", "open_knowledge"]


GET_PAGE = 5000  # records read per call


class KnowledgeStoreError(RuntimeError):
    """The knowledge store cannot be reached or used; the message names the URL or path and the reason."""


@dataclass(frozen=True)
class Hit:
    id: str
    document: str
    metadata: dict[str, Any] = field(default_factory=dict)
    score: float = 0.0  # cosine similarity: 1 - cosine distance


def clean_metadata(metadata: dict[str, Any] | None) -> dict[str, str | int | float | bool]:
    """Chroma stores only scalars: drop None, keep scalars, JSON-encode the rest."""
    return {str(key): value if isinstance(value, (str, int, float, bool))
            else json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
            for key, value in (metadata or {}).items() if value is not None}


def _rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    documents = result.get("documents") or [""] * len(result["ids"])
    return [{"id": doc_id, "document": doc or "", "metadata": dict(meta or {})}
            for doc_id, doc, meta in zip(result["ids"], documents, result["metadatas"])]


def _where(where: dict[str, Any] | None) -> dict[str, Any] | None:
    # Chroma wants several plain conditions spelled out as an $and.
    if where and len(where) > 1 and not any(key.startswith("$") for key in where):
        return {"$and": [{key: value} for key, value in where.items()]}
    return where or None


class KnowledgeBase:
    """Named collections of documents in one Chroma store, all embedded by one embedding model."""

    def __init__(self, client: Any, embedder: _Embedding, location: str,
                 reopen: Callable[[], Any] | None = None) -> None:
        self.client, self.embedder, self.location = client, embedder, location
        self.model_name = embedder.model_name
        self._max_batch: int | None = None
        self._reopen = reopen  # embedded only: how to load the store again from disk
        self._counts: dict[str, int] = {}

    def refresh(self) -> None:
        """Load an embedded store again: its vector index lives in memory and does not see what other
        processes (batch workers, the CLI) wrote since it was opened, while its counts and metadata do."""
        if self._reopen is None:
            return
        from chromadb.api.shared_system_client import SharedSystemClient

        SharedSystemClient._identifier_to_system.pop(getattr(self.client, "_identifier", None), None)
        self.client = self._reopen()

    def _current(self, name: str) -> Any:
        """The collection, reloaded first when another process changed its size since we last looked."""
        coll = self._open(name, create=False)
        if coll is None or self._reopen is None:
            return coll
        count = coll.count()
        if self._counts.setdefault(name, count) != count:
            self.refresh()
            coll = self._open(name, create=False)
            self._counts[name] = count
        return coll

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        try:
            yield
        except (ChromaError, httpx.HTTPError, ConnectionError) as exc:
            raise KnowledgeStoreError(f"knowledge store {self.location}: cannot {action}: {exc}") from exc

    def _open(self, name: str, create: bool) -> Any:
        try:
            # No embedding function here: a collection of another model must open so it can be replaced.
            existing = self.client.get_collection(name, embedding_function=None)
            if (existing.metadata or {}).get(MODEL_KEY) == self.model_name:
                return existing
            self.delete_collection(name)  # a switch of model re-indexes instead of mixing vectors
        except NotFoundError:
            if not create:
                return None
        return self.client.get_or_create_collection(
            name, configuration={"hnsw": {"space": "cosine"}}, metadata={MODEL_KEY: self.model_name},
            embedding_function=self.embedder)

    def collection(self, name: str) -> Any:
        """The collection, created if missing, and re-created empty if another model built it."""
        with self._guard(f"open collection {name!r}"):
            return self._open(name, create=True)

    def upsert(self, name: str, ids: Sequence[str], documents: Sequence[str],
               metadatas: Sequence[dict[str, Any] | None] | None = None, batch_size: int = 256,
               progress: Callable[[int, int], None] | None = None, embeddings: np.ndarray | None = None) -> int:
        """Embed and store documents in batches; pass `embeddings` when the vectors are already at hand."""
        if len(ids) != len(documents) or (metadatas is not None and len(metadatas) != len(ids)):
            raise ValueError("ids, documents and metadatas must have the same length")
        with self._guard(f"write to collection {name!r}"):
            if self._max_batch is None:
                self._max_batch = int(self.client.get_max_batch_size())
            total, step = len(ids), max(1, min(batch_size, self._max_batch))
            coll = self._open(name, create=True)
            for start in range(0, total, step):
                end = min(start + step, total)
                docs = [str(d) for d in documents[start:end]]
                vectors = embeddings[start:end] if embeddings is not None else self.embedder.embed(docs)
                coll.upsert(ids=[str(i) for i in ids[start:end]], documents=docs,
                            embeddings=np.asarray(vectors, dtype=np.float32),
                            metadatas=[clean_metadata(m) or None for m in metadatas[start:end]] if metadatas else None)
                if progress:
                    progress(end, total)
            self._counts[name] = coll.count()
        return total

    def search(self, name: str, query: str, k: int = 3, where: dict[str, Any] | None = None) -> list[Hit]:
        """The k nearest documents by cosine similarity, best first; none for an empty query or collection."""
        if not (query or "").strip() or k <= 0:
            return []
        with self._guard(f"search collection {name!r}"):
            vector = np.asarray(self.embedder.embed_query([query]), dtype=np.float32)
            for attempt in (1, 2):
                coll = self._current(name)
                if coll is None:
                    return []
                try:
                    res = coll.query(query_embeddings=vector, n_results=k, where=_where(where),
                                     include=["documents", "metadatas", "distances"])
                    break
                except ChromaError:
                    # A stale in-memory index can miss ids another process added: reload once and retry.
                    if attempt == 2 or self._reopen is None:
                        raise
                    self.refresh()
        return [Hit(id, doc or "", dict(meta or {}), 1.0 - float(dist)) for id, doc, meta, dist
                in zip(res["ids"][0], res["documents"][0], res["metadatas"][0], res["distances"][0])]

    def count(self, name: str) -> int:
        with self._guard(f"count collection {name!r}"):
            coll = self._open(name, create=False)
            return coll.count() if coll is not None else 0

    def get(self, name: str, ids: Sequence[str] | None = None, where: dict[str, Any] | None = None,
            limit: int | None = None, offset: int | None = None, texts: bool = True) -> list[dict[str, Any]]:
        """Stored documents for browsing: dicts of id, document ("" unless `texts`) and metadata. Read a page at a
        time: embedded Chroma cannot return more than about 32,000 records in one call (SQLite's limit on variables)."""
        include = ["documents", "metadatas"] if texts else ["metadatas"]
        rows: list[dict[str, Any]] = []
        with self._guard(f"read collection {name!r}"):
            coll = self._open(name, create=False)
            if coll is None:
                return []
            if ids is not None:
                wanted = list(ids)
                for start in range(0, len(wanted), GET_PAGE):
                    rows += _rows(coll.get(ids=wanted[start:start + GET_PAGE], where=_where(where), include=include))
                return rows
            start, end = offset or 0, None if limit is None else (offset or 0) + limit
            while end is None or start < end:
                size = GET_PAGE if end is None else min(GET_PAGE, end - start)
                page = _rows(coll.get(where=_where(where), limit=size, offset=start, include=include))
                rows += page
                if len(page) < size:
                    break
                start += size
        return rows

    def delete(self, name: str, where: dict[str, Any]) -> None:
        """Remove the documents matching `where` (a document's chunks, say)."""
        with self._guard(f"delete from collection {name!r}"):
            coll = self._open(name, create=False)
            if coll is not None:
                coll.delete(where=_where(where))
                self._counts[name] = coll.count()

    def names(self) -> list[str]:
        with self._guard("list collections"):
            return [getattr(c, "name", c) for c in self.client.list_collections()]

    def delete_collection(self, name: str) -> None:
        with self._guard(f"delete collection {name!r}"):
            try:
                self.client.delete_collection(name)
            except NotFoundError:  # another worker got there first
                pass

    def needs_index(self, name: str) -> bool:
        """True when the collection is missing, empty, or was built by another model (and so was dropped)."""
        return self.count(name) == 0

    def close(self) -> None:
        # Chroma counts its clients per path and releases the files when the last one closes.
        getattr(self.client, "close", lambda: None)()


def open_knowledge(settings: Settings, embedder: _Embedding | None = None) -> KnowledgeBase:
    """Embedded Chroma under the data dir, or the Chroma server `settings.chroma_url` names."""
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    embedder = embedder or make_embedder(settings)
    if settings.chroma_url:
        url = urlsplit(settings.chroma_url.strip())
        if url.scheme not in ("http", "https") or not url.hostname:
            raise KnowledgeStoreError(f"unsupported Chroma URL scheme {url.scheme!r}: use http://host:port")
        host, ssl, port = url.hostname, url.scheme == "https", url.port or (443 if url.scheme == "https" else 8000)
        label = f"{url.scheme}://{host}:{port}"  # without any user:password@, so it can go in messages
        try:
            # Chroma's HTTP client has no timeouts: probe first so a dead host fails in seconds, not minutes.
            socket.create_connection((host, port), timeout=min(settings.timeout_s, 5.0)).close()
            client = chromadb.HttpClient(host=host, port=port, ssl=ssl, settings=chroma_settings)
        except Exception as exc:
            raise KnowledgeStoreError(f"cannot reach the Chroma server at {label}: {exc}") from exc
        session = getattr(getattr(client, "_server", None), "_session", None)
        if isinstance(session, httpx.Client):  # so a hung server cannot hang a worker or the dashboard
            session.timeout = httpx.Timeout(settings.timeout_s, connect=5.0)
        return KnowledgeBase(client, embedder, label)
    path = settings.chroma_path
    try:
        path.mkdir(parents=True, exist_ok=True)
        client = chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    except Exception as exc:
        raise KnowledgeStoreError(f"cannot open the Chroma store at {path}: {exc}") from exc
    return KnowledgeBase(client, embedder, str(path),
                         reopen=lambda: chromadb.PersistentClient(path=str(path), settings=chroma_settings))
