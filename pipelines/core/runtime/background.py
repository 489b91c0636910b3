"""Runs that go on in a worker thread while pages poll them: Run to interrupt or to the end, stoppable between steps."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pipelines.core.errors import InvalidInput
from pipelines.core.runtime.claims import ThreadClaim
from pipelines.core.runtime.outcomes import StepOutcome
from pipelines.core.runtime.session import Session
from pipelines.core.runtime.worker import Workers, WorkerState


@dataclass(frozen=True)
class LandedStep:
    """What a page shows of a step the worker finished."""

    step: int
    label: str
    status: str
    duration_ms: float
    error: str | None
    counters: dict[str, int]


@dataclass
class BackgroundRun(WorkerState):
    """One run of one thread in a worker. The worker only appends to `steps` and sets the end fields; pages
    read them. Nothing here touches a UI."""

    thread_id: str
    until: Literal["interrupt", "end"]
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    steps: list[LandedStep] = field(default_factory=list)
    final_status: str | None = None
    error: str | None = None
    streamed: str = ""  # the current step's streamed tokens (a model's reply as it is written)

    def summary(self) -> str:
        count = len(self.steps)
        if self.error:
            return f"The background run stopped with an error after {count} step(s): {self.error}"
        failed = next((s.error for s in reversed(self.steps) if s.error), None)
        if failed:
            return f"A step failed: {failed}"
        how = "stopped by you" if self.stop_requested and self.final_status == "ready" else "finished"
        return f"Ran {count} step(s) in the background ({self.elapsed_s:.1f} s), {how}."

    # the worker's side ---------------------------------------------------------------------------
    def _custom(self, data: Any) -> None:
        if isinstance(data, dict) and isinstance(data.get("token"), str):
            self.streamed = (self.streamed + data["token"])[-20_000:]

    def _landed(self, outcome: StepOutcome) -> None:
        self.streamed = ""
        record = outcome.record
        if record is not None:
            self.steps.append(LandedStep(step=record.step, label=record.label, status=record.status,
                                         duration_ms=record.duration_ms, error=record.error,
                                         counters=dict(record.counters)))

    def _work(self, open_session: Callable[[], Session], claim: ThreadClaim | None) -> None:
        try:
            session = open_session()
            if claim is not None:
                session.adopt(claim)
            session.run(self.until, stop=self._stop, on_step=self._landed, on_custom=self._custom)
            self.final_status = session.status()
        except Exception as exc:  # noqa: BLE001 - shown on the page instead of dying silently in a thread
            self.error = f"{type(exc).__name__}: {exc}"[:500]
        finally:
            try:
                if claim is not None:
                    claim.release()
            except Exception:  # noqa: BLE001 - the store went away: the claim's lease lapses on its own
                pass
            self._finish()


class BackgroundRuns:
    """The runs going on in this process, one per thread at most; every browser tab on a thread sees its run."""

    def __init__(self, keep_finished: int = 200) -> None:
        self._runs: Workers[BackgroundRun] = Workers(keep_finished)

    def start(self, thread_id: str, until: Literal["interrupt", "end"], open_session: Callable[[], Session],
              claim: ThreadClaim | None = None) -> BackgroundRun:
        """Start a worker on its own Session of the thread (`open_session` runs in the worker). `claim`: the
        thread, claimed by the caller from the version it showed, which the worker holds and gives back at its
        end (without one, the worker claims the thread itself and a refusal is the run's error)."""
        run = BackgroundRun(thread_id=thread_id, until=until)
        try:
            return self._runs.start(thread_id, run, lambda: run._work(open_session, claim),  # noqa: SLF001
                                    busy="this run is already running in the background; stop it or wait for it",
                                    thread_name=f"stepwise-run-{thread_id[:8]}")
        except InvalidInput:
            if claim is not None:
                claim.release()
            raise

    def get(self, thread_id: str) -> BackgroundRun | None:
        """The thread's latest background run, running or finished."""
        return self._runs.get(thread_id)

    def active(self, thread_id: str) -> BackgroundRun | None:
        return self._runs.active(thread_id)

    def stop(self, thread_id: str) -> bool:
        run = self.active(thread_id)
        if run is not None:
            run.request_stop()
        return run is not None
