"""The interfaces a Session is built from: what it needs of the studio that opens it, where its thread stands,
and the scope its parts (stepping, subgraph stepping, time travel) share. Nothing here imports a Session or a
Studio: the studio satisfies `StudioServices` by shape, and the parts only see a `SessionScope`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Interrupt, StateSnapshot

from pipelines.core.runtime.outcomes import SessionStatus
from pipelines.core.spec import PipelineSpec
from pipelines.core.storage.runstore import RunStore, ThreadInfo
from pipelines.core.trace.records import StepRecord

if TYPE_CHECKING:
    from pipelines.core.runtime.claims import ThreadClaim


class StudioServices(Protocol):
    """What a Session needs of the studio that opened it: the shared run store and compiled graphs, and facts
    about a workflow's graph that are worked out once per process. `Studio` is the implementation."""

    runs: RunStore

    def compiled(self, spec: PipelineSpec) -> CompiledStateGraph: ...

    def async_compiled(self, spec: PipelineSpec) -> CompiledStateGraph | None:
        """The graph to drive with `astream` (with an async-capable checkpointer) when it has `async def`
        nodes; None when the plain graph can be streamed synchronously."""

    def has_subgraphs(self, spec: PipelineSpec) -> bool: ...

    def subgraph_entries(self, spec: PipelineSpec) -> set[str]: ...


def checkpoint_id_of(snap: StateSnapshot | None) -> str | None:
    return ((snap.config if snap else None) or {}).get("configurable", {}).get("checkpoint_id")


def counter_values(spec: PipelineSpec, values: Mapping[str, Any]) -> dict[str, int]:
    return {c.field: c.value(values) for c in spec.counters}


def counting_values(spec: PipelineSpec, position: ThreadPosition) -> Mapping[str, Any]:
    """The values every view reads a workflow's counters from (the panel, the graph's loop edges, the step records,
    the exports): the thread's state, and where a counter lives in a subgraph the run stands in (a plan's
    revisions while it waits for approval), that subgraph's. One source, so no two views disagree."""
    values = position.snapshot().values or {}
    if any(c.field not in values or (c.limit_field and c.limit_field not in values) for c in spec.counters):
        values = {**position.nested_values(), **values}
    return values


