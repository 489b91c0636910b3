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
from pipelines.core.runtime.state_edit import as_state_update, validate_state_edits
from pipelines.core.trace.records import StepRecord, TaskRecord, branch_records, diff_values


# Histories by (studio, thread, latest checkpoint, head, limit): a new checkpoint anywhere in the thread
# changes the latest one, so an entry is never stale.
_HISTORY: OrderedDict[tuple, list[CheckpointInfo]] = OrderedDict()
_HISTORY_LOCK = threading.Lock()
_HISTORY_SIZE = 64


class TimeTravel:
    """Mixed into Session, whose graph, thread, snapshot and run store it uses."""

    def history(self, limit: int | None = None) -> list[CheckpointInfo]:
        """Every checkpoint of the thread (all branches, newest first), marked when on the current branch.
        Read once per state of the thread: a page redrawn while nothing moved reuses it."""
        head = self.head_checkpoint_id()
        latest = head if self.cursor is None else self._checkpoint_id(self.graph.get_state(self._config()))
        key = (id(self.studio), self.thread_id, latest, head, limit)
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
        records = self.studio.runs.load_steps(self.thread_id)
        produced = {r.checkpoint_id: r.nodes for r in records if r.checkpoint_id}
        branch = {r.checkpoint_id for r in branch_records(records, head)} | {head}
        infos = []
        for snap in self.graph.get_state_history(self._config(), limit=limit):
            cid = snap.config["configurable"]["checkpoint_id"]
            parent = (snap.parent_config or {}).get("configurable", {}).get("checkpoint_id")
            infos.append(CheckpointInfo(
                checkpoint_id=cid, parent_id=parent, step=int(snap.metadata.get("step", -1)),
                source=str(snap.metadata.get("source", "")), next=tuple(snap.next),
                created_at=snap.created_at or "", on_branch=cid in branch, produced_by=produced.get(cid, [])))
        return infos

    def state_at(self, checkpoint_id: str) -> dict[str, Any]:
        """The state as it was at a checkpoint of this thread, on any branch."""
        snap = self.graph.get_state(self._config(checkpoint_id))
        if not snap.config or snap.created_at is None:
            raise InvalidInput(f"no checkpoint {checkpoint_id} in thread {self.thread_id}")
        return dict(snap.values or {})

    def record_at(self, checkpoint_id: str) -> StepRecord | None:
        """The step that wrote a checkpoint (its diff and tasks); None for one written outside Stepwise."""
        return next((r for r in self.studio.runs.load_steps(self.thread_id)
                     if r.checkpoint_id == checkpoint_id and r.status == "completed"), None)

    def rewind(self, checkpoint_id: str) -> None:
        """Move the cursor to an earlier checkpoint; the next step continues (forks) from there."""
        self.state_at(checkpoint_id)  # raises for a checkpoint the thread does not have
        latest = self.graph.get_state(self._config()).config["configurable"]["checkpoint_id"]
        self._update_thread(cursor_checkpoint_id=None if checkpoint_id == latest else checkpoint_id)
        self._snapshot = None
        self._update_thread(status=self.status())  # the run picker says what the run now stands at

    def fork(self, checkpoint_id: str, edits: Mapping[str, Any], as_node: str | None) -> StepOutcome:
        """A new branch from a checkpoint with some fields edited, as if `as_node` had written them. The edit
        is checked against the state schema first: an invalid one raises InvalidInput and changes nothing."""
        validated = validate_state_edits(self.graph, edits, rules=self.spec.field_rules, counters=self.spec.counters,
                                         current=self.state_at(checkpoint_id))
        if as_node is not None and as_node not in self.graph.builder.nodes:
            raise InvalidInput(f"{as_node!r} is not a node of {self.spec.title}")
        previous = self.cursor
        self.rewind(checkpoint_id)
        try:
            return self.edit_state(validated, as_node=as_node, shown=edits)
        except Exception as exc:
            self._update_thread(cursor_checkpoint_id=previous)  # the run stays where it stood
            self._snapshot = None
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput(f"LangGraph refused the edit: {type(exc).__name__}: {exc}") from exc

    def edit_state(self, values: Mapping[str, Any], as_node: str | None = None,
                   shown: Mapping[str, Any] | None = None) -> StepOutcome:
        """Fork from the current position with these values, as if `as_node` had written them; a field with a
        reducer is set to the value, not combined with it. `shown` is the edit as typed, for the record."""
        before = self.snapshot()
        from_id = self.head_checkpoint_id()
        started = time.time()
        new_config = self.graph.update_state(self._config(self.cursor), as_state_update(self.graph, values),
                                             as_node=as_node)
        self._snapshot = None
        self._update_thread(cursor_checkpoint_id=None)
        after = self.snapshot()
        self._update_thread(status=self.status())
        record = StepRecord(
            step_key=uuid.uuid4().hex, thread_id=self.thread_id, step=int(after.metadata.get("step", 0)),
            status="completed", started_at=started, duration_ms=0.0, parent_checkpoint_id=from_id,
            checkpoint_id=new_config["configurable"]["checkpoint_id"],
            changes=diff_values(before.values, after.values),
            tasks=[TaskRecord(task_id="edit", node=f"edit:{as_node or 'state'}", started_at=started,
                              duration_ms=0.0, update=dict(shown if shown is not None else values))],
            counters=self._counter_values(after.values))
        self.studio.runs.save_step(record)
        return StepOutcome(record=record, status=self.status(), next=tuple(after.next))
