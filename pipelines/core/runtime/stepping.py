"""How a node that runs a subgraph lets the studio step into it, one inner node per step."""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.config import get_config
from langgraph.types import StateSnapshot

from pipelines.core.runtime.outcomes import StepOutcome
from pipelines.core.trace.records import StepRecord, TaskRecord

# Set by Session on the runs it steps; a node that invokes a subgraph passes subgraph_step_options() to it.
STEP_INTO_SUBGRAPHS = "stepwise_step_into_subgraphs"


def subgraph_step_options() -> dict[str, Any]:
    """`interrupt_after="*"` for the subgraph when the studio is stepping (so each inner node is a step of
    its own), nothing otherwise: a plain invoke of the workflow runs the subgraph straight through."""
    try:
        configurable = get_config().get("configurable", {})
    except RuntimeError:  # called outside a running graph
        return {}
    return {"interrupt_after": "*"} if configurable.get(STEP_INTO_SUBGRAPHS) else {}


class SubgraphStepping:
    """Session's part for subgraphs: records for steps inside one, the inner next nodes, inner breakpoints."""

    def _at_breakpoint(self, next_nodes: tuple[str, ...]) -> bool:
        """A breakpoint on a subgraph's first node also holds when its parent node is next to start."""
        entries = self.studio.subgraph_entries(self.spec)
        return any(b in next_nodes or (b in entries and b.split(":")[0] in next_nodes) for b in self.breakpoints)

    def _substep(self, tasks: list[TaskRecord], from_id: str | None, started: float, duration_ms: float,
                 before: StateSnapshot | None) -> StepOutcome:
        """A step inside a subgraph: its node ran and the subgraph paused; the parent has no new checkpoint,
        so the record hangs off the checkpoint it started from and its changes are the inner node's."""
        changes = {f"{t.graph_node} → {key}": "changed" for t in tasks for key in (t.update or {})}
        record = StepRecord(
            step_key=uuid.uuid4().hex, thread_id=self.thread_id,
            step=int(((before.metadata if before else None) or {}).get("step", -1)) + 1, status="substep",
            started_at=started, duration_ms=duration_ms, parent_checkpoint_id=from_id, checkpoint_id=None,
            changes=changes, tasks=tasks)
        status = self.status()
        self.studio.runs.save_step(record, {"status": status})
        return StepOutcome(record=record, status=status, next=self._next_after_step())

    def _next_after_step(self) -> tuple[str, ...]:
        """Inner next nodes cost a nested read of the state: only worth it when a breakpoint is inside."""
        if any(":" in b for b in self.breakpoints):
            return self.next_nodes()
        return tuple(self.snapshot().next)

    def next_nodes(self) -> tuple[str, ...]:
        """What runs next: inside a paused subgraph, its next nodes as `parent:child` (the graph's names).
        Read once per snapshot: the step controls and the graph both ask on every page draw."""
        snap = self.snapshot()
        if self._next_nodes is not None and self._next_nodes[0] is snap:
            return self._next_nodes[1]
        result = tuple(snap.next)
        if snap.next and self.studio.has_subgraphs(self.spec):
            nested = self.graph.get_state(self._config(self.cursor), subgraphs=True)
            result = tuple(f"{task.name}:{name}" for task in nested.tasks
                           if isinstance(task.state, StateSnapshot) for name in task.state.next) or result
        self._next_nodes = (snap, result)
        return result
