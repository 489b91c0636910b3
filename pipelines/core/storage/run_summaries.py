"""One row per thread for the Runs page: the thread, its step count, duration and last error, in one query."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.engine import Engine

from pipelines.core.storage.run_tables import ThreadInfo, steps, threads


@dataclass
class ThreadSummary(ThreadInfo):
    steps: int = 0  # completed steps, every branch, the input included
    first_started_at: float | None = None
    duration_ms: float | None = None  # first step's start to the last step's end; None before any step
    last_error: str | None = None  # the error of the latest step that failed, if any did


def _contains(column, text: str):
    # autoescape: a user's % or _ is matched literally, not as a LIKE wildcard.
    return func.lower(column).contains(text.lower(), autoescape=True)


def summarize_threads(engine: Engine, pipeline: str | None = None, *, status: str | None = None,
                      search: str | None = None, limit: int = 500) -> list[ThreadSummary]:
    """Threads newest first (by start), optionally of one pipeline, in one status, or whose title or
    thread id contains `search`; the step figures come from one grouped subquery, not a query per thread."""
    per_thread = (
        select(steps.c.thread_id,
               func.count(case((steps.c.status == "completed", 1))).label("completed_steps"),
               func.min(steps.c.started_at).label("first_started_at"),
               func.max(steps.c.started_at + steps.c.duration_ms / 1000.0).label("last_ended_at"),
               func.max(case((steps.c.error.is_not(None), steps.c.seq))).label("last_error_seq"))
        .group_by(steps.c.thread_id).subquery())
    failed_step = steps.alias("failed_step")
    query = (select(threads, per_thread.c.completed_steps, per_thread.c.first_started_at,
                    per_thread.c.last_ended_at, failed_step.c.error.label("last_error"))
             .select_from(threads
                          .outerjoin(per_thread, per_thread.c.thread_id == threads.c.thread_id)
                          .outerjoin(failed_step, failed_step.c.seq == per_thread.c.last_error_seq))
             .order_by(threads.c.created_at.desc(), threads.c.thread_id).limit(limit))
    conditions = []
    if pipeline:
        conditions.append(threads.c.pipeline == pipeline)
    if status:
        conditions.append(threads.c.status == status)
    if search and search.strip():
        needle = search.strip()
        conditions.append(or_(_contains(threads.c.title, needle), _contains(threads.c.thread_id, needle)))
    if conditions:
        query = query.where(and_(*conditions))
    with engine.connect() as conn:
        rows = conn.execute(query).mappings().all()
    summaries = []
    for row in rows:
        info = {name: row[name] for name in ThreadInfo.__dataclass_fields__}
        first, last = row["first_started_at"], row["last_ended_at"]
        summaries.append(ThreadSummary(
            **info, steps=int(row["completed_steps"] or 0), first_started_at=first,
            duration_ms=(float(last) - float(first)) * 1000 if first is not None and last is not None else None,
            last_error=row["last_error"]))
    return summaries
