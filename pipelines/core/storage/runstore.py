"""Threads and step records in SQL (SQLite by default), next to the LangGraph checkpoints."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Double, bindparam, case, delete, insert, inspect, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from pipelines.core.errors import InvalidInput
from pipelines.core.storage.engine import add_missing_columns, create_tables, make_engine
from pipelines.core.storage.run_claims import ClaimGrant, release_claim, renew_claim, take_claim
from pipelines.core.storage.run_summaries import ThreadSummary, summarize_threads
from pipelines.core.storage.run_tables import ThreadInfo, metadata, pii_vault, steps, tasks, threads
from pipelines.core.storage.sqlerrors import sql_errors_as
from pipelines.core.storage.vault import VaultTable
from pipelines.core.trace.records import StepRecord, TaskRecord

__all__ = ["RunStore", "RunStoreError", "ThreadInfo", "ThreadSummary", "TITLE_MAX_CHARS", "clean_title", "metadata",
           "steps", "tasks", "threads"]


class RunStoreError(RuntimeError):
    """The run database cannot be reached or written; the message says which and why."""


TITLE_MAX_CHARS = 120


def clean_title(title: Any) -> str:
    """A run's title as typed, stripped; empty or longer than TITLE_MAX_CHARS is refused with the reason."""
    text = str(title or "").strip()
    if not text:
        raise InvalidInput("a run's title cannot be empty")
    if len(text) > TITLE_MAX_CHARS:
        raise InvalidInput(f"a run's title is at most {TITLE_MAX_CHARS} characters (this one has {len(text)})")
    return text


_INSERT_STEP = insert(steps)
_INSERT_TASK = insert(tasks)
# A step moves its thread: the version goes up (claims from before it fail), with the status and, after a step from
# a rewound cursor, the cursor; each statement built once, only its parameters change from step to step.
_BUMP_THREAD = (update(threads).where(threads.c.thread_id == bindparam("tid"))
                .values(updated_at=bindparam("updated_at"), version=threads.c.version + 1))
_UPDATE_THREAD = _BUMP_THREAD.values(status=bindparam("status"))
_UPDATE_THREAD_CURSOR = _UPDATE_THREAD.values(cursor_checkpoint_id=bindparam("cursor"))


def _given_back(column):
    """A claim column cleared when the claim is the one given back with the step (left alone if it was lost)."""
    return case((threads.c.claim_token == bindparam("release"), None), else_=column)


_RELEASE = {"claim_token": _given_back(threads.c.claim_token), "claim_holder": _given_back(threads.c.claim_holder),
            "claim_expires_at": _given_back(threads.c.claim_expires_at)}


@dataclass(frozen=True)
class _ReadSteps:
    """A thread's step records as last read, and the row ids (`seq`) they came from, in order."""

    seqs: tuple[int, ...]
    records: tuple[StepRecord, ...]


STEP_CACHE_THREADS = 32  # threads whose records are kept: those the open pages and their workers look at


_guarded = sql_errors_as(RunStoreError, lambda runs: f"the run database {runs.engine_label(runs.url)}")


def _widen_mysql_floats(engine: Engine) -> None:
    """Tables created when these columns were `Float` hold them as MySQL FLOAT, single precision: a Unix time
    then moves in steps of 128 s, which scrambles the order of runs and their durations. Make them DOUBLE."""
    from sqlalchemy.dialects.mysql import FLOAT

    inspector = inspect(engine)
    with engine.begin() as conn:
        for table in (threads, steps, tasks):
            stored = {c["name"]: c["type"] for c in inspector.get_columns(table.name)}
            for column in table.columns:
                if isinstance(column.type, Double) and isinstance(stored.get(column.name), FLOAT):
                    null = "NULL" if column.nullable else "NOT NULL"
                    conn.execute(text(f"ALTER TABLE {table.name} MODIFY {column.name} DOUBLE {null}"))


