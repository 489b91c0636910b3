"""The exception store and the knowledge base for a set of settings, opened once per process and shared."""

from __future__ import annotations

import threading
from typing import Any

from pipelines.core.knowledge.store import open_knowledge
from pipelines.core.settings import Settings
from pipelines.flink_diagnosis.knowledge import FlinkKnowledge
from pipelines.flink_diagnosis.settings import flink_settings
from pipelines.flink_diagnosis.store import ExceptionStore

_lock = threading.Lock()
_stores: dict[tuple[Any, ...], ExceptionStore] = {}
_knowledge: dict[tuple[Any, ...], FlinkKnowledge] = {}


def _store_key(settings: Settings) -> tuple[Any, ...]:
    return (settings.effective_db_url, flink_settings(settings).claim_lease_s)


def _knowledge_key(settings: Settings) -> tuple[Any, ...]:
    location = settings.chroma_url or str(settings.chroma_path.resolve())
    return (location, settings.embedding_provider, settings.embedding_model, settings.effective_db_url)


def open_store(settings: Settings) -> ExceptionStore:
    with _lock:
        key = _store_key(settings)
        if key not in _stores:
            _stores[key] = ExceptionStore.from_settings(settings)
        return _stores[key]


def open_flink_knowledge(settings: Settings) -> FlinkKnowledge:
    """Embedded Chroma writes take a file lock, since worker processes on this machine share its directory."""
    store = open_store(settings)
    with _lock:
        key = _knowledge_key(settings)
        if key not in _knowledge:
            lock_path = None if settings.chroma_url else settings.chroma_path / ".stepwise-write.lock"
            _knowledge[key] = FlinkKnowledge(open_knowledge(settings), store, lock_path=lock_path)
        return _knowledge[key]


def close_all() -> None:
    """Forget every open store and client (tests, and a change of settings in the dashboard)."""
    with _lock:
        for knowledge in _knowledge.values():
            knowledge.kb.close()
        for store in _stores.values():
            store.dispose()
        _knowledge.clear()
        _stores.clear()
