"""A queue worker killed after claiming loses nothing, on SQLite (a file shared by the processes), MariaDB and
PostgreSQL: its claims expire, other workers take them, and every exception is completed exactly once.

The SQLite case needs no server; the server cases are skipped (or fail, in CI) when their server is absent."""

from __future__ import annotations

import pytest

from pipelines.flink_diagnosis.store import ExceptionStore
from tests.support.queue_worker import start_together, start_worker, stop_all

COUNT, COMPLETED_BEFORE_STALLING, HELD = 200, 10, 3


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.services),
                        pytest.param("postgres", marks=pytest.mark.services)])
def queue_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{(tmp_path / 'shared.sqlite').as_posix()}"
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
def store(queue_url):
    store = ExceptionStore(queue_url, lease_s=1.0)
    store.purge()  # the servers' `test` database is shared with other tests, but not these two tables
    yield store
    store.dispose()


def test_a_worker_killed_after_claiming_loses_nothing(store, queue_url, tmp_path):
    ids = store.add_many([{"job_id": f"job-{i}", "error_message": f"Checkpoint {i} expired"} for i in range(COUNT)])
    go = tmp_path / "go"
    doomed = start_worker(queue_url, "doomed", tmp_path, go, lease=1.0, hold=HELD, after=COMPLETED_BEFORE_STALLING)
    workers = [start_worker(queue_url, f"w{i}", tmp_path, go, lease=1.0, work_ms=1) for i in range(3)]
    try:
        start_together([doomed, *workers], go)
        doomed.wait_for("stalled")
        doomed.proc.kill()  # SIGKILL: no cleanup, its claims stay in_progress
        doomed.proc.wait(timeout=10)
        workers.append(start_worker(queue_url, "fresh", tmp_path, go, lease=1.0))
        for worker in workers:
            worker.finish()
    finally:
        stop_all([doomed, *workers])
    held = doomed.ids("held")
    done = [i for worker in (doomed, *workers) for i in worker.ids("done")]
    assert len(held) == HELD and len(doomed.ids("done")) == COMPLETED_BEFORE_STALLING
    assert sorted(done) == sorted(ids) and len(done) == len(set(done)) == COUNT
    assert store.count_by_status() == {"pending": 0, "in_progress": 0, "completed": COUNT, "failed": 0}
    for exception_id in held:
        row = store.get(exception_id)
        assert row["status"] == "completed" and row["attempts"] == 2 and row["diagnosis"]["worker"] != "doomed"