class RunStore:
    """Persistence of threads (one per run) and their step and task records."""

    def __init__(self, url: str, busy_timeout_s: float = 30.0) -> None:
        self.url = url
        try:
            self.engine: Engine = make_engine(url, busy_timeout_s)
            create_tables(self.engine, metadata)
            add_missing_columns(self.engine, threads)  # a run database of an earlier Stepwise
            if self.engine.dialect.name in ("mysql", "mariadb"):
                _widen_mysql_floats(self.engine)
        except (SQLAlchemyError, OSError) as exc:
            raise RunStoreError(f"cannot open the run database {self.engine_label(url)}: {exc}") from exc
        self.vault = VaultTable(self.engine, pii_vault)  # the values behind a run's personal-data placeholders
        self._read: OrderedDict[str, _ReadSteps] = OrderedDict()
        self._read_lock = threading.Lock()

    @staticmethod
    def engine_label(url: str) -> str:
        return url.split("@")[-1] if "@" in url else url

    # threads -----------------------------------------------------------------------------------
    @_guarded
    def create_thread(self, thread_id: str, pipeline: str, scenario: str | None, title: str | None,
                      provider: str | None, raw_input: dict[str, Any] | None = None) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(threads).values(
                thread_id=thread_id, pipeline=pipeline, scenario=scenario, title=title, provider=provider,
                status="new", cursor_checkpoint_id=None, input=raw_input, created_at=now, updated_at=now))

    @_guarded
    def get_thread(self, thread_id: str) -> ThreadInfo | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(threads).where(threads.c.thread_id == thread_id)).mappings().first()
        return ThreadInfo(**row) if row else None

    @_guarded
    def list_threads(self, pipeline: str | None = None, limit: int = 200) -> list[ThreadInfo]:
        query = select(threads).order_by(threads.c.updated_at.desc()).limit(limit)
        if pipeline:
            query = query.where(threads.c.pipeline == pipeline)
        with self.engine.connect() as conn:
            return [ThreadInfo(**row) for row in conn.execute(query).mappings()]

    @_guarded
    def thread_summaries(self, pipeline: str | None = None, limit: int = 500, *, status: str | None = None,
                         search: str | None = None) -> list[ThreadSummary]:
        """Threads newest first with their step count, duration and last error (see run_summaries)."""
        return summarize_threads(self.engine, pipeline, status=status, search=search, limit=limit)

    @_guarded
    def update_thread(self, thread_id: str, *, moved: bool = False, **values: Any) -> None:
        """Update a thread's columns; a new `title` is validated first (InvalidInput), so nothing is lost.
        `moved`: the run itself moved (a rewind), so its version goes up and claims from before fail."""
        if "title" in values:
            values["title"] = clean_title(values["title"])
        values["updated_at"] = time.time()
        if moved:
            values["version"] = threads.c.version + 1
        with self.engine.begin() as conn:
            conn.execute(update(threads).where(threads.c.thread_id == thread_id).values(**values))

    @_guarded
    def delete_thread(self, thread_id: str) -> None:
        with self.engine.begin() as conn:
            for table in (tasks, steps, threads):
                conn.execute(delete(table).where(table.c.thread_id == thread_id))
            self.vault.forget(conn, thread_id)
        with self._read_lock:
            self._read.pop(thread_id, None)

    # claims: one writer per thread (run_claims) -----------------------------------------------------------
    @_guarded
    def claim(self, thread_id: str, seen_version: int | None, holder: str, lease_s: float) -> ClaimGrant:
        """Claim a thread that still stands at `seen_version`; RunBusy or RunMovedOn when it is not free."""
        return take_claim(self.engine, thread_id, seen_version, holder, lease_s)

    @_guarded
    def renew_claim(self, thread_id: str, token: str, lease_s: float) -> bool:
        return renew_claim(self.engine, thread_id, token, lease_s)

    @_guarded
    def release_claim(self, thread_id: str, token: str) -> None:
        release_claim(self.engine, thread_id, token)

    # step records ------------------------------------------------------------------------------
    @_guarded
    def save_step(self, record: StepRecord, thread_updates: dict[str, Any] | None = None) -> None:
        """Store a step and its tasks, and update its thread (its version goes up: the run moved), in one
        transaction (on every step: the statements are built once and only their parameters change)."""
        thread_updates = thread_updates or {}
        params = {"tid": record.thread_id, "updated_at": time.time()}
        if "cursor_checkpoint_id" in thread_updates:
            statement = _UPDATE_THREAD_CURSOR
            params |= {"status": thread_updates.get("status"), "cursor": thread_updates["cursor_checkpoint_id"]}
        elif "status" in thread_updates:
            statement, params["status"] = _UPDATE_THREAD, thread_updates["status"]
        else:
            statement = _BUMP_THREAD
        if thread_updates.get("release_claim"):
            statement, params["release"] = statement.values(**_RELEASE), thread_updates["release_claim"]
        with self.engine.begin() as conn:
            conn.execute(statement, params)
            conn.execute(_INSERT_STEP, {
                "step_key": record.step_key, "thread_id": record.thread_id, "step": record.step,
                "status": record.status, "started_at": record.started_at, "duration_ms": record.duration_ms,
                "parent_checkpoint_id": record.parent_checkpoint_id, "checkpoint_id": record.checkpoint_id,
                "changes": record.changes, "counters": record.counters, "error": record.error})
            if record.tasks:
                conn.execute(_INSERT_TASK, [{
                    "step_key": record.step_key, "thread_id": record.thread_id, "task_id": t.task_id,
                    "node": t.node, "namespace": t.namespace, "status": t.status, "started_at": t.started_at,
                    "duration_ms": t.duration_ms, "model_calls": t.model_calls, "calls": len(t.model_calls),
                    "input_tokens": t.input_tokens, "output_tokens": t.output_tokens, "update": t.update,
                    "error": t.error} for t in record.tasks])

    @_guarded
    def load_steps(self, thread_id: str) -> list[StepRecord]:
        """Every step record of a thread, all branches, in the order they ran (shared objects: read-only).

        Step rows are only ever added, so the records read before are kept and only rows added since are read
        and decoded: a page redrawn on a run of hundreds of steps reads one column of row ids, not every
        step's JSON again. Rows that are not the known ones followed by new ones (a thread deleted elsewhere,
        a row committed late by another writer) make it read them all again."""
        with self._read_lock:
            known = self._read.get(thread_id)
        with self.engine.connect() as conn:
            seqs = tuple(conn.execute(select(steps.c.seq).where(steps.c.thread_id == thread_id)
                                      .order_by(steps.c.seq)).scalars())
            if known is not None and seqs == known.seqs:
                read = known
            elif known is not None and known.seqs and seqs[:len(known.seqs)] == known.seqs:
                seqs_new, records = _read_steps(conn, thread_id, after=known.seqs[-1])
                read = _ReadSteps(known.seqs + seqs_new, known.records + records)
            else:
                read = _ReadSteps(*_read_steps(conn, thread_id))
        with self._read_lock:
            self._read[thread_id] = read
            self._read.move_to_end(thread_id)
            while len(self._read) > STEP_CACHE_THREADS:
                self._read.popitem(last=False)
        return list(read.records)

    def dispose(self) -> None:
        self.engine.dispose()


