"""Session's part for time travel: the checkpoint history, the state at any checkpoint, rewind, edit and fork."""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from pipelines.core.runtime.outcomes import CheckpointInfo, StepOutcome
from pipelines.core.errors import InvalidInput
from pipelines.core.runtime.position import SessionScope, checkpoint_id_of, counter_values, counting_values
from pipelines.core.runtime.state_edit import as_state_update, validate_state_edits
from pipelines.core.trace.records import StepRecord, TaskRecord, branch_records, diff_values


# Histories by (run store, thread, latest checkpoint, head, limit): a new checkpoint anywhere in the thread
# changes the latest one, so an entry is never stale.
_HISTORY: OrderedDict[tuple, list[CheckpointInfo]] = OrderedDict()
_HISTORY_LOCK = threading.Lock()
_HISTORY_SIZE = 64


class TimeTravel:
    """Session's part for time travel. Uses only its SessionScope: the graph, the thread's position (which it
    moves), the run store, and the spec's field rules and counters."""

    def __init__(self, scope: SessionScope) -> None:
        self.scope = scope
        self.position = scope.position
        self.graph = scope.graph

    def history(self, limit: int | None = None) -> list[CheckpointInfo]:
        """Every checkpoint of the thread (all branches, newest first), marked when on the current branch.
        Read once per state of the thread: a page redrawn while nothing moved reuses it."""
        head = self.position.head_checkpoint_id()
        latest = self.position.latest_checkpoint_id()
        key = (id(self.scope.runs), self.scope.thread_id, latest, head, limit)
        with _HISTORY_LOCK:
            if key in _HISTORY:
                _HISTORY.move_to_end(key)
                return list(_HISTORY[key])
        infos = self._read_history(head, limit)
        with _HISTORY_LOCK:
            _HISTORY[key] = infos
            while len(_HISTORY) > _HISTORY_SIZE:
                _HISTORY.popitem(last=False)
        return list(infos)

    def _read_history(self, head: str | None, limit: int | None) -> list[CheckpointInfo]:
        records = self.scope.runs.load_steps(self.scope.thread_id)
        produced = {r.checkpoint_id: r.nodes for r in records if r.checkpoint_id}
        branch = {r.checkpoint_id for r in branch_records(records, head)} | {head}
        infos = []
        for snap in self.graph.get_state_history(self.position.config(), limit=limit):
            cid = snap.config["configurable"]["checkpoint_id"]
            parent = (snap.parent_config or {}).get("configurable", {}).get("checkpoint_id")
            infos.append(CheckpointInfo(
                checkpoint_id=cid, parent_id=parent, step=int(snap.metadata.get("step", -1)),
                source=str(snap.metadata.get("source", "")), next=tuple(snap.next),
                created_at=snap.created_at or "", on_branch=cid in branch, produced_by=produced.get(cid, [])))
        return infos

    def state_at(self, checkpoint_id: str) -> dict[str, Any]:
        """The state as it was at a checkpoint of this thread, on any branch."""
        snap = self.graph.get_state(self.position.config(checkpoint_id))
        if not snap.config or snap.created_at is None:
            raise InvalidInput(f"no checkpoint {checkpoint_id} in thread {self.scope.thread_id}")
        return dict(snap.values or {})

    def record_at(self, checkpoint_id: str) -> StepRecord | None:
        """The step that wrote a checkpoint (its diff and tasks); None for one written outside Stepwise."""
        return next((r for r in self.scope.runs.load_steps(self.scope.thread_id)
                     if r.checkpoint_id == checkpoint_id and r.status == "completed"), None)

    def rewind(self, checkpoint_id: str) -> None:
        """Move the cursor to an earlier checkpoint; the next step continues (forks) from there."""
        self.state_at(checkpoint_id)  # raises for a checkpoint the thread does not have
        latest = checkpoint_id_of(self.graph.get_state(self.position.config()))
        cursor = None if checkpoint_id == latest else checkpoint_id
        self.position.written(cursor_checkpoint_id=cursor)  # where the state is read from now
        self.position.moved()
        # One write: the cursor, and the status there (the run picker says where the run stands).
        self.position.update_thread(cursor_checkpoint_id=cursor, status=self.position.status(), moved=True)

    def fork(self, checkpoint_id: str, edits: Mapping[str, Any], as_node: str | None) -> StepOutcome:
        """A new branch from a checkpoint with some fields edited, as if `as_node` had written them. The edit
        is checked against the state schema first: an invalid one raises InvalidInput and changes nothing."""
        spec = self.scope.spec
        validated = validate_state_edits(self.graph, edits, rules=spec.field_rules, counters=spec.counters,
                                         current=self.state_at(checkpoint_id))
        if as_node is not None and as_node not in self.graph.builder.nodes:
            raise InvalidInput(f"{as_node!r} is not a node of {spec.title}")
        previous = self.position.cursor
        self.rewind(checkpoint_id)
        try:
            return self.edit_state(validated, as_node=as_node, shown=edits)
        except Exception as exc:
            self.position.update_thread(cursor_checkpoint_id=previous, moved=True)  # the run stays where it stood
            self.position.moved()
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput(f"LangGraph refused the edit: {type(exc).__name__}: {exc}") from exc

    def edit_state(self, values: Mapping[str, Any], as_node: str | None = None,
                   shown: Mapping[str, Any] | None = None) -> StepOutcome:
        """Fork from the current position with these values, as if `as_node` had written them; a field with a
        reducer is set to the value, not combined with it. `shown` is the edit as typed, for the record."""
        position = self.position
        before = position.snapshot()
        from_id = position.head_checkpoint_id()
        started = time.time()
        new_config = self.graph.update_state(position.config(position.cursor), as_state_update(self.graph, values),
                                             as_node=as_node)
        position.moved()
        position.written(cursor_checkpoint_id=None)  # the new checkpoint is the head: read the state there
        after = position.snapshot()
        status = position.status()
        record = StepRecord(
            step_key=uuid.uuid4().hex, thread_id=self.scope.thread_id, step=int(after.metadata.get("step", 0)),
            status="completed", started_at=started, duration_ms=0.0, parent_checkpoint_id=from_id,
            checkpoint_id=new_config["configurable"]["checkpoint_id"],
            changes=diff_values(before.values, after.values),
            tasks=[TaskRecord(task_id="edit", node=f"edit:{as_node or 'state'}", started_at=started,
                              duration_ms=0.0, update=dict(shown if shown is not None else values))],
            counters=counter_values(self.scope.spec, counting_values(self.scope.spec, position)))
        position.save_step(record, status=status, cursor_checkpoint_id=None)
        return StepOutcome(record=record, status=status, next=tuple(after.next))
