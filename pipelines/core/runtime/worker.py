"""The shared part of work done in a worker thread that pages poll: when it started and ended, Stop, and waiting."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass(kw_only=True)
class WorkerState:
    """Set by the worker (`_finish`) and read by pages; `request_stop` asks the worker to stop at its next check."""

    started_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    @property
    def stop_requested(self) -> bool:
        return self._stop.is_set()

    @property
    def elapsed_s(self) -> float:
        return (self.finished_at or time.time()) - self.started_at

    def wait(self, timeout: float | None = None) -> bool:
        """True once the work has finished (within `timeout` seconds)."""
        return self._done.wait(timeout)

    def request_stop(self) -> None:
        self._stop.set()

    def _finish(self) -> None:
        self.finished_at = time.time()
        self._done.set()
