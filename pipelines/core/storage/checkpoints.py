"""LangGraph checkpointer from a URL: memory, a SQLite file (the default) or PostgreSQL."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from pipelines.core.storage.sqlerrors import redact_url
from pipelines.core.storage.sqlite_wal import shared_file_pragmas


class CheckpointStoreError(RuntimeError):
    """The checkpoint store cannot be opened; the message names the URL and the reason."""


@dataclass
class CheckpointStore:
    url: str
    saver: BaseCheckpointSaver
    close: Callable[[], None]

    @property
    def kind(self) -> str:
        return self.url.split(":", 1)[0]

    def delete_thread(self, thread_id: str) -> None:
        """Delete every checkpoint and pending write of a thread, subgraph namespaces included."""
        try:
            self.saver.delete_thread(thread_id)
        except Exception as exc:  # noqa: BLE001 - sqlite3 and psycopg (pool timeouts too) both land here
            raise CheckpointStoreError(f"cannot delete the checkpoints of thread {thread_id} at "
                                       f"{redact_url(self.url)}: {exc}") from exc


def _sqlite_path(url: str) -> Path:
    path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url[len("sqlite://"):]
    return Path(path)


def open_checkpointer(url: str) -> CheckpointStore:
    """Open the checkpointer a URL names: `memory`, `sqlite:///path/file.sqlite` or `postgresql://...`."""
    if url in ("memory", "memory://", ":memory:"):
        return CheckpointStore(url="memory://", saver=InMemorySaver(), close=lambda: None)
    if url.startswith("sqlite:"):
        from langgraph.checkpoint.sqlite import SqliteSaver

        path = _sqlite_path(url)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # One connection shared by Streamlit's script threads; SqliteSaver serialises access with its lock.
            # WAL and a generous busy timeout: batch worker processes write to the same file.
            conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
            shared_file_pragmas(conn)
            saver = SqliteSaver(conn)
            saver.setup()
        except (OSError, sqlite3.Error) as exc:
            raise CheckpointStoreError(f"cannot open SQLite checkpoints at {path}: {exc}") from exc
        return CheckpointStore(url=url, saver=saver, close=conn.close)
    if url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool

        conninfo = url.replace("postgresql+psycopg://", "postgresql://")
        pool = ConnectionPool(conninfo, min_size=1, max_size=4, open=False, timeout=10,
                              kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row})
        try:
            pool.open(wait=True, timeout=5)
            saver = PostgresSaver(pool)
            saver.setup()
        except Exception as exc:  # noqa: BLE001 - psycopg and the pool (its own timeout type) both land here
            pool.close()
            raise CheckpointStoreError(f"cannot open PostgreSQL checkpoints at {redact_url(url)}: {exc}") from exc
        return CheckpointStore(url=url, saver=saver, close=pool.close)
    raise CheckpointStoreError(f"unsupported checkpoint URL {redact_url(url)!r}: use memory, sqlite:///FILE or postgresql://...")
