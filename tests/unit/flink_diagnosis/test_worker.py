"""Batch workers running the whole diagnosis graph: several processes on one SQLite queue, each exception once."""

import threading

from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from pipelines.flink_diagnosis import services
from pipelines.flink_diagnosis.worker import Worker
from pipelines.flink_diagnosis.worker_pool import run_workers
from tests.support.openai_stub import OpenAIStub


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


DIAGNOSIS = {"root_cause": "heap too small", "detailed_analysis": "OutOfMemoryError", "priority": "high",
             "suggested_fix": "raise taskmanager.memory.task.heap.size", "confidence": 0.5, "related_docs": [],
             "category": "oom_heap"}


def test_a_worker_stopped_mid_diagnosis_hands_its_claim_back_and_marks_its_run_at_once(tmp_path):
    """What SIGTERM (or the parent's death) does in a worker process, while its model call is still out."""
    with OpenAIStub([("hold", ("valid", DIAGNOSIS))]) as stub:
        settings = load_settings(data_dir=str(tmp_path / "data"), provider="openai", base_url=stub.base_url,
                                 model="stub-model", api_key="sk-test", max_retries=0)
        store = services.open_store(settings)
        ids = store.add_many([{"job_id": f"j{i}", "error_message": "java.lang.OutOfMemoryError: Java heap space"}
                              for i in range(2)])
        studio = Studio.from_settings(settings)
        worker = Worker(settings, "worker-1", studio=studio)
        thread = threading.Thread(target=worker.work, daemon=True)
        thread.start()
        try:
            stub.wait_for_requests(1)
            report = worker.stop_now("stopped by SIGTERM")
            assert report.stopped == "terminated" and report.handed_back == 1
            assert store.count_by_status() == {"pending": 2, "in_progress": 0, "completed": 0, "failed": 0}
            row = store.get(ids[0])
            assert row["claimed_by"] is None and row["error"] == "handed back: stopped by SIGTERM"
            [run] = studio.runs.list_threads("flink_diagnosis")
            assert run.status == "failed"  # not "ready": it will not go on
            assert run.title.startswith("Stopped (worker stopped) · OutOfMemoryError: Java heap space")
        finally:
            stub.open()
            thread.join(timeout=120)
            studio.close()
            services.close_all()
    assert store.count_by_status()["pending"] == 2  # the answer that came late stored nothing, nor did it go on
