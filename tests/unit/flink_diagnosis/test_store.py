"""ExceptionStore on a real SQLite file: the queue's life cycle, leases, filters, knowledge cases, failures,
and four worker processes sharing one file (a killed worker: tests/integration/test_flink_worker_crash.py)."""

from __future__ import annotations

import socket
from datetime import datetime, timedelta, UTC

import pytest
from sqlalchemy import text, update

from pipelines.flink_diagnosis.store import ExceptionStore, ExceptionStoreError
from pipelines.flink_diagnosis.schemas import MAX_MESSAGE_CHARS
from pipelines.flink_diagnosis.tables import exceptions
from tests.support.queue_worker import run_workers_over

JOB_KEYS = {"exception_id", "job_id", "job_name", "error_type", "error_message", "job_config", "attempts",
            "claimed_by"}


def sqlite_url(tmp_path, name="queue.sqlite") -> str:
    return f"sqlite:///{(tmp_path / name).as_posix()}"


@pytest.fixture
def store(tmp_path):
    store = ExceptionStore(sqlite_url(tmp_path))
    yield store
    store.dispose()


def add(store: ExceptionStore, count: int, **fields) -> list[int]:
    return store.add_many([{"job_id": f"job-{i}", "error_message": f"java.lang.OutOfMemoryError #{i}", **fields}
                           for i in range(count)])


def test_an_exception_is_added_claimed_and_completed(store):
    first = store.add_exception("job-1", "org.apache.flink.runtime.JobException: Recovery is suppressed",
                                job_name="orders-etl", error_type="JobException",
                                job_config={"parallelism": 4, "state.backend": "rocksdb"})
    job = store.claim("w1")
    assert set(job) == JOB_KEYS
    assert job["exception_id"] == first and job["job_name"] == "orders-etl" and job["attempts"] == 1
    assert job["job_config"] == {"parallelism": 4, "state.backend": "rocksdb"} and job["claimed_by"] == "w1"
    assert store.get(first)["status"] == "in_progress"
    diagnosis = {"root_cause": "heap too small", "priority": "P1", "at": datetime(2024, 5, 1, tzinfo=UTC)}
    assert store.complete(first, diagnosis, worker_id="w1") is True
    row = store.get(first)
    assert row["status"] == "completed" and row["claimed_by"] == "w1"
    assert row["diagnosis"] == {"root_cause": "heap too small", "priority": "P1", "at": "2024-05-01T00:00:00+00:00"}
    for stamp in (row["created_at"], row["updated_at"], row["claimed_at"]):
        assert stamp.tzinfo is not None and stamp.utcoffset() == timedelta(0)
    assert row["created_at"] <= row["claimed_at"] <= row["updated_at"]
    assert store.get(999) is None


def test_claim_takes_the_lowest_pending_first_and_none_when_empty(store):
    assert store.claim("w1") is None
    ids = add(store, 3)
    assert [store.claim(f"w{i}")["exception_id"] for i in range(3)] == ids
    assert store.claim("w9") is None


def test_a_failed_exception_is_not_claimed_again_until_requeued(store):
    first, second = add(store, 2)
    store.claim("w1")
    assert store.fail(first, "model timed out after 60 s", worker_id="w1") is True
    row = store.get(first)
    assert row["status"] == "failed" and row["error"] == "model timed out after 60 s"
    assert store.claim("w2")["exception_id"] == second
    assert store.claim("w3") is None
    assert store.requeue(first) is True
    again = store.claim("w3")
    assert again["exception_id"] == first and again["attempts"] == 2


def lapse(store, exception_id: int) -> None:
    """The lease of a claim runs out (as its lease's length passing would, on a machine of any speed)."""
    with store.engine.begin() as conn:
        conn.execute(update(exceptions).where(exceptions.c.id == exception_id)
                     .values(claimed_at=datetime.now(UTC) - timedelta(hours=1)))


def test_an_expired_claim_returns_to_pending_and_the_stale_worker_cannot_finish_it(store):
    first, second = add(store, 2)
    assert store.claim("slow")["exception_id"] == first
    assert store.claim("fast")["exception_id"] == second
    assert store.release_expired() == 0
    lapse(store, first)
    lapse(store, second)
    assert store.complete(second, {"by": "fast"}, worker_id="fast") is True
    again = store.claim("fresh")  # releases the slow worker's claim, then takes it
    assert again["exception_id"] == first and again["attempts"] == 2 and again["claimed_by"] == "fresh"
    assert store.complete(first, {"by": "slow"}, worker_id="slow") is False
    assert store.fail(first, "slow gave up", worker_id="slow") is False
    assert store.complete(first, {"by": "fresh"}, worker_id="fresh") is True
    assert store.get(first)["diagnosis"] == {"by": "fresh"}


