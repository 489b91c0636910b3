"""Knowledge store: Chroma (embedded or a server) and embeddings that work offline or through a real model."""

from __future__ import annotations

import hashlib
import json
import math
import re
import socket
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator, Sequence
from urllib.parse import urlsplit

import chromadb
import httpx
import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.config import Settings as ChromaSettings
from chromadb.errors import ChromaError, NotFoundError
from chromadb.utils.embedding_functions import register_embedding_function

from pipelines.core.settings import DEFAULT_BASE_URLS, Settings, load_settings

DEFAULT_DIM = 768
MODEL_KEY = "embedding_model"
DEFAULT_EMBEDDING_MODELS = {"openai": "text-embedding-3-small", "ollama": "nomic-embed-text"}

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_W = rf"[^\W{_CJK}]"
_TOKEN = re.compile(rf"[{_CJK}]+|{_W}+(?:[.$]{_W}+)*")
_CJK_START = re.compile(rf"[{_CJK}]")
_SEGMENT = re.compile(r"[.$_]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_NUMBER = re.compile(r"[\d._]+")
_HEX = re.compile(r"0x[0-9a-f]+|(?=[a-f]*\d)[0-9a-f]{6,}")
# Stack-trace furniture and English glue: present in nearly every case, so they say little about any one.
_NOISE = frozenset(
    "at java javax jdk sun org com apache flink scala lang method native reflect invoke invoke0 internal util "
    "concurrent unknown source run call apply accept lambda thread main more the a an of to in on for is was "
    "be been by with and or not no it its this that from as while has have had are were".split())
_COMMON = frozenset("exception error caused failed failure task job".split())
_NOISE_W, _COMMON_W, _PART_W, _NGRAM_W, _FRAME_W = 0.1, 0.35, 0.6, 0.8, 0.4


def _word_weight(word: str) -> float:
    return _NOISE_W if word in _NOISE else _COMMON_W if word in _COMMON else 1.0


def _word_features(token: str) -> dict[str, float]:
    low = token.lower()
    if _HEX.fullmatch(low) and not low.isdigit():
        return {}
    if _NUMBER.fullmatch(low):
        return {"n:" + low: _NOISE_W}
    segments = [s for s in _SEGMENT.split(token) if s]
    feats = {"w:" + low: _NOISE_W if all(s.lower() in _NOISE for s in segments) else _word_weight(low)}
    grams: list[str] = []
    for pos, seg in enumerate(segments):
        # Class names (capitalised) and the last segment identify a frame; package segments less so.
        key_part = seg[:1].isupper() or pos == len(segments) - 1
        parts = [p.lower() for p in _CAMEL.findall(seg)] if seg.isascii() else [seg.lower()]
        for word in dict.fromkeys([seg.lower(), *parts]):  # ordered: a set's order changes per process
            if len(word) < 2 or word.isdigit() or word in _NOISE:
                continue
            weight = (1.0 if key_part and word == seg.lower() else _PART_W) * _word_weight(word)
            feats["w:" + word] = max(feats.get("w:" + word, 0.0), weight)
            if key_part and word in parts and len(word) >= 3:
                padded = f"<{word}>"
                grams += [padded[i:i + n] for n in (3, 4) for i in range(len(padded) - n + 1)]
    if grams:
        # Character n-grams let "checkpont" or "expiring" meet "checkpoint" and "expired".
        scale = _NGRAM_W * _word_weight(low) / math.sqrt(len(grams))
        for gram, count in Counter(grams).items():
            feats["g:" + gram] = feats.get("g:" + gram, 0.0) + scale * count
    return feats


@lru_cache(maxsize=65_536)
def _unit_vector(unit: str, dim: int) -> tuple[np.ndarray, np.ndarray]:
    if unit.startswith("\x00"):  # a CJK unigram or bigram; bigrams carry the meaning of most words
        feats = {unit: 0.5 if len(unit) == 2 else 1.0}
    elif unit.startswith("\x01"):  # a stack frame: a long trace must not outweigh the message above it
        feats = {key: weight * _FRAME_W for key, weight in _word_features(unit[1:]).items()}
    else:
        feats = _word_features(unit)
    acc: dict[int, float] = {}
    for key, weight in feats.items():
        # blake2b, not hash(): Python salts str hashes per process, and vectors must match across workers.
        h = int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "little")
        acc[h % dim] = acc.get(h % dim, 0.0) + (weight if h >> 63 else -weight)
    return np.fromiter(acc.keys(), np.int64, len(acc)), np.fromiter(acc.values(), np.float32, len(acc))


def _units(text: str) -> Counter[str]:
    units: Counter[str] = Counter()
    previous = ""
    for match in _TOKEN.finditer(text or ""):
        token = match.group()
        if _CJK_START.match(token):
            units.update("\x00" + ch for ch in token)
            units.update("\x00" + token[i:i + 2] for i in range(len(token) - 1))
        elif previous == "at" and "." in token:
            units["\x01" + token] += 1
        elif len(token) > 1 or token.isalpha():
            units[token] += 1
        previous = token
    return units


