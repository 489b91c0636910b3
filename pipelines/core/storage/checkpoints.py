"""LangGraph checkpointer from a URL: memory, a SQLite file (the default) or PostgreSQL."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from pipelines.core.storage.sqlerrors import first_line, redact_url
from pipelines.core.storage.sqlite_wal import shared_file_pragmas


class CheckpointStoreError(RuntimeError):
    """The checkpoint store cannot be opened or written; the message names the URL and the reason."""


class StorageBusy(CheckpointStoreError):
    """Another program holds the checkpoint file locked: nothing was written; waiting or closing it helps."""


class CheckpointConnectionLost(CheckpointStoreError):
    """The checkpoint server dropped the connection (a restart, an administrator): worth one more try."""


def checkpoint_errors() -> tuple[type[BaseException], ...]:
    """What the checkpointers' drivers raise (SQLite, psycopg and its pool): a page or the CLI turns them into
    one line saying the storage failed, never a traceback."""
    errors: list[type[BaseException]] = [sqlite3.Error]
    try:
        import psycopg
        import psycopg_pool
    except ImportError:  # PostgreSQL support not installed
        return tuple(errors)
    return (*errors, psycopg.Error, psycopg_pool.PoolTimeout)


def as_checkpoint_failure(exc: BaseException, url: str) -> CheckpointStoreError | None:
    """A driver's failure while a step wrote its checkpoint, as the storage error to report (None when `exc` is not
    the checkpointer's). The message says what happened and what to do, in one line."""
    if not isinstance(exc, checkpoint_errors()):
        return None
    where = redact_url(url)
    reason = first_line(exc)
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in reason or "busy" in reason):
        return StorageBusy(f"the checkpoint store {where} is busy: another program holds it locked ({reason}). "
                           "Nothing was written: close the program that holds it (a database browser, a backup, "
                           "another Stepwise on the same data directory) or wait, then try again")
    if isinstance(exc, sqlite3.Error):
        return CheckpointStoreError(f"the checkpoint store {where} failed: {reason}")
    return CheckpointConnectionLost(f"the checkpoint server {where} failed: {type(exc).__name__}: {reason}")


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


def open_checkpointer(url: str, busy_timeout_s: float = 30.0) -> CheckpointStore:
    """Open the checkpointer a URL names: `memory`, `sqlite:///path/file.sqlite` or `postgresql://...`.
    `busy_timeout_s`: how long a write waits for a SQLite file another program has locked."""
    if url in ("memory", "memory://", ":memory:"):
        return CheckpointStore(url="memory://", saver=InMemorySaver(), close=lambda: None)
    if url.startswith("sqlite:"):
        from langgraph.checkpoint.sqlite import SqliteSaver

        path = _sqlite_path(url)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # One connection shared by Streamlit's script threads; SqliteSaver serialises access with its lock.
            # WAL and a generous busy timeout: batch worker processes write to the same file.
            conn = sqlite3.connect(str(path), check_same_thread=False, timeout=busy_timeout_s)
            shared_file_pragmas(conn, busy_timeout_s)
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
        # `check`: a pooled connection the server dropped (a restart, pg_terminate_backend) is found dead when it is
        # taken and replaced, instead of failing the step that took it.
        pool = ConnectionPool(conninfo, min_size=1, max_size=4, open=False, timeout=10,
                              check=ConnectionPool.check_connection,
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
