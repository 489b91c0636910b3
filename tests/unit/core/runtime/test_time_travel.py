"""Time travel: the state at any checkpoint with its step's diff, forks with schema-checked edits, branches."""

import pytest

from pipelines.core.runtime.branches import branch_numbers, checkpoint_branches
from pipelines.core.errors import InvalidInput
from pipelines.core.registry import get_spec
from pipelines.core.runtime.state_edit import MAX_EDIT_CHARS, editable_fields, parse_state_edits
from tests.support.driving import run_with_answers
from tests.support.toy_pipeline import ToyContext, make_toy_spec

APPROVE = {"decision": "approve", "note": "fine"}


@pytest.fixture
def toy(studio, settings):
    context = ToyContext(deps=None)
    session = studio.new_session(make_toy_spec(context), {"topic": "kites"}, settings, scenario="demo")
    session.run("end")
    session.resume(APPROVE)
    session.run("end")
    return session, context


def _after(session, node):
    return next(c for c in session.history() if c.produced_by == [node])


def test_the_state_at_an_old_checkpoint_and_the_diff_of_the_step_that_wrote_it(toy):
    session, _ = toy
    after_draft = _after(session, "draft")
    then = session.state_at(after_draft.checkpoint_id)
    assert then["log"] == ["draft"] and then["decision"] is None
    assert session.values()["log"][-1] == "publish"  # the run itself did not move
    record = session.record_at(after_draft.checkpoint_id)
    assert record.nodes == ["draft"] and record.changes == {"log": "appended"}
    with pytest.raises(InvalidInput, match="no checkpoint"):
        session.state_at("not-a-checkpoint")


def test_a_fork_with_edits_starts_a_branch_that_continues_from_the_edit(toy):
    session, context = toy
    after_draft = _after(session, "draft")
    outcome = session.fork(after_draft.checkpoint_id, {"topic": "boats", "max_rounds": 5}, as_node="draft")
    assert outcome.next == ("fast", "slow")  # as if draft had written the edit
    assert session.values()["topic"] == "boats" and session.values()["max_rounds"] == 5
    assert outcome.record.changes == {"topic": "changed", "max_rounds": "changed"}
    assert [r.nodes for r in session.records()] == [["__input__"], ["draft"], ["edit:draft"]]
    context.runs.clear()
    session.step()
    assert sorted(context.runs) == ["fast", "slow"]
    branches = checkpoint_branches(session.history())
    assert len(branches) == 2
    fork = branches[1]
    assert fork.fork_from.checkpoint_id == after_draft.checkpoint_id and fork.parent_branch == 1 and fork.edited
    assert "edited at step" in fork.describe() and fork.holds(session.head_checkpoint_id())


def test_a_reducer_field_is_set_to_the_edited_list_not_appended_to(toy):
    session, _ = toy
    after_fast_slow = next(c for c in session.history() if sorted(c.produced_by) == ["fast", "slow"])
    session.fork(after_fast_slow.checkpoint_id, {"log": ["draft", "rewritten"]}, as_node="slow")
    assert session.values()["log"] == ["draft", "rewritten"]


def test_an_invalid_edit_is_refused_with_every_reason_and_changes_nothing(toy):
    session, _ = toy
    before = (len(session.history()), session.head_checkpoint_id(), session.cursor)
    after_draft = _after(session, "draft")
    with pytest.raises(InvalidInput) as refused:
        session.fork(after_draft.checkpoint_id, {"rounds": "many", "colour": "red", "log": "not a list"}, "draft")
    message = str(refused.value)
    assert "rounds:" in message and "colour: not a field of the state" in message and "log:" in message
    with pytest.raises(InvalidInput, match="not a node"):
        session.fork(after_draft.checkpoint_id, {"topic": "boats"}, as_node="nowhere")
    assert (len(session.history()), session.head_checkpoint_id(), session.cursor) == before