class _Embedding(EmbeddingFunction[Documents]):
    """What KnowledgeBase needs from an embedding: `embed(texts) -> np.ndarray`, `model_name`, chroma's protocol."""

    model_name: str

    def __call__(self, input: Documents) -> Embeddings:
        return list(self.embed(list(input)))

    def default_space(self) -> str:
        return "cosine"


@register_embedding_function  # registered so chroma can rebuild it from a persisted collection's config
class OfflineEmbedding(_Embedding):
    """Deterministic hashed-feature embedding: no download, no network, English, Java names and CJK."""

    VERSION = "stepwise-hash-v1"

    def __init__(self, dim: int = DEFAULT_DIM) -> None:
        self.dim = int(dim)
        self.model_name = f"{self.VERSION}-{self.dim}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            units = _units(text)
            if not units:
                continue
            vectors = [_unit_vector(unit, self.dim) for unit in units]
            tf = np.fromiter((1.0 + math.log(c) for c in units.values()), np.float32, len(units))  # sublinear
            index = np.concatenate([v[0] for v in vectors])
            values = np.concatenate([v[1] for v in vectors]) * np.repeat(tf, [len(v[0]) for v in vectors])
            vec = np.bincount(index, weights=values, minlength=self.dim)
            norm = np.linalg.norm(vec)
            out[row] = vec / norm if norm > 0 else vec
        return out

    @staticmethod
    def name() -> str:
        return "stepwise-hash"

    def get_config(self) -> dict[str, Any]:
        return {"version": self.VERSION, "dim": self.dim}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> OfflineEmbedding:
        return OfflineEmbedding(dim=config.get("dim", DEFAULT_DIM))


@register_embedding_function
class LangChainEmbedding(_Embedding):
    """A real embedding model (OpenAI-compatible or Ollama) through LangChain, behind the same interface."""

    def __init__(self, provider: str, model: str, base_url: str = "", api_key: str | None = None,
                 timeout_s: float = 60.0, max_retries: int = 2) -> None:
        if provider not in DEFAULT_EMBEDDING_MODELS:
            raise ValueError(f"no real embedding model for provider {provider!r}")
        self.provider, self.model, self.base_url, self.model_name = provider, model, base_url, f"{provider}:{model}"
        self._api_key, self._timeout_s, self._max_retries, self._client = api_key, timeout_s, max_retries, None

    @property
    def client(self) -> Any:
        # Built on first use, so chroma can rebuild this from its config without a key or a connection.
        if self._client is None and self.provider == "openai":
            from langchain_openai import OpenAIEmbeddings

            self._client = OpenAIEmbeddings(
                model=self.model, base_url=self.base_url or None, timeout=self._timeout_s,
                api_key=self._api_key if self._api_key is not None else load_settings().api_key,
                max_retries=self._max_retries,
                # Token-id inputs need tiktoken files from the internet, and only OpenAI itself accepts them.
                check_embedding_ctx_length="api.openai.com" in self.base_url)
        elif self._client is None:
            from langchain_ollama import OllamaEmbeddings

            self._client = OllamaEmbeddings(model=self.model, base_url=self.base_url or None,
                                            client_kwargs={"timeout": self._timeout_s})
        return self._client

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.client.embed_documents(list(texts)), dtype=np.float32).reshape(len(texts), -1)

    @staticmethod
    def name() -> str:
        return "stepwise-langchain"

    def get_config(self) -> dict[str, Any]:
        return {"provider": self.provider, "model": self.model, "base_url": self.base_url}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> LangChainEmbedding:
        return LangChainEmbedding(config["provider"], config["model"], config.get("base_url", ""))


def make_embedder(settings: Settings) -> OfflineEmbedding | LangChainEmbedding:
    """The embedding function the settings ask for; a real model is only built when configured."""
    provider = settings.embedding_provider
    if provider == "offline":
        return OfflineEmbedding()
    # The chat endpoint serves embeddings too when both use the same provider; otherwise its default.
    base_url = settings.effective_base_url if settings.provider == provider else DEFAULT_BASE_URLS[provider]
    return LangChainEmbedding(provider, settings.embedding_model or DEFAULT_EMBEDDING_MODELS[provider], base_url,
                              settings.api_key, settings.timeout_s, settings.max_retries)


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
            limit: int | None = None, offset: int | None = None) -> list[dict[str, Any]]:
        """Stored documents for browsing: dicts of id, document and metadata."""
        with self._guard(f"read collection {name!r}"):
            coll = self._open(name, create=False)
            if coll is None:
                return []
            res = coll.get(ids=list(ids) if ids is not None else None, where=_where(where), limit=limit,
                           offset=offset, include=["documents", "metadatas"])
        return [{"id": doc_id, "document": doc or "", "metadata": dict(meta or {})}
                for doc_id, doc, meta in zip(res["ids"], res["documents"], res["metadatas"])]

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
