"""ExceptionStore on MariaDB and PostgreSQL: worker processes share one queue (a killed one: test_flink_worker_crash),
and a claim skips a row another transaction has locked instead of waiting for it."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import select

from pipelines.flink_diagnosis.store import ExceptionStore, ExceptionStoreError
from pipelines.core.storage.engine import make_engine
from pipelines.flink_diagnosis.schemas import MAX_MESSAGE_CHARS
from pipelines.flink_diagnosis.tables import exceptions, metadata
from tests.support.queue_worker import run_workers_over

pytestmark = pytest.mark.services


@pytest.fixture(params=["mariadb", "postgres"])
def server_url(request) -> str:
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
def store(server_url):
    store = ExceptionStore(server_url, lease_s=1.0)
    store.purge()  # other tests share the `test` database, but not these two tables
    yield store
    store.dispose()


def add(store: ExceptionStore, count: int) -> list[int]:
    return store.add_many([{"job_id": f"job-{i}", "error_message": f"Checkpoint {i} expired"} for i in range(count)])


def test_four_worker_processes_process_each_exception_exactly_once(server_url, tmp_path):
    engine = make_engine(server_url)
    metadata.drop_all(engine)  # so the workers, starting together, race to create the tables
    engine.dispose()
    ids, done = run_workers_over(server_url, tmp_path)
    assert sorted(done) == sorted(ids) and len(done) == len(set(done)) == 200
    store = ExceptionStore(server_url)
    try:
        assert store.count_by_status() == {"pending": 0, "in_progress": 0, "completed": 200, "failed": 0}
        assert all(row["attempts"] == 1 for row in store.iter_results())
    finally:
        store.dispose()


def test_a_claim_skips_a_locked_row_instead_of_waiting(store):
    first, second = add(store, 2)
    with store.engine.connect() as other, ThreadPoolExecutor(1) as pool:
        other.begin()
        other.execute(select(exceptions.c.id).where(exceptions.c.id == first).with_for_update())
        claim = pool.submit(store.claim, "w1")
        try:
            job = claim.result(timeout=5)
        finally:
            other.rollback()  # frees a blocked claim, so a failing test still ends
        assert job["exception_id"] == second
    assert store.claim("w2")["exception_id"] == first
    assert store.claim("w3") is None


def test_long_text_leases_and_timestamps_survive_the_server(store):
    trace = ("Caused by: org.apache.flink.util.FlinkRuntimeException: 检查点超时 😱\n" * 2000)[:MAX_MESSAGE_CHARS]
    exception_id = store.add_exception("job-1", trace, job_config={"名称": "订单"})
    row = store.get(exception_id)
    assert row["error_message"] == trace  # the longest message allowed, to its last emoji
    assert row["job_config"] == {"名称": "订单"} and row["created_at"].tzinfo is not None
    assert store.claim("slow")["exception_id"] == exception_id
    time.sleep(1.1)
    assert store.claim("fresh")["attempts"] == 2
    assert store.complete(exception_id, {"by": "slow"}, worker_id="slow") is False
    assert store.complete(exception_id, {"by": "fresh"}, worker_id="fresh") is True
    assert store.upsert_case({"case_id": "c1", "error_pattern": trace}) is True
    assert store.upsert_case({"case_id": "c2", "error_pattern": trace}) is False
    assert store.find_case_by_pattern(trace)["hit_count"] == 2


def test_a_missing_database_is_named_without_the_password(server_url):
    scheme, rest = server_url.split("://", 1)
    user, host = rest.split("@", 1)
    url = f"{scheme}://{user}:s3cret-pw@{host.rsplit('/', 1)[0]}/no_such_database_here"
    with pytest.raises(ExceptionStoreError) as caught:
        ExceptionStore(url)
    message = str(caught.value)
    assert "s3cret-pw" not in message and "no_such_database_here" in message
    assert message.startswith("cannot open the Flink exception database")