class ThreadPosition:
    """Where one thread stands: its run-store row (read once, then kept current by whoever writes it), its
    cursor (a checkpoint rewound to, or None for the head), and the state snapshot there, read at most once per
    move. A Session and its parts share one, so no part re-reads what another already knows."""

    def __init__(self, graph: CompiledStateGraph, runs: RunStore, thread_id: str) -> None:
        self.graph = graph
        self.runs = runs
        self.thread_id = thread_id
        self._snapshot: StateSnapshot | None = None
        self._interrupts: tuple[StateSnapshot, tuple[Interrupt, ...]] | None = None  # interrupts() of that snapshot
        self._subgraph_nodes: frozenset[str] | None = None
        self._thread: ThreadInfo | None = runs.get_thread(thread_id)
        # A claim to give back with the next step record (a Session's single step): one write instead of two.
        self.release_on_save: ThreadClaim | None = None

    @property
    def thread(self) -> ThreadInfo | None:
        return self._thread

    @property
    def cursor(self) -> str | None:
        return self._thread.cursor_checkpoint_id if self._thread else None

    def config(self, checkpoint_id: str | None = None) -> dict[str, Any]:
        configurable: dict[str, Any] = {"thread_id": self.thread_id}
        if checkpoint_id:
            # The root namespace, said outright: update_state on a graph with a subgraph needs it to fork.
            configurable.update(checkpoint_id=checkpoint_id, checkpoint_ns="")
        return {"configurable": configurable}

    def snapshot(self) -> StateSnapshot:
        if self._snapshot is None:
            self._snapshot = self.graph.get_state(self.config(self.cursor))
        return self._snapshot

    def moved(self, snapshot: StateSnapshot | None = None) -> None:
        """The thread moved: forget the snapshot, or take the one the mover already read."""
        self._snapshot = snapshot

    def head_checkpoint_id(self) -> str | None:
        return checkpoint_id_of(self.snapshot())

    def latest_checkpoint_id(self) -> str | None:
        """The thread's newest checkpoint, wherever the cursor stands."""
        if self.cursor is None:
            return self.head_checkpoint_id()
        return checkpoint_id_of(self.graph.get_state(self.config()))

    def interrupts(self) -> tuple[Interrupt, ...]:
        """The interrupts waiting for an answer. LangGraph still lists an answered interrupt() inside a
        subgraph while the subgraph's node is unfinished, as it is when the studio paused the subgraph after
        the node that asked: such a node's interrupts count only while its subgraph itself waits on one."""
        snap = self.snapshot()
        if not snap.interrupts:
            return ()
        if self._interrupts is not None and self._interrupts[0] is snap:
            return self._interrupts[1]
        result = tuple(snap.interrupts)
        if any(task.interrupts and task.name in self.subgraph_nodes for task in snap.tasks):
            nested = {task.id: task.state for task in
                      self.graph.get_state(self.config(self.cursor), subgraphs=True).tasks}
            result = tuple(item for task in snap.tasks for item in task.interrupts
                           if not isinstance(inner := nested.get(task.id), StateSnapshot) or _still_waits(inner))
        self._interrupts = (snap, result)
        return result

    @property
    def subgraph_nodes(self) -> frozenset[str]:
        """The graph's nodes that are subgraphs (read once)."""
        if self._subgraph_nodes is None:
            self._subgraph_nodes = frozenset(name for name, _ in self.graph.get_subgraphs())
        return self._subgraph_nodes

    def nested_values(self) -> dict[str, Any]:
        """The values of the subgraphs the run stands in (a paused plan inside the router), deepest first; the
        root's own values are not included."""
        if not any(task.name in self.subgraph_nodes for task in self.snapshot().tasks):
            return {}  # the run stands in no subgraph (a finished chat turn): no second read of the checkpoint
        merged: dict[str, Any] = {}

        def walk(snapshot: StateSnapshot) -> None:
            for task in snapshot.tasks:
                if isinstance(task.state, StateSnapshot):
                    walk(task.state)
                    merged.update({k: v for k, v in (task.state.values or {}).items() if k not in merged})

        walk(self.graph.get_state(self.config(self.cursor), subgraphs=True))
        return merged

    def status(self) -> SessionStatus:
        snap = self.snapshot()
        if not snap.config or (not snap.values and not snap.next):
            return "new"
        if self.interrupts():
            return "waiting"
        if any(task.error for task in snap.tasks):
            return "failed"
        return "ready" if snap.next else "completed"

    def update_thread(self, *, moved: bool = False, **values: Any) -> None:
        """Write the thread row and read it back (its other fields may have changed elsewhere); `moved`: the run
        itself moved (a rewind), its version goes up."""
        self.runs.update_thread(self.thread_id, moved=moved, **values)
        self._thread = self.runs.get_thread(self.thread_id)

    @property
    def version(self) -> int:
        """The thread's version as this position knows it: what a claim to move the thread compares against."""
        return self._thread.version if self._thread else 0

    def written(self, *, moved: bool = False, **values: Any) -> None:
        """Fields of the thread row that were just written along with something else (a step record, which moves
        the run: its version went up by one)."""
        if self._thread is not None and (values or moved):
            if moved:
                values["version"] = self._thread.version + 1
            self._thread = replace(self._thread, **values)

    def save_step(self, record: StepRecord, **updates: Any) -> None:
        """Store a step's record with the thread row's new fields, in one write: the run moved, its version goes
        up. A claim waiting to be given back with this write (`release_on_save`) is given back in it too."""
        claim, self.release_on_save = self.release_on_save, None
        self.runs.save_step(record, {**updates, **({"release_claim": claim.token} if claim else {})})
        if claim is not None:
            claim.released_by_store()
        self.written(moved=True, **updates)

    def reread(self) -> None:
        """Read the thread row and the state afresh (taken over from a holder that may have died mid-step)."""
        self._thread = self.runs.get_thread(self.thread_id)
        self._snapshot = None


@dataclass(frozen=True)
class SessionScope:
    """What a Session's parts are given, and all they use: the workflow, the graph, the thread's position, the
    run store, the studio's facts about the graph, and the session's breakpoints (the same set object)."""

    spec: PipelineSpec
    graph: CompiledStateGraph
    position: ThreadPosition
    studio: StudioServices
    breakpoints: set[str]

    @property
    def runs(self) -> RunStore:
        return self.position.runs

    @property
    def thread_id(self) -> str:
        return self.position.thread_id


def _still_waits(snapshot: StateSnapshot) -> bool:
    """Whether a subgraph's state still waits on an interrupt, looking down through the subgraphs it stands in: an
    answered question deep inside (an agent in a planner in a router) can still be listed by the levels above,
    whose checkpoints are written only when their own step ends."""
    for task in snapshot.tasks:
        if task.interrupts and (not isinstance(task.state, StateSnapshot) or _still_waits(task.state)):
            return True
    return False
