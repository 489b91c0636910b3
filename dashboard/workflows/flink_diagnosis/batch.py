"""A batch of Flink diagnoses running in a background thread of the dashboard process; pages poll its progress."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pipelines.core.settings import Settings
from pipelines.core.runtime.studio import Studio


@dataclass
class BatchProgress:
    running: bool = False
    total: int = 0
    done: int = 0
    completed: int = 0
    failed: int = 0
    started_at: float = 0.0
    finished_at: float = 0.0
    error: str = ""
    note: str = ""  # what the worker is waiting for (the database, during an outage)
    stopped: bool = False  # Stop was asked for and the batch ended before its total
    # The queue's counts when the batch started: while it runs, its progress is read from the queue itself,
    # so the progress line and the page's counters (one read of the store) always agree.
    baseline: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        end = self.finished_at or time.time()
        return self.done / max(end - self.started_at, 1e-6) if self.started_at else 0.0

    def seen_in(self, counts: Mapping[str, int]) -> BatchProgress:
        """This progress as the queue's counts show it (completed and failed since the start), for a running
        batch; a finished batch keeps its own exact count."""
        if not self.running or not self.baseline:
            return self
        completed = max(0, counts.get("completed", 0) - self.baseline.get("completed", 0))
        failed = max(0, counts.get("failed", 0) - self.baseline.get("failed", 0))
        return BatchProgress(running=True, total=self.total, done=min(self.total, completed + failed),
                             completed=completed, failed=failed, started_at=self.started_at, note=self.note,
                             baseline=self.baseline)


def progress_text(progress: BatchProgress) -> str:
    return (f"{progress.done} of {progress.total} diagnosed · {progress.completed} completed · "
            f"{progress.failed} failed · {progress.rate:.1f}/s")


def outcome_message(progress: BatchProgress) -> tuple[str, str]:
    """How a finished batch ended, as (kind, text): finished, stopped by the user, or broken."""
    count = f"{progress.done} of {progress.total} exception{'s' if progress.total != 1 else ''}"
    if progress.error:
        return "error", f"The batch broke off after {count}: {progress.error}"
    if progress.stopped:
        return "warning", f"Stopped after {count}. The rest are still pending."
    if progress.done < progress.total:
        return "info", (f"Batch finished after {count}: the queue had no more pending exceptions (another "
                        "worker took them). The Diagnosis results page has the diagnoses.")
    return "success", f"Batch finished: {count} diagnosed. The Diagnosis results page has the diagnoses."


class BatchRunner:
    """One batch at a time per dashboard process; a second browser tab sees the same progress.

    The worker thread never calls Streamlit: it only updates `progress`, which the page reads.
    """

    def __init__(self) -> None:
        self.progress = BatchProgress()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def stopping(self) -> bool:
        return self.progress.running and self._stop.is_set()

    def start(self, settings: Settings, studio: Studio, counts: Mapping[str, int], limit: int | None = None) -> bool:
        """Diagnose up to `limit` of the pending exceptions; `counts` is the queue as the page last read it."""
        with self._lock:
            if self.progress.running:
                return False
            self._stop.clear()
            pending = int(counts.get("pending", 0))
            self.progress = BatchProgress(running=True, total=min(pending, limit or pending), started_at=time.time(),
                                          baseline=dict(counts))
            self._thread = threading.Thread(target=self._run, args=(settings, studio, limit), daemon=True,
                                            name="stepwise-flink-batch")
            self._thread.start()
            return True

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _record(self, outcome: dict[str, Any]) -> None:
        with self._lock:
            self.progress.done += 1
            if outcome["status"] == "completed":
                self.progress.completed += 1
            else:
                self.progress.failed += 1

    def _notice(self, text: str) -> None:
        self.progress.note = text

    def _run(self, settings: Settings, studio: Studio, limit: int | None) -> None:
        from pipelines.flink_diagnosis.settings import flink_settings
        from pipelines.flink_diagnosis.worker import Budget, default_worker_id, work
        from pipelines.flink_diagnosis.worker_pool import stop_summary

        try:
            report = work(settings, f"dashboard:{default_worker_id()}", until_empty=True, budget=Budget(limit),
                          stop=self._stop, studio=studio, on_done=self._record, on_notice=self._notice)
            if stopped := stop_summary([report], flink_settings(settings).claim_lease_s):
                self.progress.error = stopped[0]
        except Exception as exc:  # noqa: BLE001 - shown on the page instead of dying silently in a thread
            self.progress.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.progress.stopped = self._stop.is_set() and self.progress.done < self.progress.total
            self.progress.finished_at = time.time()
            self.progress.running = False
