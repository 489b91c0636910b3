"""The Flink exception queue and knowledge cases in SQL, claimed safely by several worker processes at once."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError

from pipelines.core.storage.engine import create_tables, make_engine
from pipelines.core.storage.outage import patiently
from pipelines.core.storage.sqlerrors import first_line, redact_url, sql_errors_as
from pipelines.flink_diagnosis.settings import flink_settings
from pipelines.flink_diagnosis.tables import (STATUSES, case_row, cases, check_statuses, clip, exception_row,
                                              exceptions, metadata, pattern_hash, utcnow, worker_name)

t = exceptions
ROW_COLUMNS = [t.c.id.label("exception_id"), *(c for c in t.c if c.name != "id")]
JOB_COLUMNS = [t.c.id.label("exception_id"), t.c.job_id, t.c.job_name, t.c.error_type, t.c.error_message,
               t.c.job_config, t.c.attempts, t.c.claimed_by]
# Lock wait timeouts and deadlocks (MySQL errno, SQLSTATE): the claim is simply tried again.
TRANSIENT = {1205, 1213, "40001", "40P01"}


class ExceptionStoreError(RuntimeError):
    """The exception database cannot be reached or written; the message says which and why."""


_as_store_error = sql_errors_as(ExceptionStoreError, lambda store: f"the Flink exception database {store.label}")


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """One transaction that may safely run again: a worker riding out an outage retries it whole (a connection lost
    half-way rolls it back); any other SQL failure becomes an ExceptionStoreError."""
    @functools.wraps(method)
    def call(self: ExceptionStore, *args: Any, **kwargs: Any) -> Any:
        return patiently(lambda: method(self, *args, **kwargs))
    return _as_store_error(call)


# Inserts are not run again (a commit whose answer was lost would add the rows twice): only their connection waits.
_guarded_once = _as_store_error


def _transient(exc: DBAPIError) -> bool:
    orig = exc.orig
    return getattr(orig, "sqlstate", None) in TRANSIENT or bool(orig.args and orig.args[0] in TRANSIENT)


class ExceptionStore:
    """The queue of Flink job exceptions (pending → in_progress → completed | failed) and the knowledge cases."""

    def __init__(self, url: str, lease_s: float = 600.0) -> None:
        if lease_s <= 0:
            raise ValueError("the claim lease must be a positive number of seconds")
        self.url = url
        self.label = redact_url(url)
        self.lease = timedelta(seconds=lease_s)
        self.secret = ""  # the URL's password, cut out of any driver message that repeats it
        try:
            self.secret = make_url(url).password or ""
            self.engine = make_engine(url)
            create_tables(self.engine, metadata)
        except (SQLAlchemyError, OSError) as exc:
            raise ExceptionStoreError(f"cannot open the Flink exception database {self.label}: {first_line(exc, self.secret)}") \
                from exc

    @classmethod
    def from_settings(cls, settings: Any) -> ExceptionStore:
        return cls(settings.effective_db_url, lease_s=flink_settings(settings).claim_lease_s)

    # the queue ---------------------------------------------------------------------------------
    def add_exception(self, job_id: str, error_message: str, job_name: str | None = None,
                      error_type: str | None = None, job_config: dict[str, Any] | None = None) -> int:
        return self.add_many([{"job_id": job_id, "error_message": error_message, "job_name": job_name,
                               "error_type": error_type, "job_config": job_config}])[0]

    @_guarded_once
    def add_many(self, items: list[dict[str, Any]]) -> list[int]:
        """Add exceptions in one transaction: all of them, or none if one is invalid or the database fails."""
        now = utcnow()
        rows = [exception_row(item, now) for item in items]
        with self.engine.begin() as conn:
            return [conn.execute(insert(t).values(**row)).inserted_primary_key[0] for row in rows]

    @_guarded
    def release_expired(self) -> int:
        """Return to pending every claim whose worker has held it longer than the lease (it probably died)."""
        return self._release_expired()

    def _release_expired(self) -> int:
        expired = (t.c.status == "in_progress") & (t.c.claimed_at < utcnow() - self.lease)
        with self.engine.begin() as conn:
            # A plain read first: the common case (nothing expired) then takes no lock at all.
            ids = conn.execute(select(t.c.id).where(expired)).scalars().all()
            if not ids:
                return 0
            return conn.execute(update(t).where(t.c.id.in_(ids), expired).values(
                status="pending", claimed_by=None, claimed_at=None, updated_at=utcnow(),
                error="the previous claim's lease expired")).rowcount

    @_guarded
    def claim(self, worker_id: str) -> dict[str, Any] | None:
        """Claim the lowest pending exception for a worker, or None when nothing is pending."""
        worker_id = worker_name(worker_id)
        for attempt in range(4):
            try:
                self._release_expired()
                return self._claim_next(worker_id)
            except DBAPIError as exc:
                if not _transient(exc):
                    raise
                time.sleep(0.05 * (attempt + 1))
        self._release_expired()
        return self._claim_next(worker_id)  # a fifth deadlock in a row is reported, not retried

    def _claim_next(self, worker_id: str) -> dict[str, Any] | None:
        now = utcnow()
        claimed = {"status": "in_progress", "claimed_by": worker_id, "claimed_at": now, "updated_at": now,
                   "attempts": t.c.attempts + 1}
        lowest = select(t.c.id).where(t.c.status == "pending").order_by(t.c.id).limit(1)
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "sqlite":
                # SQLite has no row locks: one UPDATE holds the file's write lock from the pick to the claim.
                row = conn.execute(update(t).where(t.c.id == lowest.scalar_subquery(), t.c.status == "pending")
                                   .values(**claimed).returning(*JOB_COLUMNS)).mappings().first()
                return dict(row) if row else None
            # Rows another worker is claiming right now are skipped, not waited for.
            picked = conn.execute(lowest.with_for_update(skip_locked=True)).scalar()
            if picked is None:
                return None
            conn.execute(update(t).where(t.c.id == picked).values(**claimed))
            return dict(conn.execute(select(*JOB_COLUMNS).where(t.c.id == picked)).mappings().one())

    @_guarded
    def claim_by_id(self, exception_id: int, worker_id: str) -> dict[str, Any] | None:
        """Claim one chosen exception if it is pending, failed, or held past its lease; None otherwise."""
        now = utcnow()
        claimable = or_(t.c.status.in_(("pending", "failed")),
                        (t.c.status == "in_progress") & (t.c.claimed_at < now - self.lease))
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.id == exception_id, claimable).values(
                status="in_progress", claimed_by=worker_name(worker_id), claimed_at=now, updated_at=now,
                attempts=t.c.attempts + 1)).rowcount
            if not done:
                return None
            return dict(conn.execute(select(*JOB_COLUMNS).where(t.c.id == exception_id)).mappings().one())

    def complete(self, exception_id: int, diagnosis: dict[str, Any], worker_id: str | None = None) -> bool:
        if not isinstance(diagnosis, dict):
            raise ValueError(f"a diagnosis is a dict, not {type(diagnosis).__name__}")
        return self._finish(exception_id, worker_id, status="completed", diagnosis=diagnosis, error=None)

    def fail(self, exception_id: int, error: str, worker_id: str | None = None) -> bool:
        return self._finish(exception_id, worker_id, status="failed", error=clip(str(error or "unknown error")))

    @_guarded
    def _finish(self, exception_id: int, worker_id: str | None, **values: Any) -> bool:
        """With a worker id, only that worker's live claim may finish: a worker whose lease expired and whose
        exception went to someone else must not overwrite the other's result."""
        where = [t.c.id == exception_id]
        if worker_id is not None:
            where += [t.c.status == "in_progress", t.c.claimed_by == worker_id]
        with self.engine.begin() as conn:
            return conn.execute(update(t).where(*where).values(updated_at=utcnow(), **values)).rowcount == 1

    @_guarded
    def hand_back(self, worker_id: str, reason: str) -> int:
        """Return to pending every exception this worker still holds, as it stops without finishing them."""
        held = (t.c.status == "in_progress") & (t.c.claimed_by == worker_name(worker_id))
        with self.engine.begin() as conn:
            return conn.execute(update(t).where(held).values(
                status="pending", claimed_by=None, claimed_at=None, updated_at=utcnow(), error=clip(reason))).rowcount

    @_guarded
    def requeue(self, exception_id: int) -> bool:
        with self.engine.begin() as conn:
            return conn.execute(update(t).where(t.c.id == exception_id).values(
                status="pending", claimed_by=None, claimed_at=None, updated_at=utcnow())).rowcount == 1

    # reading -----------------------------------------------------------------------------------
    @_guarded
    def get(self, exception_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*ROW_COLUMNS).where(t.c.id == exception_id)).mappings().first()
        return dict(row) if row else None

    @_guarded
    def list_exceptions(self, status: str | None = None, statuses: list[str] | None = None,
                        job_id: str | None = None, search: str | None = None, limit: int = 100, offset: int = 0,
                        order: str = "desc") -> list[dict[str, Any]]:
        if order not in ("asc", "desc"):
            raise ValueError(f"order is 'asc' or 'desc', not {order!r}")
        query = select(*ROW_COLUMNS)
        if wanted := check_statuses(status, statuses):
            query = query.where(t.c.status.in_(wanted))
        if job_id:
            query = query.where(t.c.job_id == job_id)
        if search:
            query = query.where(or_(*(c.icontains(search, autoescape=True)
                                      for c in (t.c.job_id, t.c.job_name, t.c.error_type, t.c.error_message))))
        query = query.order_by(t.c.id.desc() if order == "desc" else t.c.id).limit(limit).offset(offset)
        with self.engine.connect() as conn:
            return [dict(row) for row in conn.execute(query).mappings()]

    @_guarded
    def count_by_status(self) -> dict[str, int]:
        with self.engine.connect() as conn:
            counted = dict(conn.execute(select(t.c.status, func.count()).group_by(t.c.status)).all())
        return {name: int(counted.get(name, 0)) for name in STATUSES}

    def iter_results(self, status: str | None = None, batch_size: int = 500) -> Iterator[dict[str, Any]]:
        """Every exception in id order, read a page at a time so no connection stays open while the caller
        writes its export."""
        wanted, after = check_statuses(status, None), 0
        while True:
            page = self._page(wanted, after, batch_size)
            yield from page
            if len(page) < batch_size:
                return
            after = page[-1]["exception_id"]

    @_guarded
    def _page(self, wanted: list[str], after: int, size: int) -> list[dict[str, Any]]:
        query = select(*ROW_COLUMNS).where(t.c.id > after).order_by(t.c.id).limit(size)
        if wanted:
            query = query.where(t.c.status.in_(wanted))
        with self.engine.connect() as conn:
            return [dict(row) for row in conn.execute(query).mappings()]

    @_guarded
    def completed_timeline(self) -> list[tuple[datetime, str]]:
        """When each finished exception finished, and how: the points of a throughput chart."""
        query = (select(t.c.updated_at, t.c.status).where(t.c.status.in_(("completed", "failed")))
                 .order_by(t.c.updated_at, t.c.id))
        with self.engine.connect() as conn:
            return [tuple(row) for row in conn.execute(query)]

    @_guarded
    def delete_exception(self, exception_id: int) -> bool:
        with self.engine.begin() as conn:
            return conn.execute(delete(t).where(t.c.id == exception_id)).rowcount == 1

    @_guarded
    def purge(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(t))
            conn.execute(delete(cases))

    # knowledge cases ---------------------------------------------------------------------------
    @_guarded_once  # run again after a lost answer, it would count the hit twice
    def upsert_case(self, case: dict[str, Any], count_hit: bool = True) -> bool:
        """Store a case and return True; an identical pattern is not stored twice: its hit count goes up
        (unless count_hit is False, as when shipped cases are loaded again at start) and False comes back."""
        row = case_row(case, utcnow())
        if self._seen(row["pattern_hash"], count_hit):
            return False
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(cases).values(**row))
            return True
        except IntegrityError:
            # Another worker stored the same pattern between our look and our insert.
            if self._seen(row["pattern_hash"], count_hit):
                return False
            raise ValueError(f"case id {row['case_id']!r} is already used by a different pattern") from None

    def _seen(self, digest: str, count_hit: bool) -> bool:
        with self.engine.begin() as conn:
            if not count_hit:
                return conn.execute(select(cases.c.case_id).where(cases.c.pattern_hash == digest)).first() is not None
            return conn.execute(update(cases).where(cases.c.pattern_hash == digest)
                                .values(hit_count=cases.c.hit_count + 1)).rowcount > 0

    @_guarded
    def find_case_by_pattern(self, pattern: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(cases).where(cases.c.pattern_hash == pattern_hash(pattern))).mappings().first()
        return dict(row) if row else None

    @_guarded
    def list_cases(self, category: str | None = None, source: str | None = None, search: str | None = None,
                   limit: int = 200) -> list[dict[str, Any]]:
        query = select(cases).order_by(cases.c.hit_count.desc(), cases.c.case_id).limit(limit)
        if category:
            query = query.where(cases.c.category == category)
        if source:
            query = query.where(cases.c.source == source)
        if search:
            query = query.where(or_(*(c.icontains(search, autoescape=True) for c in (
                cases.c.case_id, cases.c.error_type, cases.c.error_pattern, cases.c.root_cause, cases.c.solution))))
        with self.engine.connect() as conn:
            return [dict(row) for row in conn.execute(query).mappings()]

    @_guarded
    def case_count(self, source: str | None = None) -> int:
        query = select(func.count()).select_from(cases)
        if source:
            query = query.where(cases.c.source == source)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def dispose(self) -> None:
        self.engine.dispose()
