"""A batch of Flink diagnoses running in a background thread of the dashboard process; pages poll its progress."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from pipelines.core.settings import Settings
from pipelines.core.studio import Studio


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

    @property
    def rate(self) -> float:
        end = self.finished_at or time.time()
        return self.done / max(end - self.started_at, 1e-6) if self.started_at else 0.0


class BatchRunner:
    """One batch at a time per dashboard process; a second browser tab sees the same progress.

    The worker thread never calls Streamlit: it only updates `progress`, which the page reads.
    """

    def __init__(self) -> None:
        self.progress = BatchProgress()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, settings: Settings, studio: Studio, total: int, limit: int | None = None) -> bool:
        with self._lock:
            if self.progress.running:
                return False
            self._stop.clear()
            self.progress = BatchProgress(running=True, total=min(total, limit or total), started_at=time.time())
            self._thread = threading.Thread(target=self._run, args=(settings, studio, limit), daemon=True,
                                            name="stepwise-flink-batch")
            self._thread.start()
            return True

    def stop(self) -> None:
        self._stop.set()

    def _record(self, outcome: dict[str, Any]) -> None:
        with self._lock:
            self.progress.done += 1
            if outcome["status"] == "completed":
                self.progress.completed += 1
            else:
                self.progress.failed += 1

    def _run(self, settings: Settings, studio: Studio, limit: int | None) -> None:
        from pipelines.flink_diagnosis.worker import Budget, default_worker_id, work

        try:
            work(settings, f"dashboard:{default_worker_id()}", until_empty=True, budget=Budget(limit),
                 stop=self._stop, studio=studio, on_done=self._record)
        except Exception as exc:  # noqa: BLE001 - shown on the page instead of dying silently in a thread
            self.progress.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.progress.running = False
            self.progress.finished_at = time.time()
