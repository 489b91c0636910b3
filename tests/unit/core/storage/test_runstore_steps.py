"""Step records read back from the run store: only the rows added since the last read are read again, and what
another writer did to the same database (steps added, a thread deleted, a row committed late) is always seen."""

from dataclasses import asdict

from sqlalchemy import event, insert

from pipelines.core.storage.runstore import RunStore, steps
from pipelines.core.trace.records import StepRecord, TaskRecord


def _record(thread_id: str, step: int, **kw) -> StepRecord:
    task = TaskRecord(task_id=f"t{step}", node=f"node{step}", started_at=1000.0 + step, duration_ms=1.5,
                      update={"log": [f"node{step}"]}, model_calls=[{"provider": "offline", "input_tokens": 3}])
    return StepRecord(step_key=f"{thread_id}-{step}", thread_id=thread_id, step=step, status="completed",
                      started_at=1000.0 + step, duration_ms=2.0, parent_checkpoint_id=f"c{step - 1}",
                      checkpoint_id=f"c{step}", changes={"log": "appended"}, tasks=[task], **kw)


def _as_dicts(records):
    return [asdict(r) for r in records]


def _count_selects(store: RunStore) -> list[str]:
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *args: statements.append(statement))
    return statements


def test_records_read_again_are_those_read_before_plus_the_new_ones(tmp_path):
    url = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    page, worker = RunStore(url), RunStore(url)  # a page and another process writing the same run
    page.create_thread("t", "toy", None, "toy", "offline")
    for step in range(3):
        worker.save_step(_record("t", step))
    first = page.load_steps("t")
    assert [r.step for r in first] == [0, 1, 2] and first[0].tasks[0].update == {"log": ["node0"]}

    statements = _count_selects(page)
    again = page.load_steps("t")
    assert all(a is b for a, b in zip(again, first))  # nothing decoded again
    assert len(statements) == 1 and "stepwise_tasks" not in statements[0]  # one read of the row ids

    worker.save_step(_record("t", 3))
    statements.clear()
    grown = page.load_steps("t")
    assert [r.step for r in grown] == [0, 1, 2, 3] and grown[0] is first[0]
    assert _as_dicts(grown) == _as_dicts(RunStore(url).load_steps("t"))  # what a fresh reader gets
    assert grown[3].tasks[0].model_calls == [{"provider": "offline", "input_tokens": 3}]


def test_a_thread_deleted_elsewhere_or_a_row_committed_late_is_read_afresh(tmp_path):
    url = f"sqlite:///{tmp_path / 'runs.sqlite'}"
    page, other = RunStore(url), RunStore(url)
    for step in range(2):
        other.save_step(_record("t", step))
    assert len(page.load_steps("t")) == 2
    # rows of other writers: one after those read, then one whose id falls between them (a slow transaction's)
    with other.engine.begin() as conn:
        conn.execute(insert(steps).values(seq=1_000, step_key="late-a", thread_id="t", step=9, status="completed",
                                          started_at=1.0, duration_ms=1.0, changes={}, counters={}))
    assert [r.step_key for r in page.load_steps("t")] == ["t-0", "t-1", "late-a"]
    with other.engine.begin() as conn:
        conn.execute(insert(steps).values(seq=500, step_key="late-b", thread_id="t", step=8, status="failed",
                                          started_at=1.0, duration_ms=1.0, changes={}, counters={}))
    other.save_step(_record("t", 2))
    assert [r.step_key for r in page.load_steps("t")] == ["t-0", "t-1", "late-b", "late-a", "t-2"]
    assert _as_dicts(page.load_steps("t")) == _as_dicts(RunStore(url).load_steps("t"))
    other.delete_thread("t")
    assert page.load_steps("t") == []


def test_a_list_handed_out_can_be_changed_without_changing_the_next_read(tmp_path):
    store = RunStore(f"sqlite:///{tmp_path / 'runs.sqlite'}")
    store.save_step(_record("t", 0))
    store.load_steps("t").clear()
    assert len(store.load_steps("t")) == 1
