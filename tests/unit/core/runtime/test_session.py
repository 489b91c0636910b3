"""Session: step, parallel steps, breakpoints, validated resume, rewind and fork, failures, persistence."""

import threading

import pytest

from pipelines.core.errors import InvalidInput
from pipelines.core.runtime.studio import Studio
from tests.support.toy_pipeline import ToyContext, make_toy_spec

APPROVE = {"decision": "approve", "note": "fine"}
REVISE = {"decision": "revise", "note": "again"}


@pytest.fixture
def toy(studio, settings):
    context = ToyContext(deps=None)
    spec = make_toy_spec(context)
    session = studio.new_session(spec, {"topic": "kites"}, settings, scenario="demo")
    return session, context


def test_start_records_the_input_as_step_zero(toy):
    session, context = toy
    (record,) = session.records()
    assert record.step == 0 and record.nodes == ["__input__"] and record.status == "completed"
    assert record.changes == {"topic": "set", "log": "set", "rounds": "set", "max_rounds": "set"}
    assert session.status() == "ready" and session.snapshot().next == ("draft",)
    assert context.runs == []  # nothing ran yet


def test_step_runs_exactly_one_super_step(toy):
    session, context = toy
    outcome = session.step()
    assert context.runs == ["draft"]
    assert outcome.record.nodes == ["draft"] and outcome.record.changes == {"log": "appended"}
    assert outcome.next == ("fast", "slow")


def test_parallel_nodes_are_one_step_with_one_timed_task_each(toy):
    session, context = toy
    session.step()
    # Each of the pair waits at a barrier for the other: the step can only end if they ran side by side.
    context.pair_barrier = threading.Barrier(2)
    record = session.step().record
    assert record.nodes == ["fast", "slow"]
    tasks = {t.node: t for t in record.tasks}
    assert set(tasks) == {"fast", "slow"}
    assert all(t.duration_ms > 0 for t in tasks.values())
    fast, slow = tasks["fast"], tasks["slow"]
    # Their timed spans overlap, as tasks that ran together must, and the step spans both.
    assert fast.started_at <= slow.started_at + slow.duration_ms / 1000
    assert slow.started_at <= fast.started_at + fast.duration_ms / 1000
    assert record.duration_ms >= max(fast.duration_ms, slow.duration_ms)


def test_run_stops_at_breakpoints_only_for_run_to_interrupt(studio, settings):
    spec = make_toy_spec()
    session = studio.new_session(spec, {"topic": "a"}, settings, breakpoints=["review"])
    session.run("interrupt")
    assert session.snapshot().next == ("review",) and session.status() == "ready"
    session.run("interrupt")  # already at the breakpoint: goes on, to the interrupt() inside review
    assert session.status() == "waiting"
    other = studio.new_session(spec, {"topic": "b"}, settings, breakpoints=["review"])
    other.run("end")
    assert other.status() == "waiting"


def test_pending_interrupt_carries_its_schema(toy):
    session, _ = toy
    session.run("end")
    (pending,) = session.pending_interrupts()
    assert pending.kind == "approval" and pending.value["question"] == "Approve kites?"
    assert pending.spec.schema.__name__ == "Approval"


def test_invalid_resume_gets_a_clear_error_and_changes_nothing(toy):
    session, context = toy
    session.run("end")
    before_values, before_id = session.values(), session.head_checkpoint_id()
    before_records = len(session.studio.runs.load_steps(session.thread_id))
    runs = list(context.runs)
    with pytest.raises(InvalidInput, match="decision: Input should be 'approve' or 'revise'"):
        session.resume({"decision": "maybe"})
    with pytest.raises(InvalidInput, match="decision: Field required"):
        session.resume({"note": "no decision"})
    assert session.values() == before_values and session.head_checkpoint_id() == before_id
    assert len(session.studio.runs.load_steps(session.thread_id)) == before_records
    assert context.runs == runs and session.status() == "waiting"


def test_valid_resume_continues_and_the_loop_counts(toy):
    session, _ = toy
    session.run("end")
    session.resume(REVISE)
    assert session.values()["rounds"] == 1 and session.snapshot().next == ("draft",)
    assert session.counters() == {"rounds": {"label": "Revision rounds", "value": 1, "limit": 2}}
    session.run("end")
    session.resume(APPROVE)
    session.run("end")
    assert session.status() == "completed"
    assert session.values()["log"][-2:] == ["review:approve", "publish"]


def test_rewind_and_continue_forks_a_new_branch(toy):
    session, context = toy
    session.run("end")
    session.resume(APPROVE)
    session.run("end")
    assert session.status() == "completed"
    after_draft = next(c for c in session.history() if c.produced_by == ["draft"])
    session.rewind(after_draft.checkpoint_id)
    assert session.snapshot().next == ("fast", "slow") and session.status() == "ready"
    assert [r.nodes for r in session.records()] == [["__input__"], ["draft"]]
    context.runs.clear()
    session.step()
    assert context.runs in (["fast", "slow"], ["slow", "fast"])  # really re-executed, not replayed
    assert session.cursor is None
    assert [r.nodes for r in session.records()][-1] == ["fast", "slow"]
    session.run("end")
    session.resume(REVISE)
    assert session.values()["rounds"] == 1  # the new branch went another way
    history = session.history()
    assert any(not c.on_branch for c in history)  # the old branch is still listed


def test_rewind_to_an_unknown_checkpoint_is_refused(toy):
    session, _ = toy
    with pytest.raises(InvalidInput, match="no checkpoint nope"):
        session.rewind("nope")
    assert session.cursor is None


def test_edit_state_forks_with_new_values(toy):
    session, _ = toy
    session.step()
    outcome = session.edit_state({"topic": "boats"}, as_node="draft")
    assert session.values()["topic"] == "boats"
    assert outcome.record.changes == {"topic": "changed"}
    assert session.records()[-1].nodes == ["edit:draft"]


def test_a_failing_node_is_reported_and_can_be_retried(toy):
    session, context = toy
    context.fail_in.add("draft")
    outcome = session.step()
    assert outcome.status == "failed" and "draft exploded" in outcome.error
    assert session.status() == "failed" and session.thread.status == "failed"
    assert outcome.record.status == "failed" and outcome.record.tasks[0].error
    assert [o.status for o in session.run("end")] == ["failed"]  # retried once, failed again, stopped
    context.fail_in.clear()
    retry = session.step()
    assert retry.status == "ready" and retry.record.nodes == ["draft"]
    context.fail_in.add("publish")
    session.run("end")
    session.resume(APPROVE)
    assert session.run("end")[-1].status == "failed" and session.status() == "failed"
    context.fail_in.clear()
    assert session.run("end")[-1].status == "completed"


def test_records_and_state_survive_a_restart(settings, toy):
    session, _ = toy
    session.run("end")
    session.resume(APPROVE)
    reopened = Studio.from_settings(settings)
    try:
        again = reopened.open_session(session.spec, session.thread_id, settings)
        assert again.values() == session.values()
        assert [r.step_key for r in again.records()] == [r.step_key for r in session.records()]
        assert again.thread.scenario == "demo" and again.thread.input == {"topic": "kites"}
    finally:
        reopened.close()


def test_open_session_rejects_unknown_or_foreign_threads(studio, settings, toy):
    session, _ = toy
    with pytest.raises(InvalidInput, match="no run with thread id"):
        studio.open_session(session.spec, "nope", settings)
    from pipelines.core.registry import get_spec
    with pytest.raises(InvalidInput, match="belongs to toy"):
        studio.open_session(get_spec("career_navigator"), session.thread_id, settings)