def test_each_branch_can_be_continued_from_its_last_checkpoint(toy):
    session, context = toy
    original_leaf = session.head_checkpoint_id()
    after_draft = _after(session, "draft")
    session.fork(after_draft.checkpoint_id, {"topic": "boats"}, as_node="draft")
    fork_leaf = session.head_checkpoint_id()
    session.rewind(original_leaf)  # back to the first branch, completed
    assert session.status() == "completed" and session.values()["topic"] == "kites"
    session.rewind(fork_leaf)
    context.runs.clear()
    session.run("end")
    assert session.status() == "waiting" and sorted(context.runs) == ["fast", "review", "slow"]
    numbers = branch_numbers(checkpoint_branches(session.history()))
    assert numbers[original_leaf] == 1 and numbers[session.head_checkpoint_id()] == 2


def test_a_second_fork_from_the_same_checkpoint_is_a_third_branch(toy):
    session, _ = toy
    after_draft = _after(session, "draft")
    session.fork(after_draft.checkpoint_id, {"topic": "boats"}, as_node="draft")
    session.fork(after_draft.checkpoint_id, {"topic": "planes"}, as_node="draft")
    branches = checkpoint_branches(session.history())
    assert [b.number for b in branches] == [1, 2, 3]
    assert {b.fork_from.checkpoint_id for b in branches[1:]} == {after_draft.checkpoint_id}
    assert session.values()["topic"] == "planes"


def test_forks_of_every_workflow_check_their_own_schema(studio, settings):
    for pipeline, edit, bad in (("career_navigator", {"iteration_count": 2, "workflow_notes": ["note"]},
                                 {"user_profile": {"skills": "not a list"}}),
                                ("flink_diagnosis", {"retry_count": 2}, {"status": "exploded"}),
                                ("ican", {"raw_input": "I like drawing", "client_turns": 1}, {"progress": "half"})):
        spec = get_spec(pipeline)
        scenario = spec.scenarios()[0]
        session = studio.new_session(spec, scenario.input, settings, scenario=scenario.name)
        run_with_answers(session, scenario.answers)
        infos = session.history()
        target = infos[len(infos) // 2]
        node = next(n for n in target.produced_by if n in session.graph.builder.nodes)
        with pytest.raises(InvalidInput, match="does not match the state schema"):
            session.fork(target.checkpoint_id, bad, as_node=node)
        outcome = session.fork(target.checkpoint_id, edit, as_node=node)
        assert all(session.values()[k] == v for k, v in edit.items()), pipeline
        assert outcome.status == "ready" and len(checkpoint_branches(session.history())) == 2
        session.run("end")
        assert session.status() in ("waiting", "completed"), pipeline


def test_the_editor_text_is_checked_before_the_schema():
    with pytest.raises(InvalidInput, match="not valid JSON .line 1"):
        parse_state_edits("{topic: boats}")
    with pytest.raises(InvalidInput, match="must be a JSON object"):
        parse_state_edits('["topic"]')
    with pytest.raises(InvalidInput, match="changes no field"):
        parse_state_edits("{}")
    with pytest.raises(InvalidInput, match="the limit is"):
        parse_state_edits('{"topic": "' + "x" * MAX_EDIT_CHARS + '"}')
    assert parse_state_edits('{"topic": "boats"}') == {"topic": "boats"}


def test_editable_fields_come_from_the_state_schema(studio):
    fields = editable_fields(studio.compiled(get_spec("career_navigator")))
    assert {"messages", "iteration_count", "user_profile", "workflow_notes"} <= set(fields)
    fields = editable_fields(studio.compiled(get_spec("ican")))
    assert {"conversation_history", "riasec_scores", "client_turns"} <= set(fields)


def test_the_run_list_says_where_a_rewound_run_stands(toy, studio):
    session, _ = toy
    assert studio.runs.get_thread(session.thread_id).status == "completed"
    session.rewind(_after(session, "draft").checkpoint_id)
    assert studio.runs.get_thread(session.thread_id).status == session.status() == "ready"
