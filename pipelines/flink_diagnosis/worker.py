"""Batch workers: each one runs the diagnosis graph once per exception it claims, until the queue is empty."""

from __future__ import annotations

import multiprocessing as mp
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pipelines.core.settings import Settings
from pipelines.core.runtime.studio import Studio
from pipelines.flink_diagnosis.display import exception_title

IDLE_POLL_S = 1.0


@dataclass
class WorkerReport:
    worker_id: str
    completed: int = 0
    failed: int = 0
    exception_ids: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


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


def _namer(studio: Studio, thread_id: str) -> Callable[[Any], None]:
    """An on_step callback that titles the run after its exception once collect has claimed one."""
    named = False

    def name(outcome: Any) -> None:
        nonlocal named
        tasks = outcome.record.tasks if outcome.record is not None else []
        job = next((t.update.get("job_info") for t in tasks if isinstance(t.update, dict)
                    and t.update.get("job_info")), None)
        if not named and job:
            studio.runs.update_thread(thread_id, title=exception_title(job))
            named = True
    return name


def work(settings: Settings, worker_id: str, *, until_empty: bool = True, budget: Budget | None = None,
         stop: threading.Event | None = None, studio: Studio | None = None,
         on_done: Callable[[dict[str, Any]], None] | None = None) -> WorkerReport:
    """Claim, diagnose, store and accumulate one exception per graph run, each run its own recorded thread."""
    from pipelines.flink_diagnosis import SPEC
    from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store

    report = WorkerReport(worker_id)
    own_studio = studio is None
    studio = studio or Studio.from_settings(settings)
    store = open_store(settings)
    open_flink_knowledge(settings).ensure_indexed()
    try:
        while not (stop and stop.is_set()):
            if budget and not budget.take():
                break
            # One indexed row, not a count of the whole queue: this runs before every exception.
            if not store.list_exceptions(status="pending", limit=1, order="asc") and store.release_expired() == 0:
                if until_empty:
                    break
                time.sleep(IDLE_POLL_S)
                if budget:
                    budget.give_back()
                continue
            session = studio.new_session(SPEC, {"worker_id": worker_id}, settings, scenario="batch worker",
                                         title=f"Batch · next pending exception · {datetime.now():%Y-%m-%d %H:%M}")
            # The graph's collect step claims the exception; the run is named after it as soon as it is known.
            session.run("end", on_step=_namer(studio, session.thread_id))
            state = session.snapshot().values
            job = state.get("job_info")
            if job is None:
                if state.get("error"):
                    report.errors.append(str(state["error"]))
                studio.runs.update_thread(session.thread_id, title=f"Batch · nothing left to claim · "
                                                                  f"{datetime.now():%Y-%m-%d %H:%M}")
                continue  # another worker took the last one first
            report.exception_ids.append(int(job["exception_id"]))
            if state.get("status") == "completed":
                report.completed += 1
            else:
                report.failed += 1
                report.errors.append(str(state.get("error") or "failed"))
            if on_done:
                on_done({"exception_id": job["exception_id"], "status": str(state.get("status")),
                         "thread_id": session.thread_id})
    finally:
        if own_studio:
            studio.close()
    return report


def _process_main(settings: Settings, worker_id: str, until_empty: bool, limit: int | None, taken: Any,
                  results: Any) -> None:
    report = work(settings, worker_id, until_empty=until_empty, budget=Budget(limit, taken))
    results.put(report)


def run_workers(settings: Settings, workers: int = 1, *, until_empty: bool = True, limit: int | None = None,
                progress: Callable[[dict[str, int]], None] | None = None, poll_s: float = 0.5) -> list[WorkerReport]:
    """N worker processes (one runs in this process); `progress` gets the queue's counts while they work."""
    from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store

    store = open_store(settings)
    open_flink_knowledge(settings).ensure_indexed()  # once, before the workers race to do it
    if workers <= 1:
        holder: list[WorkerReport] = []
        thread = threading.Thread(target=lambda: holder.append(
            work(settings, default_worker_id(), until_empty=until_empty, budget=Budget(limit))), daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(poll_s)
            if progress:
                progress(store.count_by_status())
        return holder
    Studio.from_settings(settings).close()  # creates the run tables before the processes race to
    ctx = mp.get_context("spawn")
    taken, results = ctx.Value("i", 0), ctx.Queue()
    processes = [ctx.Process(target=_process_main, daemon=True,
                             args=(settings, default_worker_id(i), until_empty, limit, taken, results))
                 for i in range(workers)]
    for process in processes:
        process.start()
    reports: list[WorkerReport] = []
    while len(reports) < workers:
        if progress:
            progress(store.count_by_status())
        try:
            reports.append(results.get(timeout=poll_s))
        except Exception:  # noqa: BLE001 - queue.Empty: poll again unless every process died
            if not any(p.is_alive() for p in processes) and results.empty():
                break
    for process in processes:
        process.join(timeout=10)
    if progress:
        progress(store.count_by_status())
    return reports
