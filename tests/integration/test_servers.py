"""A CareerNavigator run with PostgreSQL checkpoints, and run records on PostgreSQL and MariaDB."""

import uuid

import pytest

from pipelines.core.storage.checkpoints import open_checkpointer
from pipelines.core.storage.runstore import RunStore
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.core.trace.records import StepRecord, TaskRecord
from tests.conftest import scenario
from tests.support.driving import DISSATISFIED_SEED, SATISFIED, run_with_answers

pytestmark = pytest.mark.services


def test_seed_example_on_postgres_checkpoints_survives_a_new_connection(postgres_url, tmp_path, spec):
    settings = load_settings(data_dir=str(tmp_path), checkpoint_url=postgres_url)
    studio = Studio.from_settings(settings)
    try:
        session = studio.new_session(spec, scenario("seed_example")["input"], settings)
        run_with_answers(session, [DISSATISFIED_SEED, SATISFIED])
        assert session.pending_interrupts()[0].kind == "plan_confirmation"
        thread = session.thread_id
        first_report_step = next(c for c in session.history() if c.produced_by == ["reporter"])
    finally:
        studio.close()
    again = Studio.from_settings(settings)  # as a restarted app or a second machine would
    try:
        session = again.open_session(spec, thread, settings)
        assert session.values()["iteration_count"] == 1
        session.resume(SATISFIED)
        assert session.status() == "completed"
        session.rewind(first_report_step.checkpoint_id)
        assert session.snapshot().next == ("collect_feedback",)
    finally:
        again.close()
    assert open_checkpointer(postgres_url).kind == "postgresql"


@pytest.mark.parametrize("which", ["postgres", "mariadb"])
def test_run_records_round_trip_on_server_databases(which, request):
    url = request.getfixturevalue(f"{which}_url")
    if which == "postgres":
        url = url.replace("postgresql://", "postgresql+psycopg://")
    store = RunStore(url)
    thread = uuid.uuid4().hex
    try:
        store.create_thread(thread, "career_navigator", "seed_example", "t", "offline engine",
                            raw_input={"user_profile": {"career_goals": "成为AI产品经理"}})
        record = StepRecord(step_key=uuid.uuid4().hex, thread_id=thread, step=4, status="completed", started_at=1.0,
                            duration_ms=12.5, parent_checkpoint_id="p", checkpoint_id="c",
                            changes={"self_insight_result": "set"}, counters={"iteration_count": 0},
                            tasks=[TaskRecord(task_id="t1", node="user_profiler", started_at=1.0, duration_ms=10.0,
                                              update={"strengths": ["技术背景"]},
                                              model_calls=[{"provider": "offline", "input_tokens": 3}])])
        store.save_step(record)
        (loaded,) = store.load_steps(thread)
        assert loaded.changes == {"self_insight_result": "set"} and loaded.tasks[0].update == {"strengths": ["技术背景"]}
        assert loaded.tasks[0].input_tokens == 3 and store.get_thread(thread).input["user_profile"]
        store.update_thread(thread, status="completed")
        assert store.list_threads("career_navigator")[0].thread_id == thread
    finally:
        store.delete_thread(thread)
        store.dispose()
