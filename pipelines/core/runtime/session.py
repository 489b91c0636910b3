"""Drive one thread of one workflow: start, step, run to an interrupt or the end, resume, rewind, fork.

A Session is made of parts that share one SessionScope (see position.py): the thread's position, a StepRunner
that runs and records super-steps, SubgraphStepping for steps inside subgraphs, and TimeTravel. It needs of the
studio that opens it only the StudioServices protocol, so this module never imports the studio."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal

from langgraph.types import Command, StateSnapshot
from pydantic import ValidationError

from pipelines.core.errors import InvalidInput, StaleAnswer, format_validation_error
from pipelines.core.guardrails.personal_data import mask_fields, mask_personal
from pipelines.core.models.gateway import ModelGateway
from pipelines.core.runtime.claims import ThreadClaim, claim_thread
from pipelines.core.runtime.outcomes import CheckpointInfo, PendingInterrupt, SessionStatus, StepOutcome
from pipelines.core.runtime.position import SessionScope, StudioServices, ThreadPosition, counting_values
from pipelines.core.runtime.stepping import SubgraphStepping
from pipelines.core.runtime.super_step import StepRunner
from pipelines.core.runtime.time_travel import TimeTravel
from pipelines.core.settings import Settings
from pipelines.core.spec import PipelineSpec, RuntimeDeps
from pipelines.core.storage.runstore import ThreadInfo
from pipelines.core.trace.langsmith import tracing_callbacks
from pipelines.core.trace.records import StepRecord, branch_records


class Session:
    """One thread of one compiled workflow, advanced a super-step at a time."""

    def __init__(self, studio: StudioServices, spec: PipelineSpec, thread_id: str, settings: Settings,
                 breakpoints: Iterable[str] = (), gateway: ModelGateway | None = None) -> None:
        self.studio = studio
        self.spec = spec
        self.thread_id = thread_id
        self.settings = settings
        self.graph = studio.compiled(spec)
        self.gateway = gateway or ModelGateway(settings)
        checkpoints = getattr(studio, "checkpoints", None)
        self.context = spec.make_context(RuntimeDeps(settings=settings, gateway=self.gateway,
                                                     checkpointer=getattr(checkpoints, "saver", None)))
        self.callbacks = tracing_callbacks(settings)  # per session: other sessions in this process may not trace
        self.position = ThreadPosition(self.graph, studio.runs, thread_id)  # the thread row, read once
        self.scope = SessionScope(spec=spec, graph=self.graph, position=self.position, studio=studio,
                                  breakpoints=set(breakpoints))
        self.subgraphs = SubgraphStepping(self.scope)
        self.runner = StepRunner(self.scope, self.subgraphs, self.gateway, self.context, self.callbacks)
        self.time_travel = TimeTravel(self.scope)
        self._claim: ThreadClaim | None = None  # held while this session moves the thread

    # one writer per thread ----------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The thread's version this session last saw: what it claims the thread from."""
        return self.position.version

    def claim(self, action: str, expected_version: int | None = None) -> ThreadClaim:
        """Claim the thread from `expected_version` (default: the version this session saw) to hand to a worker
        that moves it (`adopt`); RunBusy or RunMovedOn when someone else holds or moved it. The caller releases it."""
        claim = claim_thread(self.studio.runs, self.thread_id,
                             self.version if expected_version is None else expected_version, action,
                             self.settings.run_lease_s)
        if claim.took_over:
            self.position.reread()
        return claim

    def adopt(self, claim: ThreadClaim) -> None:
        """Move the thread under a claim taken for this session elsewhere (a page hands it to its worker)."""
        self._claim = claim

    @contextmanager
    def claimed(self, action: str, expected_version: int | None = None, *,
                one_step: bool = False) -> Iterator[ThreadClaim]:
        """Hold the thread for the block: the claim this session already holds, or a new one given back after.
        `one_step`: the block writes one step record at most, which gives the new claim back with it."""
        if self._claim is not None and not self._claim.released:
            yield self._claim
            return
        claim = self.claim(action, expected_version)
        self._claim = claim
        if one_step:
            self.position.release_on_save = claim
        try:
            yield claim
        finally:
            self._claim = None
            self.position.release_on_save = None
            claim.release()

    @property
    def breakpoints(self) -> set[str]:
        return self.scope.breakpoints

    @breakpoints.setter
    def breakpoints(self, names: Iterable[str]) -> None:
        names = set(names)
        self.scope.breakpoints.clear()
        self.scope.breakpoints.update(names)

    # reading -----------------------------------------------------------------------------------
    @property
    def thread(self) -> ThreadInfo | None:
        return self.position.thread

    @property
    def cursor(self) -> str | None:
        return self.position.cursor

    def snapshot(self) -> StateSnapshot:
        return self.position.snapshot()

    def values(self) -> dict[str, Any]:
        return dict(self.snapshot().values or {})

    def head_checkpoint_id(self) -> str | None:
        return self.position.head_checkpoint_id()

    def status(self) -> SessionStatus:
        return self.position.status()

    def next_nodes(self) -> tuple[str, ...]:
        """What runs next: inside a paused subgraph, its next nodes as `parent:child` (the graph's names)."""
        return self.subgraphs.next_nodes()

    def pending_interrupts(self) -> list[PendingInterrupt]:
        pending = []
        for item in self.position.interrupts():
            value = item.value if isinstance(item.value, dict) else {"question": item.value}
            kind = str(value.get("kind", ""))
            spec = next((s for s in self.spec.interrupts if s.kind == kind), None)
            pending.append(PendingInterrupt(id=item.id, kind=kind, value=value, spec=spec))
        return pending

    def counters(self) -> dict[str, dict[str, Any]]:
        """Each counter's label, value and limit, and its problem if it has one (see position.counting_values)."""
        values = counting_values(self.spec, self.position)
        counters = {c.field: {"label": c.label, "value": c.value(values), "limit": c.limit_for(values)}
                    for c in self.spec.counters}
        for counter in self.spec.counters:  # said only when there is one, for the views to show it
            if problem := counter.problem(values):
                counters[counter.field]["problem"] = problem
        return counters

    # driving -----------------------------------------------------------------------------------
    def start(self, initial_state: Mapping[str, Any]) -> StepOutcome:
        with self.claimed("start", one_step=True):
            if self.status() != "new":
                raise InvalidInput(f"thread {self.thread_id} has already started")
            return self.runner.execute(dict(initial_state))

    def step(self, expected_version: int | None = None) -> StepOutcome:
        """One super-step, if the thread still stands at `expected_version` (default: where this session saw it)
        and nobody else is moving it (RunBusy, RunMovedOn: nothing runs)."""
        with self.claimed("a step", expected_version, one_step=True):
            status = self.status()
            if status == "new":
                raise InvalidInput("the run has no input yet; start it first")
            if status == "waiting":
                raise InvalidInput("the run is waiting for an answer to an interrupt; resume it with a value")
            if status == "completed":
                return StepOutcome(record=None, status="completed")
            return self.runner.execute(None)

    def resume(self, value: Any, interrupt_id: str | None = None) -> StepOutcome:
        """Answer the pending interrupt. An invalid value raises InvalidInput and changes nothing."""
        with self.claimed("an answer", one_step=True):
            return self._resume(value, interrupt_id)

    def _resume(self, value: Any, interrupt_id: str | None) -> StepOutcome:
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
        if self.spec.personal_fields:  # an answer is people's own words, like the input
            answer = mask_personal(self.studio.runs.vault, self.thread_id, answer, self.settings.phone_region_codes)
        resume = {target.id: answer} if len(pending) > 1 else answer
        return self.runner.execute(Command(resume=resume))

    def run(self, until: Literal["interrupt", "end"] = "end", stop: threading.Event | None = None,
            on_step: Callable[[StepOutcome], None] | None = None, max_steps: int = 1000,
            on_custom: Callable[[Any], None] | None = None, expected_version: int | None = None) -> list[StepOutcome]:
        """Step until the end, an interrupt() waiting for input, a failure, Stop, or (for "interrupt")
        a breakpoint. Stop is honoured between steps; a failed run starts by retrying the failed step.
        `on_custom` receives what nodes stream themselves (a model's tokens) as it comes. The thread is claimed
        once for the whole run (see `step`)."""
        with self.claimed(f"a run to the {until}", expected_version):
            self.runner.on_custom = on_custom
            try:
                return self._run(until, stop, on_step, max_steps)
            finally:
                self.runner.on_custom = None

    def _run(self, until: Literal["interrupt", "end"], stop: threading.Event | None,
             on_step: Callable[[StepOutcome], None] | None, max_steps: int) -> list[StepOutcome]:
        outcomes: list[StepOutcome] = []
        status, next_nodes = self.status(), self.subgraphs.next_after_step()
        # A failed step is retried once (as Step would); a second failure stops the run again.
        while (status == "ready" or (status == "failed" and not outcomes)) and len(outcomes) < max_steps:
            if stop is not None and stop.is_set():
                break
            if outcomes and until == "interrupt" and self.subgraphs.at_breakpoint(next_nodes):
                break
            outcome = self.runner.execute(None)
            outcomes.append(outcome)
            if on_step:
                on_step(outcome)
            status, next_nodes = outcome.status, outcome.next
        return outcomes

    # history, trace and time travel -----------------------------------------------------------------
    def records(self) -> list[StepRecord]:
        """The step records of the current branch (the path that led to the cursor or the head)."""
        return branch_records(self.studio.runs.load_steps(self.thread_id), self.head_checkpoint_id())

    def history(self, limit: int | None = None) -> list[CheckpointInfo]:
        """Every checkpoint of the thread (all branches, newest first), marked when on the current branch."""
        return self.time_travel.history(limit)

    def state_at(self, checkpoint_id: str) -> dict[str, Any]:
        """The state as it was at a checkpoint of this thread, on any branch."""
        return self.time_travel.state_at(checkpoint_id)

    def record_at(self, checkpoint_id: str) -> StepRecord | None:
        """The step that wrote a checkpoint (its diff and tasks); None for one written outside Stepwise."""
        return self.time_travel.record_at(checkpoint_id)

    def rewind(self, checkpoint_id: str, expected_version: int | None = None) -> None:
        """Move the cursor to an earlier checkpoint; the next step continues (forks) from there."""
        with self.claimed("a rewind", expected_version):
            self.time_travel.rewind(checkpoint_id)

    def fork(self, checkpoint_id: str, edits: Mapping[str, Any], as_node: str | None,
             expected_version: int | None = None) -> StepOutcome:
        """A new branch from a checkpoint with some fields edited, as if `as_node` had written them."""
        with self.claimed("a fork", expected_version):
            return self.time_travel.fork(checkpoint_id, self._admitted(edits), as_node)

    def edit_state(self, values: Mapping[str, Any], as_node: str | None = None,
                   shown: Mapping[str, Any] | None = None, expected_version: int | None = None) -> StepOutcome:
        """Fork from the current position with these values, as if `as_node` had written them."""
        with self.claimed("an edit", expected_version, one_step=True):
            return self.time_travel.edit_state(self._admitted(values), as_node=as_node, shown=shown)

    def _admitted(self, edits: Mapping[str, Any]) -> Mapping[str, Any]:
        """Edits of the fields that hold people's words, masked as their input was."""
        if not self.spec.personal_fields:
            return edits
        return mask_fields(self.studio.runs.vault, self.thread_id, edits, self.spec.personal_fields,
                           self.settings.phone_region_codes)
