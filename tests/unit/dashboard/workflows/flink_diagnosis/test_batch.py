"""The dashboard's background batch on a real SQLite queue and the real graph: how it says it ended, what its
progress line counts, and what its runs are called."""

import pytest

from dashboard.workflows.flink_diagnosis.batch import BatchProgress, BatchRunner, outcome_message, progress_text
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.flink_diagnosis import services


@pytest.fixture
def flink(tmp_path):
    settings = load_settings(data_dir=str(tmp_path / "data"), backoff_s=0.01)
    studio = Studio.from_settings(settings)
    services.open_flink_knowledge(settings).ensure_indexed()
    yield settings, studio, services.open_store(settings)
    studio.close()
    services.close_all()


class StopAfterThree(BatchRunner):
    """The user presses Stop while the third exception is being diagnosed."""

    def _record(self, outcome):
        super()._record(outcome)
        if self.progress.done == 3:
            self.stop()


def test_a_stopped_batch_says_stopped_with_the_count_done_and_its_runs_name_their_exception(flink):
    settings, studio, store = flink
    store.add_many([{"job_id": f"job-{i}", "job_name": f"orders-etl-{i}",
                     "error_message": "java.lang.OutOfMemoryError: Metaspace\n\tat x.Y.z(Y.java:1)"}
                    for i in range(10)])
    runner = StopAfterThree()
    assert runner.start(settings, studio, store.count_by_status())
    runner.join()
    assert not runner.progress.running and runner.progress.stopped
    assert outcome_message(runner.progress) == ("warning", "Stopped after 3 of 10 exceptions. The rest are "
                                                           "still pending.")
    assert store.count_by_status()["pending"] == 7
    titles = [thread.title for thread in studio.runs.list_threads("flink_diagnosis")]
    assert len(titles) == 3
    for title in titles:
        assert title.startswith("OutOfMemoryError: Metaspace · job orders-etl-") and " · #" in title
        assert not title.startswith("Batch") and len(title) <= 120


def test_a_finished_batch_says_finished_and_a_running_one_counts_from_the_queue():
    done = BatchProgress(total=4, done=4, completed=3, failed=1, started_at=1.0, finished_at=2.0)
    assert outcome_message(done) == ("success", "Batch finished: 4 of 4 exceptions diagnosed. The Diagnosis "
                                                "results page has the diagnoses.")
    assert progress_text(done).startswith("4 of 4 diagnosed · 3 completed · 1 failed")
    broke = BatchProgress(total=4, done=1, error="ExceptionStoreError: database is locked")
    assert outcome_message(broke)[0] == "error" and "after 1 of 4 exceptions" in outcome_message(broke)[1]
    # While it runs, the line is what the counters beside it say: done since the start, by the same read.
    running = BatchProgress(running=True, total=5, done=1, started_at=1.0,
                            baseline={"pending": 5, "in_progress": 0, "completed": 2, "failed": 1})
    seen = running.seen_in({"pending": 2, "in_progress": 1, "completed": 3, "failed": 2})
    assert (seen.done, seen.completed, seen.failed) == (2, 1, 1)
