"""The one place that runs the graph: one super-step per call, timed per task, recorded once."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from langgraph.types import Command, PregelTask, StateSnapshot

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.runtime.async_steps import run_coroutine
from pipelines.core.runtime.outcomes import StepOutcome
from pipelines.core.runtime.position import SessionScope, checkpoint_id_of, counter_values, counting_values
from pipelines.core.runtime.stepping import STEP_INTO_SUBGRAPHS, SubgraphStepping
from pipelines.core.storage.checkpoints import CheckpointConnectionLost, as_checkpoint_failure
from pipelines.core.trace.langsmith import flush_traces
from pipelines.core.trace.records import INPUT_NODE, StepRecord, TaskRecord, diff_values

Event = tuple[tuple[str, ...], dict[str, Any], float, float]  # namespace, data, wall time, perf counter seen


class StepRunner:
    """Runs super-steps of the scope's thread and writes their records. Given, besides the scope: the model
    gateway whose ledger holds each task's model calls, the run context, tracing callbacks, and the subgraph
    part (for steps that end inside a subgraph)."""

    def __init__(self, scope: SessionScope, subgraphs: SubgraphStepping, gateway: ModelGateway, context: Any,
                 callbacks: list | None) -> None:
        self.scope = scope
        self.subgraphs = subgraphs
        self.gateway = gateway
        self.context = context
        self.callbacks = callbacks
        studio, spec = scope.studio, scope.spec
        self._stream_subgraphs = studio.has_subgraphs(spec)  # costly when there are none to stream
        self._async_graph = studio.async_compiled(spec)  # None unless a node is `async def`
        # A synchronously streamed graph reports the checkpoint its step wrote as a stream event: the state
        # after a clean step is taken from it instead of read back (get_state) from the checkpointer.
        self._written: dict[str, Any] | None = None
        # Where a node's own stream events (get_stream_writer: a model's tokens) go while a run is watched.
        self.on_custom: Callable[[Any], None] | None = None
        self._checkpoint_url = getattr(getattr(studio, "checkpoints", None), "url", "of this studio")

    def execute(self, payload: Any) -> StepOutcome:
        """Run one super-step and record it. A checkpoint server that dropped its connection costs one more try of
        the step (the pool gives the retry a fresh connection); a second failure, or a checkpoint file another
        program holds locked, raises the storage error, and nothing is recorded."""
        try:
            return self._execute(payload)
        except CheckpointConnectionLost:
            self.scope.position.moved()  # read the thread afresh: the step's checkpoint was not written
            return self._execute(payload)

    def _execute(self, payload: Any) -> StepOutcome:
        """One try of a super-step. The state before is the snapshot the position already holds (read once if
        not), the state after one get_state: no per-checkpoint stream events are needed."""
        position = self.scope.position
        cursor = position.cursor
        is_input = payload is not None and not isinstance(payload, Command)
        before = None if is_input else position.snapshot()
        started, t0 = time.time(), time.perf_counter()
        open_tasks: dict[str, tuple[float, float]] = {}
        task_records: list[TaskRecord] = []
        error: str | None = None
        try:
            for namespace, data, wall, perf in self._events(payload, cursor):
                if "result" not in data:
                    open_tasks[data["id"]] = (wall, perf)
                else:
                    task_records.append(self._task_record(namespace, data, perf, open_tasks))
        except Exception as exc:  # noqa: BLE001 - a failing node is a result to show, not a crash
            failed_node = any(t.status == "failed" for t in task_records)
            if not failed_node and (storage := as_checkpoint_failure(exc, self._checkpoint_url)) is not None:
                raise storage from exc  # the checkpointer failed, not a node: no step to record
            error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"[:500]
        duration_ms = (time.perf_counter() - t0) * 1000
        if self.callbacks:
            flush_traces(self.callbacks)  # after the timing, so tracing never counts as the step's time
        if cursor and error is None:
            position.written(cursor_checkpoint_id=None)  # a step from the cursor forks
        clean = error is None and all(t.status == "completed" for t in task_records)
        position.moved(self._snapshot_written() if clean else None)
        after = position.snapshot()
        from_id = None if is_input else (cursor or checkpoint_id_of(before))
        after_id = checkpoint_id_of(after)
        if not task_records and error is None and after_id == from_id:
            return StepOutcome(record=None, status=position.status(), next=tuple(after.next))

        interrupted = any(t.status == "interrupted" for t in task_records)
        failed = error is not None or any(t.status == "failed" for t in task_records)
        completed = not failed and not interrupted and after_id != from_id
        if not failed and not interrupted and not completed and task_records and \
                all(t.namespace for t in task_records):
            return self.subgraphs.substep(task_records, from_id, started, duration_ms, before)
        if is_input:
            task_records.insert(0, TaskRecord(task_id="input", node=INPUT_NODE, started_at=started,
                                              duration_ms=0.0, update=dict(payload)))
        record = StepRecord(
            step_key=uuid.uuid4().hex, thread_id=self.scope.thread_id,
            step=int(after.metadata.get("step", 0)) if completed
            else int((before.metadata or {}).get("step", -1) if before else -1) + 1,
            status="completed" if completed else ("failed" if failed else "interrupted"),
            started_at=started, duration_ms=duration_ms, parent_checkpoint_id=from_id,
            checkpoint_id=after_id if completed else None,
            # Raw values compare with == (messages included), so only task updates need converting to JSON.
            changes=diff_values(before.values if before else {}, after.values) if completed else {},
            tasks=task_records, error=error or next((t.error for t in task_records if t.error), None),
            counters=counter_values(self.scope.spec, counting_values(self.scope.spec, position)) if completed else {})
        status = position.status()
        thread_updates: dict[str, Any] = {"status": status}
        if cursor:
            thread_updates["cursor_checkpoint_id"] = position.cursor
        position.save_step(record, **thread_updates)  # the record and the thread row: one write
        return StepOutcome(record=record, status=status, next=self.subgraphs.next_after_step(), error=record.error)

    def _stream_args(self, payload: Any, cursor: str | None) -> tuple[tuple, dict[str, Any]]:
        # One super-step per call, so "exit" durability writes the same checkpoint as "async" without a
        # background writer thread; subgraph events are only asked for when the graph has subgraphs.
        config = self.scope.position.config(cursor)
        config["configurable"][STEP_INTO_SUBGRAPHS] = True
        if self.callbacks:
            config["callbacks"] = self.callbacks
        return (payload, config), dict(context=self.context, stream_mode="tasks", interrupt_before="*",
                                       subgraphs=True, durability="exit")

    def _snapshot_written(self) -> StateSnapshot | None:
        """The state after a clean step, from the checkpoint event the step streamed (None when there was none).
        Its tasks are the next step's, none started yet: no error, no interrupt."""
        event, self._written = self._written, None
        if event is None:
            return None
        tasks = tuple(PregelTask(task["id"], task["name"], (), state=task.get("state")) for task in event["tasks"])
        return StateSnapshot(values=event["values"], next=tuple(event["next"]), config=event["config"],
                             metadata=event["metadata"], created_at=None, parent_config=event["parent_config"],
                             tasks=tasks, interrupts=())

    def _runs_a_subgraph(self, payload: Any) -> bool:
        """Whether the step's tasks include a subgraph, whose inner events must be streamed. Streaming subgraphs
        costs a waiter thread and takes away LangGraph's inline run of a lone task, so a step of plain nodes (or
        the input, which runs no node) is streamed without."""
        if not self._stream_subgraphs or (payload is not None and not isinstance(payload, Command)):
            return False
        position = self.scope.position
        return any(name in position.subgraph_nodes for name in position.snapshot().next)

    def _events(self, payload: Any, cursor: str | None) -> Iterator[Event]:
        """The step's task events as (namespace, data, wall time, perf counter) when each was seen: streamed
        from the sync graph, or, for a graph with async nodes, gathered from astream in an event loop."""
        args, kwargs = self._stream_args(payload, cursor)
        if not self._runs_a_subgraph(payload):
            kwargs["subgraphs"] = False
        if self._async_graph is None:  # streamed synchronously, with the checkpoint the step writes
            self._written = None
            kwargs["stream_mode"] = ["tasks", "checkpoints", *(["custom"] if self.on_custom else [])]
            for event in self.scope.graph.stream(*args, **kwargs):
                namespace, mode, data = event if len(event) == 3 else ((), *event)
                if mode == "tasks":
                    yield namespace, data, time.time(), time.perf_counter()
                elif mode == "custom":
                    self.on_custom(data)
                elif not namespace:  # the root graph's checkpoint, not a subgraph's
                    self._written = data
            return
        seen: list[Event] = []

        async def gather() -> None:
            async for event in self._async_graph.astream(*args, **kwargs):
                namespace, data = event if isinstance(event, tuple) else ((), event)
                seen.append((namespace, data, time.time(), time.perf_counter()))

        try:
            run_coroutine(gather())
        finally:  # the events seen before a failure still make their tasks' records
            yield from seen

    def _task_record(self, namespace: tuple[str, ...], data: dict[str, Any], seen_at: float,
                     open_tasks: dict[str, tuple[float, float]]) -> TaskRecord:
        started, t0 = open_tasks.pop(data["id"], (time.time(), seen_at))
        err = data.get("error")
        status = "failed" if err else ("interrupted" if data.get("interrupts") else "completed")
        return TaskRecord(
            task_id=data["id"], node=data["name"], started_at=started,
            duration_ms=(seen_at - t0) * 1000, status=status, update=data.get("result"),
            error=f"{type(err).__name__}: {err}"[:500] if err else None, namespace="|".join(namespace),
            model_calls=[c.to_dict() for c in self.gateway.ledger.pop(data["id"])])
