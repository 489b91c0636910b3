"""Drive one thread of one workflow: start, step, run to an interrupt or the end, resume, rewind, fork."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from langgraph.types import Command, StateSnapshot
from pydantic import ValidationError

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.runtime.outcomes import PendingInterrupt, SessionStatus, StepOutcome
from pipelines.core.errors import InvalidInput, StaleAnswer, format_validation_error
from pipelines.core.spec import PipelineSpec, RuntimeDeps
from pipelines.core.settings import Settings
from pipelines.core.runtime.stepping import STEP_INTO_SUBGRAPHS, SubgraphStepping
from pipelines.core.runtime.time_travel import TimeTravel
from pipelines.core.trace.records import INPUT_NODE, StepRecord, TaskRecord, branch_records, diff_values
from pipelines.core.trace.langsmith import flush_traces, tracing_callbacks

if TYPE_CHECKING:
    from pipelines.core.runtime.studio import Studio

class Session(SubgraphStepping, TimeTravel):
    """One thread of one compiled workflow, advanced a super-step at a time."""

    def __init__(self, studio: Studio, spec: PipelineSpec, thread_id: str, settings: Settings,
                 breakpoints: Iterable[str] = (), gateway: ModelGateway | None = None) -> None:
        self.studio = studio
        self.spec = spec
        self.thread_id = thread_id
        self.settings = settings
        self.breakpoints = set(breakpoints)
        self.graph = studio.compiled(spec)
        self.gateway = gateway or ModelGateway(settings)
        self.context = spec.make_context(RuntimeDeps(settings=settings, gateway=self.gateway))
        self.callbacks = tracing_callbacks(settings)  # per session: other sessions in this process may not trace
        self._snapshot: StateSnapshot | None = None
        self._next_nodes: tuple[StateSnapshot, tuple[str, ...]] | None = None  # next_nodes() of that snapshot
        self._thread = studio.runs.get_thread(thread_id)  # read once; this session keeps it current

    # reading -----------------------------------------------------------------------------------
    @property
    def thread(self):
        return self._thread

    @property
    def cursor(self) -> str | None:
        return self._thread.cursor_checkpoint_id if self._thread else None

    def _update_thread(self, **values: Any) -> None:
        self.studio.runs.update_thread(self.thread_id, **values)
        self._thread = self.studio.runs.get_thread(self.thread_id)

    def _config(self, checkpoint_id: str | None = None) -> dict[str, Any]:
        configurable: dict[str, Any] = {"thread_id": self.thread_id}
        if checkpoint_id:
            # The root namespace, said outright: update_state on a graph with a subgraph needs it to fork.
            configurable.update(checkpoint_id=checkpoint_id, checkpoint_ns="")
        return {"configurable": configurable}

    def snapshot(self) -> StateSnapshot:
        if self._snapshot is None:
            self._snapshot = self.graph.get_state(self._config(self.cursor))
        return self._snapshot

    def values(self) -> dict[str, Any]:
        return dict(self.snapshot().values or {})

    def head_checkpoint_id(self) -> str | None:
        return self._checkpoint_id(self.snapshot())

    def status(self) -> SessionStatus:
        snap = self.snapshot()
        if not snap.config or (not snap.values and not snap.next):
            return "new"
        if snap.interrupts:
            return "waiting"
        if any(task.error for task in snap.tasks):
            return "failed"
        return "ready" if snap.next else "completed"

    def pending_interrupts(self) -> list[PendingInterrupt]:
        pending = []
        for item in self.snapshot().interrupts:
            value = item.value if isinstance(item.value, dict) else {"question": item.value}
            kind = str(value.get("kind", ""))
            spec = next((s for s in self.spec.interrupts if s.kind == kind), None)
            pending.append(PendingInterrupt(id=item.id, kind=kind, value=value, spec=spec))
        return pending

    def counters(self) -> dict[str, dict[str, Any]]:
        values = self.values()
        counters = {c.field: {"label": c.label, "value": c.value(values), "limit": c.limit_for(values)}
                    for c in self.spec.counters}
        for counter in self.spec.counters:  # said only when there is one, for the views to show it
            if problem := counter.problem(values):
                counters[counter.field]["problem"] = problem
        return counters

    # driving -----------------------------------------------------------------------------------
    def start(self, initial_state: Mapping[str, Any]) -> StepOutcome:
        if self.status() != "new":
            raise InvalidInput(f"thread {self.thread_id} has already started")
        return self._execute(dict(initial_state))

    def step(self) -> StepOutcome:
        status = self.status()
        if status == "new":
            raise InvalidInput("the run has no input yet; start it first")
        if status == "waiting":
            raise InvalidInput("the run is waiting for an answer to an interrupt; resume it with a value")
        if status == "completed":
            return StepOutcome(record=None, status="completed")
        return self._execute(None)

    def resume(self, value: Any, interrupt_id: str | None = None) -> StepOutcome:
        """Answer the pending interrupt. An invalid value raises InvalidInput and changes nothing."""
        pending = self.pending_interrupts()
        if interrupt_id is not None and not any(p.id == interrupt_id for p in pending):
            raise StaleAnswer("the run has moved on since this question was shown (answered from another tab, or "
                              "the run was rewound or continued): your answer was not applied")
        if not pending:
            raise InvalidInput("nothing is waiting for an answer")
        target = next((p for p in pending if p.id == interrupt_id), pending[0]) if interrupt_id else pending[0]
        answer = value
        if target.spec is not None:
            try:
                answer = target.spec.schema.model_validate(value).model_dump(mode="json")
            except ValidationError as exc:
                raise InvalidInput(f"invalid answer to '{target.spec.title}': {format_validation_error(exc)}") from exc
        resume = {target.id: answer} if len(pending) > 1 else answer
        return self._execute(Command(resume=resume))

    def run(self, until: Literal["interrupt", "end"] = "end", stop: threading.Event | None = None,
            on_step: Callable[[StepOutcome], None] | None = None, max_steps: int = 1000) -> list[StepOutcome]:
        """Step until the end, an interrupt() waiting for input, a failure, Stop, or (for "interrupt")
        a breakpoint. Stop is honoured between steps; a failed run starts by retrying the failed step."""
        outcomes: list[StepOutcome] = []
        status, next_nodes = self.status(), self._next_after_step()
        # A failed step is retried once (as Step would); a second failure stops the run again.
        while (status == "ready" or (status == "failed" and not outcomes)) and len(outcomes) < max_steps:
            if stop is not None and stop.is_set():
                break
            if outcomes and until == "interrupt" and self._at_breakpoint(next_nodes):
                break
            outcome = self._execute(None)
            outcomes.append(outcome)
            if on_step:
                on_step(outcome)
            status, next_nodes = outcome.status, outcome.next
        return outcomes

    # history and trace -------------------------------------------------------------------------
    def records(self) -> list[StepRecord]:
        """The step records of the current branch (the path that led to the cursor or the head)."""
        return branch_records(self.studio.runs.load_steps(self.thread_id), self.head_checkpoint_id())

    # the one place that runs the graph --------------------------------------------------------
    def _counter_values(self, values: Mapping[str, Any]) -> dict[str, int]:
        return {c.field: c.value(values) for c in self.spec.counters}

    def _checkpoint_id(self, snap: StateSnapshot) -> str | None:
        return (snap.config or {}).get("configurable", {}).get("checkpoint_id")

    def _execute(self, payload: Any) -> StepOutcome:
        """Run one super-step and record it. The state before is the snapshot this session already holds
        (read once if not), the state after one get_state: no per-checkpoint stream events are needed."""
        cursor = self.cursor
        is_input = payload is not None and not isinstance(payload, Command)
        before = None if is_input else self.snapshot()
        started, t0 = time.time(), time.perf_counter()
        open_tasks: dict[str, tuple[float, float]] = {}
        task_records: list[TaskRecord] = []
        error: str | None = None
        try:
            # One super-step per call, so "exit" durability writes the same checkpoint as "async" without a
            # background writer thread; subgraph events are only asked for when the graph has subgraphs.
            config = self._config(cursor)
            config["configurable"][STEP_INTO_SUBGRAPHS] = True
            if self.callbacks:
                config["callbacks"] = self.callbacks
            for event in self.graph.stream(payload, config, context=self.context, stream_mode="tasks",
                                           interrupt_before="*", subgraphs=self.studio.has_subgraphs(self.spec),
                                           durability="exit"):
                namespace, data = event if isinstance(event, tuple) else ((), event)
                if "result" not in data:
                    open_tasks[data["id"]] = (time.time(), time.perf_counter())
                else:
                    task_records.append(self._task_record(namespace, data, open_tasks))
        except Exception as exc:  # noqa: BLE001 - a failing node is a result to show, not a crash
            error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"[:500]
        duration_ms = (time.perf_counter() - t0) * 1000
        if self.callbacks:
            flush_traces(self.callbacks)  # after the timing, so tracing never counts as the step's time
        self._snapshot = None
        if cursor and error is None:
            self._thread = replace(self._thread, cursor_checkpoint_id=None)  # a step from the cursor forks
        after = self.snapshot()
        from_id = None if is_input else (cursor or self._checkpoint_id(before))
        after_id = self._checkpoint_id(after)
        if not task_records and error is None and after_id == from_id:
            return StepOutcome(record=None, status=self.status(), next=tuple(after.next))

        interrupted = any(t.status == "interrupted" for t in task_records)
        failed = error is not None or any(t.status == "failed" for t in task_records)
        completed = not failed and not interrupted and after_id != from_id
        if not failed and not interrupted and not completed and task_records and \
                all(t.namespace for t in task_records):
            return self._substep(task_records, from_id, started, duration_ms, before)
        if is_input:
            task_records.insert(0, TaskRecord(task_id="input", node=INPUT_NODE, started_at=started,
                                              duration_ms=0.0, update=dict(payload)))
        record = StepRecord(
            step_key=uuid.uuid4().hex, thread_id=self.thread_id,
            step=int(after.metadata.get("step", 0)) if completed
            else int((before.metadata or {}).get("step", -1) if before else -1) + 1,
            status="completed" if completed else ("failed" if failed else "interrupted"),
            started_at=started, duration_ms=duration_ms, parent_checkpoint_id=from_id,
            checkpoint_id=after_id if completed else None,
            # Raw values compare with == (messages included), so only task updates need converting to JSON.
            changes=diff_values(before.values if before else {}, after.values) if completed else {},
            tasks=task_records, error=error or next((t.error for t in task_records if t.error), None),
            counters=self._counter_values(after.values) if completed else {})
        status = self.status()
        thread_updates: dict[str, Any] = {"status": status}
        if cursor:
            thread_updates["cursor_checkpoint_id"] = self.cursor
        self.studio.runs.save_step(record, thread_updates)
        self._thread = self._thread and replace(self._thread, **thread_updates)
        return StepOutcome(record=record, status=status, next=self._next_after_step(), error=record.error)

    def _task_record(self, namespace: tuple[str, ...], data: dict[str, Any],
                     open_tasks: dict[str, tuple[float, float]]) -> TaskRecord:
        started, t0 = open_tasks.pop(data["id"], (time.time(), time.perf_counter()))
        err = data.get("error")
        status = "failed" if err else ("interrupted" if data.get("interrupts") else "completed")
        return TaskRecord(
            task_id=data["id"], node=data["name"], started_at=started,
            duration_ms=(time.perf_counter() - t0) * 1000, status=status, update=data.get("result"),
            error=f"{type(err).__name__}: {err}"[:500] if err else None, namespace="|".join(namespace),
            model_calls=[c.to_dict() for c in self.gateway.ledger.pop(data["id"])])