def test_release_expired_counts_what_it_returned(store):
    ids = add(store, 3)
    store.claim("a"), store.claim("b")
    old = datetime.now(UTC) - timedelta(hours=1)
    with store.engine.begin() as conn:
        conn.execute(update(exceptions).where(exceptions.c.id == ids[0]).values(claimed_at=old))
    assert store.release_expired() == 1
    row = store.get(ids[0])
    assert row["status"] == "pending" and row["claimed_by"] is None and "lease expired" in row["error"]
    assert store.count_by_status() == {"pending": 2, "in_progress": 1, "completed": 0, "failed": 0}


def test_claim_by_id_takes_only_what_is_free(store):
    a, b, c = add(store, 3)
    assert store.claim_by_id(b, "dashboard")["exception_id"] == b
    assert store.claim_by_id(b, "other") is None  # held, lease still running
    store.complete(b, {"ok": True}, worker_id="dashboard")
    assert store.claim_by_id(b, "other") is None  # completed
    store.claim_by_id(c, "w"), store.fail(c, "boom", worker_id="w")
    assert store.claim_by_id(c, "dashboard")["attempts"] == 2  # failed ones can be retried
    store.claim_by_id(a, "crashed")
    lapse(store, a)
    assert store.claim_by_id(a, "dashboard")["claimed_by"] == "dashboard"
    assert store.claim_by_id(404, "dashboard") is None


def test_counts_lists_and_filters(store):
    ids = store.add_many([
        {"job_id": "orders", "job_name": "orders-etl", "error_type": "OOM", "error_message": "Java heap space"},
        {"job_id": "clicks", "error_type": "Checkpoint", "error_message": "Checkpoint expired before completing"},
        {"job_id": "orders", "error_type": "Kafka", "error_message": "100% of partitions lost: offset_reset"},
    ])
    store.claim("w"), store.complete(ids[0], {}, worker_id="w")
    store.claim("w"), store.fail(ids[1], "no", worker_id="w")
    assert store.count_by_status() == {"pending": 1, "in_progress": 0, "completed": 1, "failed": 1}
    ids_of = lambda rows: [r["exception_id"] for r in rows]  # noqa: E731
    assert ids_of(store.list_exceptions()) == ids[::-1]
    assert ids_of(store.list_exceptions(order="asc", limit=2, offset=1)) == ids[1:]
    assert ids_of(store.list_exceptions(status="failed")) == [ids[1]]
    assert ids_of(store.list_exceptions(statuses=["pending", "completed"], order="asc")) == [ids[0], ids[2]]
    assert ids_of(store.list_exceptions(job_id="orders")) == [ids[2], ids[0]]
    assert ids_of(store.list_exceptions(search="HEAP")) == [ids[0]]
    assert ids_of(store.list_exceptions(search="100%")) == [ids[2]]  # % is a character, not a wildcard
    assert ids_of(store.list_exceptions(search="0_r")) == []  # and so is _
    assert ids_of(store.list_exceptions(search="etl")) == [ids[0]]
    with pytest.raises(ValueError, match="unknown status 'done'"):
        store.list_exceptions(status="done")
    with pytest.raises(ValueError, match="order"):
        store.list_exceptions(order="sideways")
    assert ids_of(store.iter_results(batch_size=2)) == ids
    assert ids_of(store.iter_results(status="completed")) == [ids[0]]
    timeline = store.completed_timeline()
    assert [status for _, status in timeline] == ["completed", "failed"]
    assert timeline[0][0] <= timeline[1][0] and timeline[0][0].tzinfo is not None
    assert store.delete_exception(ids[2]) is True and store.delete_exception(ids[2]) is False
    store.purge()
    assert store.count_by_status() == {"pending": 0, "in_progress": 0, "completed": 0, "failed": 0}


def test_bad_input_gets_a_clear_message_and_stores_nothing(store):
    with pytest.raises(ValueError, match="empty error_message"):
        store.add_exception("job-1", "   ")
    with pytest.raises(ValueError, match="job_id"):
        store.add_exception("", "boom")
    with pytest.raises(ValueError, match="job_config .* must be a dict"):
        store.add_exception("job-1", "boom", job_config=["not", "a", "dict"])
    with pytest.raises(ValueError, match="empty error_message"):
        store.add_many([{"job_id": "ok", "error_message": "fine"}, {"job_id": "bad", "error_message": ""}])
    with pytest.raises(ValueError, match="worker id"):
        store.claim("")
    with pytest.raises(ValueError, match="diagnosis"):
        store.complete(1, "not a dict")
    assert store.count_by_status()["pending"] == 0


