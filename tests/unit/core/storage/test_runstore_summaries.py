"""Run summaries for the Runs page (one query), renaming with validation, and deleting a run with its checkpoints."""

import pytest
from sqlalchemy import event

from pipelines.core.errors import InvalidInput

from pipelines.core.registry import get_spec
from pipelines.core.runtime.studio import Studio
from tests.conftest import scenario
from tests.support.driving import DISSATISFIED_SEED, SATISFIED, run_with_answers
from tests.support.toy_pipeline import ToyContext, make_toy_spec


def _finished(studio, settings, spec, name="seed_example", answers=(DISSATISFIED_SEED, SATISFIED, SATISFIED), **kw):
    session = studio.new_session(spec, scenario(name)["input"], settings, scenario=name, **kw)
    run_with_answers(session, list(answers))
    return session


def test_summaries_give_steps_duration_and_newest_first(studio, settings, spec):
    first = _finished(studio, settings, spec)
    flink = get_spec("flink_diagnosis")
    started = studio.new_session(flink, flink.scenario("checkpoint_expired").input, settings, scenario="checkpoint_expired")
    summaries = studio.runs.thread_summaries()
    assert [s.thread_id for s in summaries] == [started.thread_id, first.thread_id]
    done = summaries[1]
    records = studio.runs.load_steps(first.thread_id)
    assert done.status == "completed" and done.pipeline == "career_navigator" and done.provider == "offline engine"
    assert done.steps == sum(1 for r in records if r.status == "completed") > 10
    expected = (max(r.started_at + r.duration_ms / 1000 for r in records) - min(r.started_at for r in records)) * 1000
    assert done.duration_ms == pytest.approx(expected) and done.duration_ms > 0
    assert done.first_started_at == min(r.started_at for r in records) and done.last_error is None
    assert summaries[0].steps == 1 and summaries[0].status == "ready"  # only its input so far


def test_a_thread_without_steps_is_listed_with_none_for_its_figures(studio):
    studio.runs.create_thread("bare", "career_navigator", None, "bare", "offline engine")
    (bare,) = studio.runs.thread_summaries()
    assert bare.steps == 0 and bare.duration_ms is None and bare.first_started_at is None


def test_filters_by_workflow_status_and_search(studio, settings, spec):
    done = _finished(studio, settings, spec, title="Alpha run")
    flink = get_spec("flink_diagnosis")
    other = studio.new_session(flink, flink.scenario("checkpoint_expired").input, settings, title="Beta 100% sure")
    runs = studio.runs
    assert [s.thread_id for s in runs.thread_summaries("flink_diagnosis")] == [other.thread_id]
    assert [s.thread_id for s in runs.thread_summaries(status="completed")] == [done.thread_id]
    assert [s.title for s in runs.thread_summaries(search="  alpha ")] == ["Alpha run"]  # case and spaces ignored
    assert [s.title for s in runs.thread_summaries(search="100%")] == ["Beta 100% sure"]
    assert runs.thread_summaries(search="0%s") == []  # % is a character, not a wildcard
    assert [s.thread_id for s in runs.thread_summaries(search=done.thread_id[3:12].upper())] == [done.thread_id]
    assert len(runs.thread_summaries(limit=1)) == 1


def test_the_last_error_is_the_latest_failed_step(studio, settings):
    context = ToyContext(deps=None)
    session = studio.new_session(make_toy_spec(context), {"topic": "kites"}, settings)
    context.fail_in.add("draft")
    session.step()
    (summary,) = studio.runs.thread_summaries()
    assert summary.status == "failed" and summary.last_error == "RuntimeError: draft exploded"
    context.fail_in.clear()
    session.step()
    (summary,) = studio.runs.thread_summaries()
    assert summary.status == "ready" and summary.last_error == "RuntimeError: draft exploded"  # kept as history


def test_summaries_of_many_threads_take_one_query(studio, settings, spec):
    for _ in range(4):
        _finished(studio, settings, spec, "clear_goal", [SATISFIED])
    statements = []
    event.listen(studio.runs.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    summaries = studio.runs.thread_summaries()
    assert len(summaries) == 4 and all(s.steps > 1 for s in summaries)
    assert len(statements) == 1 and "GROUP BY" in statements[0]


def test_rename_strips_and_refuses_empty_or_over_long_titles(studio, settings, spec):
    session = _finished(studio, settings, spec, "clear_goal", [SATISFIED])
    runs = studio.runs
    runs.update_thread(session.thread_id, title="  Chen · data scientist  ")
    assert runs.get_thread(session.thread_id).title == "Chen · data scientist"
    with pytest.raises(InvalidInput, match="cannot be empty"):
        runs.update_thread(session.thread_id, title="   ")
    with pytest.raises(InvalidInput, match="at most 120 characters"):
        runs.update_thread(session.thread_id, title="x" * 121)
    runs.update_thread(session.thread_id, title="y" * 120)
    assert runs.get_thread(session.thread_id).title == "y" * 120
    assert runs.get_thread(session.thread_id).status == "completed"


@pytest.fixture(params=["sqlite", "memory"])
def any_studio(request, settings):
    studio = Studio.from_settings(settings) if request.param == "sqlite" else Studio.in_memory()
    yield studio
    studio.close()


def test_delete_run_removes_its_checkpoints_and_records_and_nothing_else(any_studio, settings, spec):
    gone = _finished(any_studio, settings, spec)
    kept = _finished(any_studio, settings, spec, "clear_goal", [SATISFIED])
    saver = any_studio.checkpoints.saver

    def checkpoints(thread_id):
        return list(saver.list({"configurable": {"thread_id": thread_id}}))

    assert checkpoints(gone.thread_id) and checkpoints(kept.thread_id)
    deleted = any_studio.delete_run(gone.thread_id)
    assert deleted.thread_id == gone.thread_id and deleted.title == "软件工程师 → 希望转向AI产品经理方向发展"  # titled by its client
    assert checkpoints(gone.thread_id) == []
    graph = any_studio.compiled(spec)
    assert graph.get_state({"configurable": {"thread_id": gone.thread_id}}).values == {}
    assert any_studio.runs.get_thread(gone.thread_id) is None and any_studio.runs.load_steps(gone.thread_id) == []
    assert [s.thread_id for s in any_studio.runs.thread_summaries()] == [kept.thread_id]
    assert checkpoints(kept.thread_id) and any_studio.open_session(spec, kept.thread_id, settings).status() == "completed"
    with pytest.raises(InvalidInput, match="no run with thread id"):
        any_studio.open_session(spec, gone.thread_id, settings)
    assert any_studio.delete_run(gone.thread_id) is None  # a second delete (another tab) is harmless

