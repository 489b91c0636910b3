"""Checkpointer from a URL, and clear errors when the store cannot be opened."""

import socket

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from pipelines.core.storage.checkpoints import CheckpointStoreError, open_checkpointer
from pipelines.core.storage.runstore import RunStore, RunStoreError


def test_memory_and_sqlite_urls(tmp_path):
    assert isinstance(open_checkpointer("memory").saver, InMemorySaver)
    store = open_checkpointer(f"sqlite:///{tmp_path}/nested/dir/cp.sqlite")
    assert isinstance(store.saver, SqliteSaver) and (tmp_path / "nested/dir/cp.sqlite").exists()
    store.close()


def test_unknown_scheme_is_refused_with_the_reason():
    with pytest.raises(CheckpointStoreError, match="unsupported checkpoint URL 'redis://x'"):
        open_checkpointer("redis://x")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_postgres_that_is_down_gets_a_clear_error_without_the_password():
    url = f"postgresql://stepwise:hunter2@127.0.0.1:{_closed_port()}/nothing"
    with pytest.raises(CheckpointStoreError) as caught:
        open_checkpointer(url)
    message = str(caught.value)
    assert message.startswith("cannot open PostgreSQL checkpoints at postgresql://***@127.0.0.1:")
    assert "hunter2" not in message


def test_run_database_that_is_down_gets_a_clear_error():
    with pytest.raises(RunStoreError, match="cannot open the run database"):
        RunStore(f"postgresql+psycopg://u:secret@127.0.0.1:{_closed_port()}/x?connect_timeout=2")
