"""A Session's hold on its thread while it moves it: taken from the run store, kept alive, given back once.

The run store decides who gets a thread (storage/run_claims.py). Here a held claim is kept alive by one daemon thread
per process that renews every live lease a third of the way through it, so a step may take as long as its model
needs, while a killed process's claims lapse within one lease.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import weakref
from dataclasses import dataclass, field

from pipelines.core.storage.runstore import RunStore

DEFAULT_LEASE_S = 30.0


def holder_label(action: str) -> str:
    """What another tab or process is told holds the run: the action and the process it runs in."""
    return f"{action}, process {os.getpid()} on {socket.gethostname()}"


@dataclass(eq=False)
class ThreadClaim:
    """A held claim on one thread. `took_over`: it was taken from a holder whose lease lapsed (that holder may have
    died mid-step), so the taker reads the thread afresh."""

    runs: RunStore
    thread_id: str
    token: str
    lease_s: float
    took_over: bool = False
    released: bool = field(default=False, init=False)
    renewed_at: float = field(default_factory=time.monotonic, init=False)

    @property
    def due(self) -> float:
        """When the keeper renews it next: a third of the way through its lease."""
        return self.renewed_at + self.lease_s / 3

    def renew(self) -> None:
        self.renewed_at = time.monotonic()
        try:
            if not self.runs.renew_claim(self.thread_id, self.token, self.lease_s):
                _KEEPER.forget(self)  # lost (its lease lapsed and another took the run): nothing left to renew
        except Exception:  # noqa: BLE001 - a store down for a moment: the next renewal tries again
            pass

    def release(self) -> None:
        """Give the thread back; a second call does nothing."""
        if self.released:
            return
        self.released_by_store()
        self.runs.release_claim(self.thread_id, self.token)

    def released_by_store(self) -> None:
        """The run store gave the thread back along with another write (a step's record)."""
        self.released = True
        _KEEPER.forget(self)


def claim_thread(runs: RunStore, thread_id: str, seen_version: int | None, action: str,
                 lease_s: float = DEFAULT_LEASE_S) -> ThreadClaim:
    """Claim a thread that stands at `seen_version` for `action`; RunBusy or RunMovedOn when it is not free."""
    grant = runs.claim(thread_id, seen_version, holder_label(action), lease_s)
    claim = ThreadClaim(runs, thread_id, grant.token, lease_s, took_over=grant.took_over)
    _KEEPER.keep(claim)
    return claim


class _LeaseKeeper:
    """The process's one renewer of live claims, started with the first claim (weak references: a claim nobody
    holds any more is not kept alive by it)."""

    def __init__(self) -> None:
        self._claims: weakref.WeakSet[ThreadClaim] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    def keep(self, claim: ThreadClaim) -> None:
        with self._lock:
            self._claims.add(claim)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="stepwise-claims", daemon=True)
                self._thread.start()
            elif claim.lease_s < DEFAULT_LEASE_S:
                self._wake.notify()  # a short lease (tests) is due before the keeper's usual wake-up

    def forget(self, claim: ThreadClaim) -> None:
        with self._lock:
            self._claims.discard(claim)

    def _loop(self) -> None:
        while True:
            with self._lock:
                next_due = min((c.due for c in self._claims), default=time.monotonic() + DEFAULT_LEASE_S / 3)
                self._wake.wait(max(0.0, next_due - time.monotonic()))
                now = time.monotonic()
                due = [c for c in self._claims if not c.released and c.due <= now]
            for claim in due:
                claim.renew()


_KEEPER = _LeaseKeeper()
