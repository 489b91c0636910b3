"""Background runs: steps land while the worker goes on, Stop takes effect between steps, one run per thread."""

import time

import pytest

from pipelines.core.runtime.background import BackgroundRuns
from pipelines.core.errors import InvalidInput
from tests.support.toy_pipeline import ToyContext, make_toy_spec


@pytest.fixture
def slow_toy(studio, settings):
    context = ToyContext(deps=None, pause_s=0.25)
    spec = make_toy_spec(context)
    session = studio.new_session(spec, {"topic": "kites"}, settings)
    return session, lambda: studio.open_session(spec, session.thread_id, settings), context


def _wait_for(condition, timeout=20.0):
    deadline = time.time() + timeout
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.02)


def test_steps_land_one_by_one_while_the_worker_runs_to_the_interrupt(slow_toy):
    session, opener, _ = slow_toy
    runs = BackgroundRuns()
    run = runs.start(session.thread_id, "end", opener)
    _wait_for(lambda: len(run.steps) >= 1)
    assert run.running and runs.active(session.thread_id) is run  # seen mid-run, from another thread
    assert run.wait(20)
    assert run.final_status == "waiting" and run.error is None
    assert [s.label for s in run.steps] == ["1 draft", "2 fast+slow", "3 review"]
    assert [r.label for r in opener().records()][1:] == [s.label for s in run.steps]  # what landed is stored
    assert runs.active(session.thread_id) is None and runs.get(session.thread_id) is run
    assert run.summary().startswith("Ran 3 step(s) in the background") and run.summary().endswith("finished.")


def test_stop_takes_effect_between_steps_and_keeps_the_step_under_way(slow_toy):
    session, opener, context = slow_toy
    runs = BackgroundRuns()
    run = runs.start(session.thread_id, "end", opener)
    _wait_for(lambda: context.runs)  # draft is under way
    assert runs.stop(session.thread_id)
    assert run.wait(20)
    assert [s.label for s in run.steps] == ["1 draft"] and context.runs == ["draft"]
    assert run.final_status == "ready" and "stopped by you" in run.summary()
    session = opener()
    assert session.status() == "ready" and session.snapshot().next == ("fast", "slow")
    assert not runs.stop(session.thread_id)  # nothing left to stop


def test_one_background_run_per_thread_at_a_time(slow_toy):
    session, opener, _ = slow_toy
    runs = BackgroundRuns()
    run = runs.start(session.thread_id, "end", opener)
    with pytest.raises(InvalidInput, match="already running"):
        runs.start(session.thread_id, "interrupt", opener)
    run.wait(20)
    runs.start(session.thread_id, "end", opener).wait(20)  # once it has ended, another may start


def test_a_worker_that_cannot_open_its_session_reports_why(slow_toy):
    session, _, _ = slow_toy
    runs = BackgroundRuns()

    def broken():
        raise RuntimeError("the run database is down")

    run = runs.start(session.thread_id, "end", broken)
    assert run.wait(5) and run.error == "RuntimeError: the run database is down"
    assert "stopped with an error after 0 step(s)" in run.summary()


def test_a_failing_step_ends_the_run_and_says_which(slow_toy):
    session, opener, context = slow_toy
    context.fail_in.add("fast")
    run = BackgroundRuns().start(session.thread_id, "end", opener)
    assert run.wait(20)
    assert run.final_status == "failed" and run.summary().startswith("A step failed:") and "fast exploded" in run.summary()
