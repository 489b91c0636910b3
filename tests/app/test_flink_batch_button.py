"""The queue page's batch button does what its label says, whatever the "At most" box held before."""

import pytest

from dashboard.workflows.flink_diagnosis import stores
from dashboard.workflows.flink_diagnosis.batch import BatchRunner
from pipelines.core.settings import load_settings
from pipelines.flink_diagnosis import services
from tests.app.conftest import no_errors

TRACE = "java.lang.OutOfMemoryError: Metaspace\n\tat x.Y.z(Y.java:1)"


def teardown_function():
    services.close_all()


def counts(data_dir):
    return services.open_store(load_settings(data_dir=str(data_dir))).count_by_status()


class FinishingRunner(BatchRunner):
    """A batch that is over before the page is drawn again, as a small offline batch often is in a browser: the
    page never draws the running panel in between (which would drop the box's old value by chance)."""

    def start(self, *args, **kwargs):
        started = super().start(*args, **kwargs)
        self.join(timeout=300)
        return started


@pytest.fixture(autouse=True)
def runner(monkeypatch):
    runner = FinishingRunner()
    monkeypatch.setattr(stores, "batch_runner", lambda: runner)
    return runner


def batch(app, runner):
    """Click the batch button; the batch is over when the click's rerun is."""
    app.button(key="flink_batch_start").click().run()
    no_errors(app)
    assert runner.progress.started_at and not runner.progress.running
    return app.run()


def test_the_button_diagnoses_the_number_it_names_after_a_batch_of_one(page, data_dir, runner):
    services.open_store(load_settings(data_dir=str(data_dir))).add_many(
        [{"job_id": f"j{i}", "error_message": TRACE} for i in range(6)])
    app = page("flink_queue")
    no_errors(app)
    app.number_input(key="flink_batch_limit").set_value(1).run()
    app = batch(app, runner)
    assert counts(data_dir)["completed"] == 1
    # The issue: the box kept its 1 and "Diagnose pending exceptions (5)" diagnosed one. It diagnoses five.
    assert app.button(key="flink_batch_start").label == "Diagnose pending exceptions (5)"
    app = batch(app, runner)
    assert counts(data_dir) == {"pending": 0, "in_progress": 0, "completed": 6, "failed": 0}
    assert "Batch finished: 5 of 5 exceptions diagnosed." in " ".join(s.value for s in app.success)


def test_a_box_above_what_is_still_pending_diagnoses_what_the_button_names(page, data_dir, runner):
    store = services.open_store(load_settings(data_dir=str(data_dir)))
    ids = store.add_many([{"job_id": f"j{i}", "error_message": TRACE} for i in range(5)])
    app = page("flink_queue")
    app.number_input(key="flink_batch_limit").set_value(4).run()
    assert app.button(key="flink_batch_start").label == "Diagnose 4 of 5 pending exceptions"  # a smaller box says so
    for exception_id in ids[:3]:  # meanwhile, another worker takes three of them
        store.claim_by_id(exception_id, "elsewhere")
    app.run()
    no_errors(app)
    assert app.button(key="flink_batch_start").label == "Diagnose pending exceptions (2)"
    app = batch(app, runner)
    assert counts(data_dir) == {"pending": 0, "in_progress": 3, "completed": 2, "failed": 0}


def test_an_untouched_box_follows_the_queue_from_empty(page, data_dir, runner):
    app = page("flink_queue")
    assert app.button(key="flink_batch_start").disabled  # nothing pending: the box shows 1, and is off
    services.open_store(load_settings(data_dir=str(data_dir))).add_many(
        [{"job_id": f"j{i}", "error_message": TRACE} for i in range(3)])
    app.run()
    assert app.button(key="flink_batch_start").label == "Diagnose pending exceptions (3)"
    batch(app, runner)
    assert counts(data_dir)["completed"] == 3