def test_an_over_long_message_is_refused_with_the_limit_never_cut(store):
    trace = "Caused by: java.lang.OutOfMemoryError: 堆内存不足\n" * 5000  # ~240,000 characters
    with pytest.raises(ValueError, match=f"error_message of job job-1: {len(trace):,} characters; the limit is "
                                         "65,000"):
        store.add_many([{"job_id": "job-0", "error_message": "fits"}, {"job_id": "job-1", "error_message": trace}])
    assert store.count_by_status()["pending"] == 0  # all of them, or none
    exact = "x" * MAX_MESSAGE_CHARS
    assert store.get(store.add_exception("job-2", exact))["error_message"] == exact


def test_an_identical_pattern_is_not_stored_twice_its_hit_count_goes_up(store):
    case = {"case_id": "oom-1", "error_type": "OOM", "error_pattern": "java.lang.OutOfMemoryError: Java heap space",
            "root_cause": "heap too small", "solution": "raise taskmanager.memory.process.size",
            "category": "memory", "source": "accumulated", "confidence": 0.9}
    assert store.upsert_case(case) is True
    assert store.upsert_case({**case, "case_id": "oom-2", "error_pattern": case["error_pattern"] + "  "}) is False
    assert store.upsert_case(case) is False
    found = store.find_case_by_pattern(case["error_pattern"])
    assert found["case_id"] == "oom-1" and found["hit_count"] == 3 and found["confidence"] == 0.9
    assert found["created_at"].tzinfo is not None
    shipped = {"case_id": "ckpt-1", "error_pattern": "Checkpoint expired", "category": "checkpoint",
               "source": "shipped"}
    assert store.upsert_case(shipped) is True
    assert store.upsert_case(shipped, count_hit=False) is False  # loading the shipped cases again counts no hit
    assert store.find_case_by_pattern("Checkpoint expired")["hit_count"] == 0
    assert store.case_count() == 2 and store.case_count(source="shipped") == 1
    assert [c["case_id"] for c in store.list_cases()] == ["oom-1", "ckpt-1"]  # most hits first
    assert [c["case_id"] for c in store.list_cases(category="checkpoint")] == ["ckpt-1"]
    assert [c["case_id"] for c in store.list_cases(source="accumulated", search="HEAP")] == ["oom-1"]
    assert store.find_case_by_pattern("never seen") is None
    with pytest.raises(ValueError, match="already used by a different pattern"):
        store.upsert_case({**shipped, "error_pattern": "something else"})
    with pytest.raises(ValueError, match="unknown case source"):
        store.upsert_case({**case, "source": "guessed"})
    with pytest.raises(ValueError, match="error_pattern"):
        store.upsert_case({"case_id": "x"})


def test_settings_choose_the_database_and_the_lease(settings):
    store = ExceptionStore.from_settings(settings.for_workflow("flink_diagnosis", claim_lease_s=42.0))
    try:
        assert store.url == settings.effective_db_url and store.lease == timedelta(seconds=42)
        assert store.engine.dialect.name == "sqlite"
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    finally:
        store.dispose()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_server_is_named_without_its_password():
    port = closed_port()
    with pytest.raises(ExceptionStoreError) as caught:
        ExceptionStore(f"mysql+pymysql://stepwise:s3cret-pw@127.0.0.1:{port}/queue")
    message = str(caught.value)
    assert isinstance(caught.value, RuntimeError)
    assert f"127.0.0.1:{port}/queue" in message and "s3cret-pw" not in message
    assert message.startswith("cannot open the Flink exception database") and "Traceback" not in message


def test_an_impossible_sqlite_path_and_a_broken_database_get_a_clear_message(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(ExceptionStoreError, match="cannot open the Flink exception database sqlite:///.*a-file"):
        ExceptionStore(f"sqlite:///{(blocker / 'queue.sqlite').as_posix()}")
    store = ExceptionStore(sqlite_url(tmp_path))
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE flink_exceptions"))
    with pytest.raises(ExceptionStoreError, match=r"queue.sqlite failed: no such table: flink_exceptions"):
        store.claim("w1")
    store.dispose()


def test_four_worker_processes_share_one_sqlite_file_and_process_each_exception_once(tmp_path):
    # The workers start on a file with no tables yet: they race to create them.
    ids, done = run_workers_over(sqlite_url(tmp_path, "shared.sqlite"), tmp_path)
    assert sorted(done) == sorted(ids) and len(done) == len(set(done)) == 200
