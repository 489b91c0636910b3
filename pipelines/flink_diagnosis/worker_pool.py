"""Batch workers as processes: N of them (or one, in this process), their progress, and stopping them together.

SIGTERM or Ctrl-C stops every worker at once, each handing its claim back to pending. A parent killed outright
(SIGKILL) takes its workers with it: each asks the kernel for SIGTERM when its parent dies (prctl
PR_SET_PDEATHSIG, Linux) and also watches the parent's sentinel, which becomes ready when the parent exits
(everywhere multiprocessing runs). The parent hands back, itself, the claims of a worker that died before it could."""

from __future__ import annotations

import ctypes
import logging
import multiprocessing as mp
import multiprocessing.connection
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import Settings
from pipelines.flink_diagnosis.settings import flink_settings
from pipelines.flink_diagnosis.worker import (FAILED, OUTAGE, TERMINATED, Budget, Worker, WorkerReport,
                                              default_worker_id)

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1
STOP_GRACE_S = 30.0  # how long a stopped worker gets to hand back its claim before it is killed
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class WorkerTerminated(BaseException):
    """Raised in the parent's main thread by SIGTERM or SIGINT: it stops its workers and reports. A BaseException,
    so no `except Exception` on the way takes it for an error to handle."""


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While in this block, SIGTERM and SIGINT raise WorkerTerminated in the main thread, once (elsewhere than the
    main thread, nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired = False

    def stop(signum: int, frame: Any) -> None:
        nonlocal fired
        if not fired:  # a second signal must not break the stopping of the first
            fired = True
            raise WorkerTerminated(f"stopped by {signal.Signals(signum).name}")

    previous = {number: signal.signal(number, stop) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


class StopNow:
    """Stops a worker process at once on SIGTERM or SIGINT, or when its parent dies. The worker's own thread may be
    inside a model call that returns only at its timeout (LangChain waits for its thread pool), so a thread of this
    object's own runs `on_stop(reason)` (hand back, mark the run, say so; it returns the exit code), then ends the
    process without unwinding the worker."""

    def __init__(self, on_stop: Callable[[str], int]) -> None:
        self.on_stop = on_stop
        self.reason = ""
        self._asked = threading.Event()
        self._closed = False
        self._previous: dict[int, Any] = {}
        self._thread = threading.Thread(target=self._stop, daemon=True, name="stepwise-stop-now")

    def __enter__(self) -> StopNow:
        self._thread.start()
        if threading.current_thread() is threading.main_thread():
            self._previous = {number: signal.signal(number, self._on_signal) for number in STOP_SIGNALS}
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._asked.is_set():
            self._thread.join()  # it ends the process
        self._closed = True
        self._asked.set()
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def ask(self, reason: str) -> None:
        if not self._asked.is_set():
            self.reason = reason
            self._asked.set()

    def _on_signal(self, signum: int, frame: Any) -> None:
        self.ask(f"stopped by {signal.Signals(signum).name}")

    def _stop(self) -> None:
        self._asked.wait()
        if self._closed:
            return
        code = 1
        try:
            code = self.on_stop(self.reason)
        except Exception:  # noqa: BLE001 - it must end the process all the same; the lease returns the claim
            log.exception("stopping the worker failed")
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)


def die_with_parent(parent_pid: int, stopper: StopNow) -> None:
    """Stop this process when its parent dies, however it dies."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError) as exc:  # a libc without prctl: the watchdog below still works
            log.debug("no parent-death signal: %s", exc)
    parent = mp.parent_process()
    if parent is not None and parent.sentinel is not None:
        # Needs no signal handler to run in the main thread, which may be busy in a C call for a while.
        threading.Thread(target=_watch_parent, args=(parent.sentinel, stopper), daemon=True,
                         name="stepwise-parent-watchdog").start()
    if os.getppid() != parent_pid:  # the parent died before the kernel was asked to say so
        stopper.ask("its parent process ended")


def _watch_parent(sentinel: int, stopper: StopNow) -> None:
    multiprocessing.connection.wait([sentinel])
    stopper.ask("its parent process ended")


def _notice(text: str) -> None:
    print(f"\n{text}", file=sys.stderr, flush=True)


def _process_main(settings: Settings, worker_id: str, until_empty: bool, limit: int | None, taken: Any,
                  results: Any, parent_pid: int) -> None:
    worker = Worker(settings, worker_id, budget=Budget(limit, taken), on_notice=_notice)

    def send(report: WorkerReport) -> None:
        if os.getppid() == parent_pid:  # nobody reads the queue of a dead parent
            results.put(report)
            results.close()
            results.join_thread()  # in the pipe before the process ends

    def stop(reason: str) -> int:
        send(worker.stop_now(reason))
        return 128 + int(signal.SIGTERM)

    with StopNow(stop) as stopper:
        die_with_parent(parent_pid, stopper)
        try:
            report = worker.work(until_empty)
        except Exception as exc:  # noqa: BLE001 - said in the report, so the parent can say it in one line
            report = WorkerReport(worker_id, stopped=FAILED, reason=f"{type(exc).__name__}: {exc}")
    send(report)


def _show(store: Any, progress: Callable[[dict[str, int]], None] | None) -> None:
    if progress is None:
        return
    try:
        progress(store.count_by_status())
    except Exception as exc:  # noqa: BLE001 - the workers wait the outage out; the bar just does not move
        log.info("progress unavailable: %s", exc)


def run_workers(settings: Settings, workers: int = 1, *, until_empty: bool = True, limit: int | None = None,
                progress: Callable[[dict[str, int]], None] | None = None, poll_s: float = 0.5) -> list[WorkerReport]:
    """N worker processes (one worker runs in this process's main thread); `progress` gets the queue's counts
    while they work. Each report says whether its worker stopped early, why, and what it handed back."""
    from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store

    store = open_store(settings)
    open_flink_knowledge(settings).ensure_indexed()  # once, before the workers race to do it
    if workers <= 1:
        return [_in_this_process(settings, store, until_empty, limit, progress, poll_s)]
    Studio.from_settings(settings).close()  # creates the run tables before the processes race to
    ctx = mp.get_context("spawn")
    taken, results = ctx.Value("i", 0), ctx.Queue()
    names = [default_worker_id(i) for i in range(workers)]
    processes = [ctx.Process(target=_process_main, daemon=True, name=f"stepwise-flink-worker-{i}",
                             args=(settings, name, until_empty, limit, taken, results, os.getpid()))
                 for i, name in enumerate(names)]
    reports: dict[str, WorkerReport] = {}
    with stop_on_signals():
        try:
            for process in processes:
                process.start()
            while len(reports) < workers and _receive(results, reports, poll_s, processes):
                _show(store, progress)
        except WorkerTerminated as stop:
            for process in processes:
                if process.is_alive():
                    process.terminate()  # SIGTERM: each hands its claim back
            _finish(results, reports, processes)
            for report in reports.values():  # the run as a whole was stopped, by the signal the parent got
                if report.stopped in ("", TERMINATED):
                    report.stopped, report.reason = TERMINATED, str(stop)
        finally:
            _finish(results, reports, processes)
    _hand_back_for_the_dead(store, names, reports, processes)
    _show(store, progress)
    return [reports[name] for name in names if name in reports]


def _in_this_process(settings: Settings, store: Any, until_empty: bool, limit: int | None,
                     progress: Callable[[dict[str, int]], None] | None, poll_s: float) -> WorkerReport:
    """The worker in this thread, the progress bar from a helper thread; SIGTERM or Ctrl-C stops it at once."""
    worker = Worker(settings, default_worker_id(), budget=Budget(limit), on_notice=_notice)
    done = threading.Event()

    def show() -> None:
        while not done.wait(poll_s):
            _show(store, progress)

    def stop(reason: str) -> int:
        line, code = stop_summary([worker.stop_now(reason)], flink_settings(settings).claim_lease_s) or (reason, 1)
        print(f"\nerror: {line}", file=sys.stderr)
        return code

    threading.Thread(target=show, daemon=True, name="stepwise-flink-progress").start()
    try:
        with StopNow(stop):
            report = worker.work(until_empty)
    finally:
        done.set()
    _show(store, progress)
    return report


def _receive(results: Any, reports: dict[str, WorkerReport], timeout: float, processes: list[Any]) -> bool:
    """Take a report if one comes within `timeout`; False once every process is gone and nothing is left."""
    try:
        report = results.get(timeout=timeout)
        reports[report.worker_id] = report
        return True
    except queue.Empty:
        return any(p.is_alive() for p in processes) or not results.empty()


def _finish(results: Any, reports: dict[str, WorkerReport], processes: list[Any]) -> None:
    """Read the reports of stopping processes while they exit (a process whose report does not fit in the pipe
    waits for it to be read), then kill any that outstays the grace period."""
    deadline = time.monotonic() + STOP_GRACE_S
    while any(p.is_alive() for p in processes) and time.monotonic() < deadline:
        _receive(results, reports, 0.2, processes)
    for process in processes:
        if process.is_alive():
            process.kill()
        process.join(timeout=STOP_GRACE_S)
    while True:
        try:
            report = results.get(timeout=0.05)
        except queue.Empty:
            return
        reports[report.worker_id] = report


def _hand_back_for_the_dead(store: Any, names: list[str], reports: dict[str, WorkerReport],
                            processes: list[Any]) -> None:
    """A worker that died without a report (killed, crashed) or could not hand its claim back: the parent does."""
    for name, process in zip(names, processes):
        report = reports.get(name)
        if report is not None and not report.left_to_lease:
            continue
        try:
            handed = store.hand_back(name, "handed back: its worker process ended")
        except Exception as exc:  # noqa: BLE001 - the lease returns it
            log.warning("could not hand back the claims of %s: %s", name, exc)
            handed = 0
        if report is None:
            reports[name] = WorkerReport(name, stopped=FAILED, handed_back=handed,
                                         reason=f"its process ended with exit code {process.exitcode}")
        elif handed:
            report.handed_back, report.left_to_lease = report.handed_back + handed, False


def stop_summary(reports: list[WorkerReport], lease_s: float) -> tuple[str, int] | None:
    """One line on why the workers stopped early, and the exit code; None when they ran out of work."""
    stopped = [r for r in reports if r.stopped]
    if not stopped:
        return None
    claims = _claims_said(sum(r.handed_back for r in reports), any(r.left_to_lease for r in reports), lease_s)
    kinds = {r.stopped for r in stopped}
    who = "the worker" if len(reports) == 1 else f"{len(stopped)} of {len(reports)} workers"
    if OUTAGE in kinds:
        reason = next(r.reason for r in stopped if r.stopped == OUTAGE)
        return f"{who} stopped: {reason}; {claims}", 1
    if TERMINATED in kinds:
        reason = next(r.reason for r in stopped if r.stopped == TERMINATED)
        number = signal.SIGINT if "SIGINT" in reason else signal.SIGTERM
        return f"{reason}; {claims}", 128 + int(number)
    return f"{who} failed: {stopped[0].reason}; {claims}", 1


def _claims_said(handed: int, left_to_lease: bool, lease_s: float) -> str:
    went = f"{handed} claimed exception{'s' if handed != 1 else ''} went back to pending"
    lease = f"return to pending when their {lease_s:g} s lease expires"
    if left_to_lease:
        return f"{went}; the others {lease}" if handed else f"the claimed exceptions {lease}"
    return went if handed else "no exception was claimed"
