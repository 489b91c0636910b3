"""The shared part of work done in a worker thread that pages poll: when it started and ended, Stop, and waiting;
and the process's register of such workers, one per key (a run's thread, a collection)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pipelines.core.errors import InvalidInput


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


Worker = TypeVar("Worker", bound=WorkerState)


class Workers(Generic[Worker]):
    """The workers going on in this process, one per key at most; every page (every browser tab) finds a key's
    latest worker here, running or finished. The `keep` most recent finished ones are remembered."""

    def __init__(self, keep: int) -> None:
        self._workers: dict[Hashable, Worker] = {}
        self._lock = threading.Lock()
        self._keep = keep

    def start(self, key: Hashable, worker: Worker, work: Callable[[], None], *, busy: str, thread_name: str) -> Worker:
        """Register `worker` under `key` and run `work` in a daemon thread; InvalidInput(`busy`) and nothing started
        when the key's worker is still running."""
        with self._lock:
            current = self._workers.get(key)
            if current is not None and current.running:
                raise InvalidInput(busy)
            self._workers[key] = worker
            finished = sorted((k for k, w in self._workers.items() if not w.running),
                              key=lambda k: self._workers[k].started_at)
            for old in finished[: max(0, len(finished) - self._keep)]:
                del self._workers[old]
        threading.Thread(target=work, daemon=True, name=thread_name).start()
        return worker

    def get(self, key: Hashable) -> Worker | None:
        """The key's latest worker, running or finished."""
        with self._lock:
            return self._workers.get(key)

    def active(self, key: Hashable) -> Worker | None:
        worker = self.get(key)
        return worker if worker is not None and worker.running else None
