"""Batch workers: each one runs the diagnosis graph once per exception it claims, until the queue is empty.

A worker waits out a database outage up to its budget (`outage_budget_s`), retrying with backoff and jitter. Past
it, or when it is told to stop (SIGTERM, its parent's death), it hands back what it holds: the claimed exception
goes back to pending and its run record says why it stopped, instead of looking ready to go on."""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import Settings
from pipelines.core.storage.outage import OutageBudget, is_outage, patiently, riding_out
from pipelines.core.storage.sqlerrors import first_line
from pipelines.core.storage.runstore import TITLE_MAX_CHARS
from pipelines.core.text import clip
from pipelines.flink_diagnosis.display import exception_title
from pipelines.flink_diagnosis.settings import flink_settings

log = logging.getLogger(__name__)
IDLE_POLL_S = 1.0
OUTAGE, TERMINATED, FAILED = "outage", "terminated", "failed"
# How a stopped run's record names the reason.
STOPPED_BECAUSE = {OUTAGE: "database unreachable", TERMINATED: "worker stopped", FAILED: "worker failed"}


@dataclass
class WorkerReport:
    worker_id: str
    completed: int = 0
    failed: int = 0
    exception_ids: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stopped: str = ""  # OUTAGE, TERMINATED or FAILED when it stopped before the queue was empty
    reason: str = ""  # why, in one line
    handed_back: int = 0  # claimed exceptions it returned to pending as it stopped
    left_to_lease: bool = False  # it could not reach the database to hand its claim back: the lease will


class Budget:
    """How many exceptions the workers may still take (`--limit`), shared by processes or threads."""

    def __init__(self, limit: int | None, shared: Any = None) -> None:
        self.limit = limit
        self._taken = shared if shared is not None else mp.Value("i", 0)

    def take(self) -> bool:
        if self.limit is None:
            return True
        with self._taken.get_lock():
            if self._taken.value >= self.limit:
                return False
            self._taken.value += 1
            return True

    def give_back(self) -> None:
        if self.limit is not None:
            with self._taken.get_lock():
                self._taken.value -= 1


def default_worker_id(index: int = 0) -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{index}"


class RunInProgress:
    """The run a worker is in the middle of: its thread, when it started (its claim is no older), and the exception
    collect claimed, once known. Its on_step titles the run after that exception."""

    def __init__(self, studio: Studio) -> None:
        self.studio = studio
        self.started = time.monotonic()
        self.thread_id: str | None = None
        self.job: dict[str, Any] | None = None

    def on_step(self, outcome: Any) -> None:
        tasks = outcome.record.tasks if outcome.record is not None else []
        job = next((t.update.get("job_info") for t in tasks if isinstance(t.update, dict)
                    and t.update.get("job_info")), None)
        if self.job is None and job:
            self.job = job
            self.studio.runs.update_thread(self.thread_id, title=exception_title(job))

    def mark_stopped(self, why: str) -> None:
        """The run will not go on: its record says so (status failed), so it never looks ready to continue."""
        if self.thread_id is None:
            return
        what = exception_title(self.job) if self.job else "Batch · no exception claimed"
        title = clip(f"Stopped ({why}) · {what}", TITLE_MAX_CHARS)
        patiently(lambda: self.studio.runs.update_thread(self.thread_id, status="failed", title=title))


