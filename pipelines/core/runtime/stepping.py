"""How the studio steps into a subgraph, one inner node per step: a node that invokes a subgraph passes it
subgraph_step_options(); a compiled subgraph added directly as a node is made steppable when the studio compiles
the workflow. And the Session's part for subgraphs: records of steps inside one, inner next nodes, breakpoints."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from langgraph.config import get_config
from langgraph.pregel import Pregel
from langgraph.types import StateSnapshot

from pipelines.core.runtime.outcomes import StepOutcome
from pipelines.core.runtime.position import SessionScope
from pipelines.core.trace.records import StepRecord, TaskRecord

# Set by Session on the runs it steps; a node that invokes a subgraph passes subgraph_step_options() to it.
STEP_INTO_SUBGRAPHS = "stepwise_step_into_subgraphs"


def _stepping(config: Any) -> bool:
    return bool(((config or {}).get("configurable") or {}).get(STEP_INTO_SUBGRAPHS))


def subgraph_step_options() -> dict[str, Any]:
    """`interrupt_after="*"` for the subgraph when the studio is stepping (so each inner node is a step of
    its own), nothing otherwise: a plain invoke of the workflow runs the subgraph straight through."""
    try:
        configurable = get_config().get("configurable", {})
    except RuntimeError:  # called outside a running graph
        return {}
    return {"interrupt_after": "*"} if configurable.get(STEP_INTO_SUBGRAPHS) else {}


class _SteppableSubgraph:
    """Mixed into a copy of a compiled subgraph added directly as a node: run by a stepping Session it pauses
    after every inner node, as subgraph_step_options() makes an invoked one do; run any other way, as before."""

    def stream(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        if not kwargs.get("interrupt_after") and _stepping(config):
            kwargs["interrupt_after"] = "*"
        return super().stream(input, config, **kwargs)  # type: ignore[misc]

    def astream(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        if not kwargs.get("interrupt_after") and _stepping(config):
            kwargs["interrupt_after"] = "*"
        return super().astream(input, config, **kwargs)  # type: ignore[misc]


_STEPPABLE: dict[type, type] = {}


def _steppable_copy(graph: Pregel) -> Pregel:
    cls = type(graph)
    if cls not in _STEPPABLE:
        _STEPPABLE[cls] = type(f"Steppable{cls.__name__}", (_SteppableSubgraph, cls), {})
    # As Pregel.copy() makes a copy, in the steppable class.
    stepped = _STEPPABLE[cls](**{k: v for k, v in graph.__dict__.items() if k != "__orig_class__"})
    stepped.nodes = dict(stepped.nodes)  # its own, so nested subgraphs are swapped in the copy only
    make_subgraphs_steppable(stepped)
    return stepped


def make_subgraphs_steppable(graph: Pregel) -> Pregel:
    """Swap each compiled subgraph added directly as a node of `graph` (at any depth) for a steppable copy.
    `graph` must be the caller's own (freshly compiled); the subgraphs themselves are left untouched."""
    for name, node in list(graph.nodes.items()):
        if isinstance(node.bound, Pregel) and not isinstance(node.bound, _SteppableSubgraph):
            stepped = _steppable_copy(node.bound)
            graph.nodes[name] = node.copy({"bound": stepped, "subgraphs": [stepped]})
    return graph


class SubgraphStepping:
    """Session's part for subgraphs: records for steps inside one, the inner next nodes, inner breakpoints.
    Uses only its SessionScope: the graph, the thread's position, the run store and the studio's graph facts."""

    def __init__(self, scope: SessionScope) -> None:
        self.scope = scope
        self._next_nodes: tuple[StateSnapshot, tuple[str, ...]] | None = None  # next_nodes() of that snapshot

    def at_breakpoint(self, next_nodes: Sequence[str]) -> bool:
        """A breakpoint on a subgraph's first node also holds when its parent node is next to start."""
        breakpoints = self.scope.breakpoints
        if not breakpoints:
            return False
        entries = self.scope.studio.subgraph_entries(self.scope.spec)
        return any(b in next_nodes or (b in entries and b.split(":")[0] in next_nodes) for b in breakpoints)

    def substep(self, tasks: list[TaskRecord], from_id: str | None, started: float, duration_ms: float,
                before: StateSnapshot | None) -> StepOutcome:
        """A step inside a subgraph: its node ran and the subgraph paused; the parent has no new checkpoint,
        so the record hangs off the checkpoint it started from and its changes are the inner node's."""
        position = self.scope.position
        changes = {f"{t.graph_node} → {key}": "changed" for t in tasks for key in (t.update or {})}
        record = StepRecord(
            step_key=uuid.uuid4().hex, thread_id=self.scope.thread_id,
            step=int(((before.metadata if before else None) or {}).get("step", -1)) + 1, status="substep",
            started_at=started, duration_ms=duration_ms, parent_checkpoint_id=from_id, checkpoint_id=None,
            changes=changes, tasks=tasks)
        status = position.status()
        position.save_step(record, status=status)
        return StepOutcome(record=record, status=status, next=self.next_after_step())

    def next_after_step(self) -> tuple[str, ...]:
        """Inner next nodes cost a nested read of the state: only worth it when a breakpoint is inside."""
        if any(":" in b for b in self.scope.breakpoints):
            return self.next_nodes()
        return tuple(self.scope.position.snapshot().next)

    def next_nodes(self) -> tuple[str, ...]:
        """What runs next: inside a paused subgraph, its next nodes as `parent:child` (the graph's names).
        Read once per snapshot: the step controls and the graph both ask on every page draw."""
        position = self.scope.position
        snap = position.snapshot()
        if self._next_nodes is not None and self._next_nodes[0] is snap:
            return self._next_nodes[1]
        result = tuple(snap.next)
        if snap.next and self.scope.studio.has_subgraphs(self.scope.spec):
            nested = self.scope.graph.get_state(position.config(position.cursor), subgraphs=True)
            result = tuple(f"{task.name}:{name}" for task in nested.tasks
                           if isinstance(task.state, StateSnapshot) for name in task.state.next) or result
        self._next_nodes = (snap, result)
        return result
