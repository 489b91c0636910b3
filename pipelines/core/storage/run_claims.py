"""One writer per thread: a claim on the thread's row, taken by compare-and-set on the thread's version, with a lease.

Every change that moves a run (a step, a run to an interrupt or the end, a background run, an answer, a rewind,
a fork) first claims the thread from the version it was shown at. The claim is one conditional UPDATE, which is
atomic on SQLite, MariaDB and PostgreSQL alike (the row is locked and the condition checked again under the lock),
so of two writers that saw the same version exactly one gets it; the other is told who holds the run, or that it
moved on. The holder renews its lease while it works; a killed process's claim lapses with its lease.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Engine

from pipelines.core.errors import InvalidInput, RunBusy, RunMovedOn
from pipelines.core.storage.run_tables import threads


@dataclass(frozen=True)
class ClaimGrant:
    """A claim taken: its token (the proof of holding it), and whether it was taken over from a lapsed holder,
    which may have died half-way through a step (so what the claimant read before may be stale)."""

    token: str
    took_over: bool


# Built once (a claim is taken on every step): the claim when nobody holds the run, or when its holder's lease
# has lapsed, each from a version or from wherever the run stands.
_CLAIM = update(threads).where(threads.c.thread_id == bindparam("tid")).values(
    claim_token=bindparam("token"), claim_holder=bindparam("holder"), claim_expires_at=bindparam("expires"))
_FREE = threads.c.claim_token.is_(None)
_LAPSED = threads.c.claim_expires_at < bindparam("now")
_AT_VERSION = threads.c.version == bindparam("seen")
_CLAIMS = {(versioned, lapsed): _CLAIM.where(_LAPSED if lapsed else _FREE, *([_AT_VERSION] if versioned else []))
           for versioned in (True, False) for lapsed in (False, True)}
_WHO = select(threads.c.version, threads.c.claim_token, threads.c.claim_holder, threads.c.claim_expires_at) \
    .where(threads.c.thread_id == bindparam("tid"))


def take_claim(engine: Engine, thread_id: str, seen_version: int | None, holder: str, lease_s: float) -> ClaimGrant:
    """Claim a thread for `lease_s` seconds, if it still stands at `seen_version` (None: wherever it stands) and
    nobody's claim is alive. Raises RunBusy (someone holds it), RunMovedOn (the version changed) or InvalidInput
    (no such run)."""
    token, now = uuid.uuid4().hex, time.time()
    params = {"tid": thread_id, "token": token, "holder": holder[:200], "expires": now + lease_s, "now": now,
              "seen": seen_version}
    versioned = seen_version is not None
    with engine.begin() as conn:
        if conn.execute(_CLAIMS[versioned, False], params).rowcount == 1:
            return ClaimGrant(token, took_over=False)
        if conn.execute(_CLAIMS[versioned, True], params).rowcount == 1:
            return ClaimGrant(token, took_over=True)
        row = conn.execute(_WHO, {"tid": thread_id}).first()
    if row is None:
        raise InvalidInput(f"no run with thread id {thread_id}")
    if row.claim_token is not None and (row.claim_expires_at or 0) >= now:
        raise RunBusy(f"another step of this run is under way ({row.claim_holder or 'another session'}): nothing was "
                      "done; the run is shown as it is now")
    raise RunMovedOn("the run has moved on since it was shown (stepped, answered, rewound or forked in another tab "
                     "or process): nothing was done; it is shown as it is now")


def renew_claim(engine: Engine, thread_id: str, token: str, lease_s: float) -> bool:
    """Push the lease on; False when the claim was lost (its lease lapsed and someone else took the run)."""
    with engine.begin() as conn:
        return conn.execute(update(threads).where(threads.c.thread_id == thread_id, threads.c.claim_token == token)
                            .values(claim_expires_at=time.time() + lease_s)).rowcount == 1


def release_claim(engine: Engine, thread_id: str, token: str) -> None:
    """Give the run back (nothing happens if the claim was already lost)."""
    with engine.begin() as conn:
        conn.execute(update(threads).where(threads.c.thread_id == thread_id, threads.c.claim_token == token)
                     .values(claim_token=None, claim_holder=None, claim_expires_at=None))
