"""A fork is held to what the workflow's start form accepts and to its counters' limits, in every workflow."""

import pytest

from pipelines.core.errors import InvalidInput

from pipelines.core.registry import get_spec


def _stepped(studio, settings, pipeline, raw, steps=2):
    session = studio.new_session(get_spec(pipeline), raw, settings)
    for _ in range(steps):
        if session.status() == "ready":
            session.step()
    return session


def _refused(session, edits):
    first = session.history()[-1].checkpoint_id  # the input checkpoint
    with pytest.raises(InvalidInput) as refused:
        session.fork(first, edits, as_node=None)
    return str(refused.value)


@pytest.fixture
def career(studio, settings):
    spec = get_spec("career_navigator")
    return _stepped(studio, settings, "career_navigator", spec.scenario("seed_example").input)


def test_career_navigator_forks_meet_the_start_forms_rules(career):
    profile = dict(career.values()["user_profile"])
    message = _refused(career, {"user_profile": {**profile, "age": 5}, "iteration_count": -1, "max_iterations": 0})
    assert "user_profile: age: Input should be greater than or equal to 14" in message
    assert "iteration_count: a counter must be a whole number from 0, not -1" in message
    assert "max_iterations: Input should be greater than or equal to 1" in message


@pytest.mark.parametrize("edits, reason", [
    ({"iteration_count": 4}, "iteration_count: 4 is over its limit of 3 (max_iterations)"),
    ({"iteration_count": True}, "iteration_count: a counter must be a whole number from 0, not true"),
    ({"iteration_count": 1.5}, "iteration_count: Input should be a valid integer"),
    ({"max_iterations": 1, "iteration_count": 2}, "iteration_count: 2 is over its limit of 1"),
    ({"plan_revision_count": "2"}, "plan_revision_count: a counter must be a whole number from 0, not \"2\""),
])
def test_counters_are_whole_numbers_from_zero_to_their_limit(career, edits, reason):
    assert reason in _refused(career, edits)


def test_a_valid_fork_still_goes_through(career):
    first = career.history()[-1].checkpoint_id
    outcome = career.fork(first, {"iteration_count": 3, "max_iterations": 5}, as_node=None)
    assert career.values()["iteration_count"] == 3 and outcome.record.changes["max_iterations"] == "changed"


def test_ican_forks_meet_its_start_forms_rules_and_counters(studio, settings):
    session = _stepped(studio, settings, "ican", {"raw_input": "I am a nurse and I like teaching"}, steps=1)
    message = _refused(session, {"raw_input": "   ", "language": "fr", "client_turns": 9, "progress": 101})
    assert "raw_input: String should have at least 1 character" in message
    assert "language: Input should be 'en' or 'zh'" in message
    assert "client_turns: 9 is over its limit of 3" in message and "progress: 101 is over its limit of 100" in message


def test_flink_forks_meet_the_diagnosis_schema_and_the_retry_limit(studio, settings):
    raw = {"job_id": "orders-etl", "error_message": "java.lang.OutOfMemoryError: Java heap space"}
    session = _stepped(studio, settings, "flink_diagnosis", raw, steps=1)
    message = _refused(session, {"retry_count": 4, "diagnosis_result": {
        "root_cause": "x", "detailed_analysis": "y", "suggested_fix": "z", "priority": "urgent", "confidence": 5}})
    assert "retry_count: 4 is over its limit of 3" in message
    assert "diagnosis_result: priority: Input should be" in message and "confidence: Input should be less than" in message
