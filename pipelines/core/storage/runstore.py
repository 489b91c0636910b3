"""Threads and step records in SQL (SQLite by default), next to the LangGraph checkpoints."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import (JSON, Column, Double, Integer, MetaData, String, Table, Text, bindparam, create_engine,
                        delete, event, insert, inspect, select, text, update)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from pipelines.core.jsonable import to_jsonable
from pipelines.core.errors import InvalidInput
from pipelines.core.storage.sqlerrors import sql_errors_as
from pipelines.core.storage.sqlite_wal import on_connect
from pipelines.core.trace.records import StepRecord, TaskRecord

if TYPE_CHECKING:
    from pipelines.core.storage.run_summaries import ThreadSummary


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


metadata = MetaData()

threads = Table(
    "stepwise_threads", metadata,
    Column("thread_id", String(64), primary_key=True),
    Column("pipeline", String(64), nullable=False, index=True),
    Column("scenario", String(128)),
    Column("title", String(256)),
    Column("provider", String(128)),
    Column("status", String(32), nullable=False, default="new"),
    Column("cursor_checkpoint_id", String(64)),
    Column("input", JSON),  # the raw input the run started from, so it can be reset or repeated
    Column("created_at", Double, nullable=False),
    Column("updated_at", Double, nullable=False),
)

steps = Table(
    "stepwise_steps", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("step_key", String(64), nullable=False, unique=True),
    Column("thread_id", String(64), nullable=False, index=True),
    Column("step", Integer, nullable=False),
    Column("status", String(32), nullable=False),
    Column("started_at", Double, nullable=False),
    Column("duration_ms", Double, nullable=False),
    Column("parent_checkpoint_id", String(64)),
    Column("checkpoint_id", String(64), index=True),
    Column("changes", JSON, nullable=False),
    Column("counters", JSON, nullable=False),
    Column("error", Text),
)

tasks = Table(
    "stepwise_tasks", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("step_key", String(64), nullable=False, index=True),
    Column("thread_id", String(64), nullable=False, index=True),
    Column("task_id", String(64), nullable=False),
    Column("node", String(128), nullable=False),
    Column("namespace", String(256), nullable=False, default=""),
    Column("status", String(32), nullable=False),
    Column("started_at", Double, nullable=False),
    Column("duration_ms", Double, nullable=False),
    Column("model_calls", JSON, nullable=False),
    Column("calls", Integer, nullable=False, default=0),
    Column("input_tokens", Integer, nullable=False, default=0),
    Column("output_tokens", Integer, nullable=False, default=0),
    Column("update", JSON),
    Column("error", Text),
)


def _dumps(value: Any) -> str:
    """JSON for the JSON columns: task updates go in as the graph wrote them; only objects JSON does not
    know (messages, pydantic models, dates) are converted, by the default hook."""
    return json.dumps(value, ensure_ascii=False, default=to_jsonable)


_INSERT_STEP = insert(steps)
_INSERT_TASK = insert(tasks)
_UPDATE_THREAD = (update(threads).where(threads.c.thread_id == bindparam("tid"))
                  .values(status=bindparam("status"), updated_at=bindparam("updated_at")))


@dataclass
class ThreadInfo:
    thread_id: str
    pipeline: str
    scenario: str | None
    title: str | None
    provider: str | None
    status: str
    cursor_checkpoint_id: str | None
    input: dict[str, Any] | None
    created_at: float
    updated_at: float


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

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            if url.startswith("sqlite:///"):
                Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
            if url in ("sqlite://", "sqlite:///:memory:"):
                # One shared connection, or each thread would see its own empty in-memory database.
                self.engine: Engine = create_engine(url, poolclass=StaticPool, json_serializer=_dumps,
                                                    connect_args={"check_same_thread": False})
            else:
                self.engine = create_engine(url, pool_pre_ping=True, json_serializer=_dumps)
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", on_connect)
            try:
                metadata.create_all(self.engine)
            except SQLAlchemyError:
                # Worker processes starting together race to create the tables: the loser checks again.
                metadata.create_all(self.engine)
            if self.engine.dialect.name in ("mysql", "mariadb"):
                _widen_mysql_floats(self.engine)
        except (SQLAlchemyError, OSError) as exc:
            raise RunStoreError(f"cannot open the run database {self.engine_label(url)}: {exc}") from exc

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
        from pipelines.core.storage.run_summaries import summarize_threads

        return summarize_threads(self, pipeline, status=status, search=search, limit=limit)

    @_guarded
    def update_thread(self, thread_id: str, **values: Any) -> None:
        """Update a thread's columns; a new `title` is validated first (InvalidInput), so nothing is lost."""
        if "title" in values:
            values["title"] = clean_title(values["title"])
        values["updated_at"] = time.time()
        with self.engine.begin() as conn:
            conn.execute(update(threads).where(threads.c.thread_id == thread_id).values(**values))

    @_guarded
    def delete_thread(self, thread_id: str) -> None:
        with self.engine.begin() as conn:
            for table in (tasks, steps, threads):
                conn.execute(delete(table).where(table.c.thread_id == thread_id))

    # step records ------------------------------------------------------------------------------
    @_guarded
    def save_step(self, record: StepRecord, thread_updates: dict[str, Any] | None = None) -> None:
        """Store a step and its tasks, and update its thread, in one transaction (on every step: the
        statements are built once and only their parameters change)."""
        with self.engine.begin() as conn:
            if thread_updates:
                conn.execute(_UPDATE_THREAD, {"tid": record.thread_id, "status": thread_updates.get("status"),
                                              "updated_at": time.time()})
                if "cursor_checkpoint_id" in thread_updates:
                    conn.execute(update(threads).where(threads.c.thread_id == record.thread_id)
                                 .values(cursor_checkpoint_id=thread_updates["cursor_checkpoint_id"]))
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
        """Every step record of a thread, all branches, in the order they ran."""
        with self.engine.connect() as conn:
            step_rows = conn.execute(
                select(steps).where(steps.c.thread_id == thread_id).order_by(steps.c.seq)).mappings().all()
            task_rows = conn.execute(
                select(tasks).where(tasks.c.thread_id == thread_id).order_by(tasks.c.id)).mappings().all()
        by_step: dict[str, list[TaskRecord]] = {}
        for row in task_rows:
            by_step.setdefault(row["step_key"], []).append(TaskRecord(
                task_id=row["task_id"], node=row["node"], started_at=row["started_at"],
                duration_ms=row["duration_ms"], status=row["status"], update=row["update"], error=row["error"],
                namespace=row["namespace"], model_calls=list(row["model_calls"] or [])))
        return [StepRecord(
            step_key=row["step_key"], thread_id=row["thread_id"], step=row["step"], status=row["status"],
            started_at=row["started_at"], duration_ms=row["duration_ms"],
            parent_checkpoint_id=row["parent_checkpoint_id"], checkpoint_id=row["checkpoint_id"],
            changes=dict(row["changes"] or {}), tasks=by_step.get(row["step_key"], []), error=row["error"],
            counters=dict(row["counters"] or {}))
            for row in step_rows]

    def dispose(self) -> None:
        self.engine.dispose()
