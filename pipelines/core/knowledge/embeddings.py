"""Embeddings for the knowledge store: an offline hashed embedding (no download) or a real model by setting."""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any
from collections.abc import Sequence

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
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