def _read_steps(conn, thread_id: str, after: int | None = None) -> tuple[tuple[int, ...], tuple[StepRecord, ...]]:
    """A thread's step rows (those after row id `after`, if given) with their tasks, as records."""
    query = select(steps).where(steps.c.thread_id == thread_id).order_by(steps.c.seq)
    if after is not None:
        query = query.where(steps.c.seq > after)
    step_rows = conn.execute(query).mappings().all()
    if not step_rows:
        return (), ()
    task_query = select(tasks).where(tasks.c.thread_id == thread_id).order_by(tasks.c.id)
    if after is not None:
        task_query = task_query.where(tasks.c.step_key.in_([row["step_key"] for row in step_rows]))
    by_step: dict[str, list[TaskRecord]] = {}
    for row in conn.execute(task_query).mappings():
        by_step.setdefault(row["step_key"], []).append(TaskRecord(
            task_id=row["task_id"], node=row["node"], started_at=row["started_at"],
            duration_ms=row["duration_ms"], status=row["status"], update=row["update"], error=row["error"],
            namespace=row["namespace"], model_calls=list(row["model_calls"] or [])))
    records = tuple(StepRecord(
        step_key=row["step_key"], thread_id=row["thread_id"], step=row["step"], status=row["status"],
        started_at=row["started_at"], duration_ms=row["duration_ms"],
        parent_checkpoint_id=row["parent_checkpoint_id"], checkpoint_id=row["checkpoint_id"],
        changes=dict(row["changes"] or {}), tasks=by_step.get(row["step_key"], []), error=row["error"],
        counters=dict(row["counters"] or {}))
        for row in step_rows)
    return tuple(row["seq"] for row in step_rows), records
