"""Comparing two threads: the final-state diff, counters side by side, per-node timings and model usage."""

import pytest

from pipelines.core.trace.compare import FieldDiff, compare_sessions, diff_states, preview
from pipelines.core.registry import get_spec
from tests.conftest import scenario
from tests.support.driving import DISSATISFIED_SEED, SATISFIED, run_with_answers


@pytest.fixture
def two_runs(studio, settings, spec):
    """The seed example twice: A asks for a second report, B is satisfied with the first."""
    a = studio.new_session(spec, scenario("seed_example")["input"], settings, scenario="seed_example")
    run_with_answers(a, [DISSATISFIED_SEED, SATISFIED, SATISFIED])
    b = studio.new_session(spec, scenario("seed_example")["input"], settings, scenario="seed_example")
    run_with_answers(b, [SATISFIED, SATISFIED])
    assert a.status() == b.status() == "completed"
    return a, b


def test_the_state_diff_shows_the_fields_the_answers_changed(two_runs):
    a, b = two_runs
    comparison = compare_sessions(a, b)
    kinds = {f.field: f.kind for f in comparison.fields}
    for changed in ("iteration_count", "user_feedback_history", "integrated_report", "final_plan", "session_id"):
        assert kinds[changed] == "different", changed
    for same in ("user_profile", "messages", "plan_revision_count", "max_iterations"):
        assert kinds[same] == "same", same
    assert comparison.count("only_a") == comparison.count("only_b") == 0 and comparison.same_workflow
    iteration = next(f for f in comparison.fields if f.field == "iteration_count")
    assert (iteration.a, iteration.b) == ("1", "0")
    session_id = next(f for f in comparison.fields if f.field == "session_id")
    assert (session_id.a, session_id.b) == (a.thread_id, b.thread_id)
    assert list(kinds)[:3] == list(get_spec("career_navigator").field_order[:3])  # the workflow's own order


def test_counters_side_by_side_with_their_limits(two_runs):
    comparison = compare_sessions(*two_runs)
    rows = {r.field: r for r in comparison.counters}
    iteration = rows["iteration_count"]
    assert (iteration.label, iteration.a_value, iteration.a_limit, iteration.b_value, iteration.b_limit) == \
        ("Report iterations", 1, 3, 0, 3)
    assert (rows["plan_revision_count"].a_value, rows["plan_revision_count"].b_value) == (0, 0)


def test_per_node_timings_and_model_usage_for_each_run(two_runs):
    a, b = two_runs
    comparison = compare_sessions(a, b)
    nodes = {(n.run, n.node): n for n in comparison.nodes}
    assert "__input__" not in {node for _, node in nodes}
    assert nodes[("A", "reporter")].runs == 2 and nodes[("B", "reporter")].runs == 1  # A wrote a second report
    assert nodes[("A", "reporter")].calls == 2 and nodes[("A", "reporter")].providers == {"offline"}
    for run, session in (("A", a), ("B", b)):
        tasks = [t for r in session.records() for t in r.tasks if t.node == "user_profiler"]
        usage = nodes[(run, "user_profiler")]
        assert usage.runs == len(tasks) and usage.total_ms == pytest.approx(sum(t.duration_ms for t in tasks))
        assert usage.mean_ms == pytest.approx(usage.total_ms / usage.runs) and usage.total_ms > 0
        assert usage.input_tokens == sum(t.input_tokens for t in tasks)
    assert nodes[("A", "collect_feedback")].calls == 0  # an interrupt asks the person, not the model


def test_threads_of_different_workflows_compare_as_only_in(studio, settings, spec):
    career = studio.new_session(spec, scenario("clear_goal")["input"], settings)
    run_with_answers(career, [SATISFIED])
    flink_spec = get_spec("flink_diagnosis")
    flink = studio.new_session(flink_spec, flink_spec.scenario("checkpoint_expired").input, settings)
    flink.run("end")
    comparison = compare_sessions(career, flink)
    kinds = {f.field: f.kind for f in comparison.fields}
    assert not comparison.same_workflow and kinds["career_goals"] == "only_a" and kinds["retry_count"] == "only_b"
    assert comparison.count("only_a") > 10 and comparison.count("only_b") > 5
    assert {r.field for r in comparison.counters} >= {"iteration_count", "retry_count"}
    retry = next(r for r in comparison.counters if r.field == "retry_count")
    assert retry.a_value is None and retry.b_value == 0 and retry.b_limit == 3
    assert {n.run for n in comparison.nodes} == {"A", "B"}


def test_diff_states_kinds_and_previews():
    diffs = diff_states({"x": 1, "shared": [1, 2], "text": "a" * 500, "none": None},
                        {"shared": [1, 2], "text": "b", "y": {"k": "中文"}, "none": None}, order=["y"])
    assert diffs[0] == FieldDiff("y", "only_b", None, '{"k": "中文"}')
    by_field = {d.field: d for d in diffs}
    assert by_field["x"].kind == "only_a" and by_field["shared"].kind == "same" and by_field["none"].kind == "same"
    assert by_field["text"].kind == "different" and len(by_field["text"].a) == 120 and by_field["text"].a.endswith("…")
    assert preview("two\n  lines") == "two lines"
