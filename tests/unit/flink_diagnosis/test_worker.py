"""Batch workers running the whole diagnosis graph: several processes on one SQLite queue, each exception once."""

from pipelines.flink_diagnosis.worker_pool import run_workers


def test_two_worker_processes_diagnose_every_exception_exactly_once(flink_settings, store, knowledge):
    ids = store.add_many([{"job_id": f"job-{i}", "error_message": message}
                          for i, message in enumerate(["java.lang.OutOfMemoryError: Java heap space",
                                                       "Checkpoint expired before completing.",
                                                       "org.apache.kafka.common.errors.TimeoutException: Timeout "
                                                       "expired while fetching topic metadata"] * 8)])
    seen = []
    reports = run_workers(flink_settings, workers=2, until_empty=True, progress=seen.append, poll_s=0.2)
    done = [i for r in reports for i in r.exception_ids]
    assert sorted(done) == ids  # every one, none twice
    assert all(r.completed for r in reports)  # both workers took a share
    assert store.count_by_status()["completed"] == len(ids)
    assert seen[-1]["completed"] == len(ids)
    threads = {row["claimed_by"] for row in store.list_exceptions(limit=100)}
    assert len(threads) == 2
