"""Diffs between states and the field-evolution matrix."""

from pipelines.core.trace.records import (StepRecord, TaskRecord, branch_records, diff_values, evolution_matrix,
                                  first_changed_by)


def record(step, node, changes, status="completed"):
    return StepRecord(step_key=f"k{step}{node}", thread_id="t", step=step, status=status, started_at=0.0,
                      duration_ms=1.0, parent_checkpoint_id=None, checkpoint_id=f"c{step}" if status == "completed" else None,
                      changes=changes, tasks=[TaskRecord(task_id=f"t{step}", node=node, started_at=0.0, duration_ms=1.0)])


def test_diff_classifies_set_changed_appended_removed():
    before = {"a": None, "b": 1, "c": [1], "d": "x", "e": [1, 2]}
    after = {"a": "now", "b": 2, "c": [1, 2, 3], "d": None, "e": [2], "f": {"k": 1}}
    assert diff_values(before, after) == {"a": "set", "b": "changed", "c": "appended", "d": "removed",
                                          "e": "changed", "f": "set"}


def test_diff_ignores_equal_values_and_treats_empty_list_growth_as_appended():
    assert diff_values({"x": [1], "y": {"a": 1}}, {"x": [1], "y": {"a": 1}}) == {}
    assert diff_values({"tasks": []}, {"tasks": [{"id": 1}]}) == {"tasks": "appended"}


def test_evolution_matrix_tracks_presence_across_steps():
    steps = [record(0, "__input__", {"a": "set"}), record(1, "n1", {"b": "set"}),
             record(2, "n2", {"a": "removed", "b": "changed"}),
             record(3, "n3", {}, status="interrupted")]
    matrix = evolution_matrix(steps, field_order=["a", "b", "c"])
    assert matrix.steps == ["0 input", "1 n1", "2 n2"]  # interrupted attempts are not columns
    assert matrix.fields == ["a", "b", "c"]
    assert [matrix.cell("a", i) for i in range(3)] == ["set", "unchanged", "removed"]
    assert [matrix.cell("b", i) for i in range(3)] == ["absent", "set", "changed"]
    assert [matrix.cell("c", i) for i in range(3)] == ["absent", "absent", "absent"]


def test_first_changed_by_skips_the_input_step():
    steps = [record(0, "__input__", {"a": "set", "b": "set"}), record(1, "n1", {"b": "appended"}),
             record(2, "n2", {"a": "changed", "b": "appended"})]
    assert first_changed_by(steps) == {"b": "n1", "a": "n2"}


def test_parallel_step_label_lists_its_nodes_sorted():
    step = record(4, "b", {})
    step.tasks.append(TaskRecord(task_id="x", node="a", started_at=0, duration_ms=2))
    assert step.label == "4 a+b"
    assert step.nodes == ["a", "b"]


def test_branch_records_follow_the_path_back_from_the_head():
    def rec(key, parent, cid, status="completed"):
        r = record(0, key, {}, status)
        r.step_key, r.parent_checkpoint_id, r.checkpoint_id = key, parent, cid if status == "completed" else None
        return r

    # input -> c0 -> c1 -> c2 (old branch);  c1 -> c3 (a fork made after rewinding to c1); an attempt from c3
    records = [rec("in", None, "c0"), rec("a", "c0", "c1"), rec("b", "c1", "c2"), rec("fork", "c1", "c3"),
               rec("try", "c3", None, status="interrupted"), rec("old-try", "c2", None, status="failed")]
    assert [r.step_key for r in branch_records(records, "c3")] == ["in", "a", "fork", "try"]
    assert [r.step_key for r in branch_records(records, "c2")] == ["in", "a", "b", "old-try"]
    assert branch_records([], None) == []