class Worker:
    """One worker's loop over the queue, the outage it may be riding out, and the run it is in the middle of."""

    def __init__(self, settings: Settings, worker_id: str, *, budget: Budget | None = None,
                 stop: threading.Event | None = None, studio: Studio | None = None,
                 on_done: Callable[[dict[str, Any]], None] | None = None,
                 on_notice: Callable[[str], None] | None = None) -> None:
        self.settings, self.worker_id = settings, worker_id
        self.options = flink_settings(settings)
        self.budget, self.on_done, self.on_notice = budget, on_done, on_notice
        self.stop = stop or threading.Event()
        self._stopping_lock = threading.Lock()
        self.report = WorkerReport(worker_id)
        self.outage = OutageBudget(self.options.outage_budget_s)
        self.studio, self._own_studio = studio, studio is None
        self.run: RunInProgress | None = None
        self.store: Any = None

    def work(self, until_empty: bool = True) -> WorkerReport:
        from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store

        try:
            with riding_out(self.outage):
                try:
                    self.store = open_store(self.settings)
                    self.studio = self.studio or Studio.from_settings(self.settings)
                    open_flink_knowledge(self.settings).ensure_indexed()
                    self._loop(until_empty)
                except Exception as exc:
                    if self.store is not None and not is_outage(exc):
                        self._stopping(FAILED, f"the worker failed: {type(exc).__name__}: {exc}")
                    if not is_outage(exc) or self.store is None:
                        raise
                    self.outage.exhausted = True  # it failed where no retry could help, or the budget ran out
                if self.outage.exhausted:
                    self._stopping(OUTAGE, f"the Flink exception database {self.store.label} was "
                                           f"{self.outage.describe()}")
        finally:
            if self._own_studio and self.studio is not None:
                self.studio.close()
        return self.report

    def stop_now(self, reason: str) -> WorkerReport:
        """Stop at once, from another thread: the worker's own thread may be inside a model call that returns only
        at its timeout. No new exception is taken; the claim goes back to pending and the run is marked, now."""
        self.stop.set()
        self._stopping(TERMINATED, reason)
        return self.report

    def _loop(self, until_empty: bool) -> None:
        while not self.stop.is_set() and not self.outage.exhausted:
            if self.budget and not self.budget.take():
                return
            # One indexed row, not a count of the whole queue: this runs before every exception.
            if not self.store.list_exceptions(status="pending", limit=1, order="asc") \
                    and self.store.release_expired() == 0:
                if self.budget:
                    self.budget.give_back()
                if until_empty:
                    return
                time.sleep(IDLE_POLL_S)
                continue
            try:
                self._diagnose_next()
            except Exception as exc:
                if not is_outage(exc) or self.outage.exhausted:
                    raise
                # The connection dropped where a retry could not help (half-way through a step's record): the run
                # cannot go on, its exception goes back to the queue once the database answers again.
                if self.on_notice:
                    self.on_notice(f"{self.worker_id}: the database connection was lost mid-run ({first_line(exc)}); "
                                   "its exception goes back to the queue")
                self._abandon("the database connection was lost")

    def _diagnose_next(self) -> None:
        from pipelines.flink_diagnosis import SPEC

        self.run = run = RunInProgress(self.studio)
        session = self.studio.new_session(
            SPEC, {"worker_id": self.worker_id}, self.settings, scenario="batch worker",
            title=f"Batch · next pending exception · {datetime.now():%Y-%m-%d %H:%M}")
        run.thread_id = session.thread_id
        # The graph's collect step claims the exception; the run is named after it as soon as it is known.
        session.run("end", on_step=run.on_step)
        if self.outage.exhausted:
            return  # a node met the outage's end and stopped: handed back, not counted
        state = session.snapshot().values
        job = state.get("job_info")
        self.run = None
        if job is None:  # another worker took the last one first, or the claim failed: nothing is held
            if state.get("error"):
                self.report.errors.append(str(state["error"]))
            what = "claim failed" if state.get("error") else "nothing left to claim"
            self.studio.runs.update_thread(session.thread_id, title=f"Batch · {what} · {datetime.now():%Y-%m-%d %H:%M}")
            return
        self.report.exception_ids.append(int(job["exception_id"]))
        if state.get("status") == "completed":
            self.report.completed += 1
        else:
            self.report.failed += 1
            self.report.errors.append(str(state.get("error") or "failed"))
        if self.on_done:
            self.on_done({"exception_id": job["exception_id"], "status": str(state.get("status")),
                          "thread_id": session.thread_id})

    def _abandon(self, why: str) -> None:
        """Give up the run in progress but not the queue: its claim back to pending, its record marked stopped."""
        run, self.run = self.run, None
        if self.budget:
            self.budget.give_back()
        self.store.hand_back(self.worker_id, f"handed back: {why}")
        if run is not None:
            run.mark_stopped(why)

    def _stopping(self, kind: str, reason: str) -> None:
        """Stop early: hand back the claim and mark the run. After an outage, wait for the database for no longer
        than the claim's lease (after it, the claim returns to pending by itself); when told to stop, try once."""
        with self._stopping_lock:  # the worker's thread and a stop_now from another one: whoever is first
            if self.report.stopped:
                return
            self.report.stopped, self.report.reason = kind, reason
            run, self.run = self.run, None
        if self.store is None:
            return
        wait_s = 0.0
        if kind == OUTAGE and run is not None:
            wait_s = max(0.0, self.options.claim_lease_s - (time.monotonic() - run.started))
            if self.on_notice:
                self.on_notice(f"{self.worker_id}: {reason}; handing its claim back when the database answers "
                               f"(waiting at most {wait_s:.0f} s, after which the lease returns it)")
        with riding_out(OutageBudget(wait_s)):
            try:
                self.report.handed_back = self.store.hand_back(self.worker_id, f"handed back: {reason}")
                if run is not None:
                    run.mark_stopped(STOPPED_BECAUSE[kind])
            except Exception as exc:  # noqa: BLE001 - the database is still away: the claim's lease returns it
                log.warning("could not hand back the claims of %s: %s", self.worker_id, exc)
                self.report.left_to_lease = run is not None


def work(settings: Settings, worker_id: str, *, until_empty: bool = True, budget: Budget | None = None,
         stop: threading.Event | None = None, studio: Studio | None = None,
         on_done: Callable[[dict[str, Any]], None] | None = None,
         on_notice: Callable[[str], None] | None = None) -> WorkerReport:
    """Claim, diagnose, store and accumulate one exception per graph run, each run its own recorded thread."""
    return Worker(settings, worker_id, budget=budget, stop=stop, studio=studio, on_done=on_done,
                  on_notice=on_notice).work(until_empty)
