"""Metrics across runs as pandas frames: runs, node runs and loop counters, read from the run store in a few queries.

Every function takes the run store's engine and a RunFilter (workflows, providers, days of creation in
UTC). The queries use only SQL that SQLite, MariaDB and PostgreSQL share; JSON columns come back parsed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
from sqlalchemy import case, func, not_, select
from sqlalchemy.engine import Engine

from pipelines.core.models.pricing import DEFAULT_PRICES, Price, call_cost
from pipelines.core.spec import Counter
from pipelines.core.errors import InvalidInput
from pipelines.core.registry import get_spec
from pipelines.core.storage.runstore import RunStoreError, steps, tasks, threads
from pipelines.core.storage.sqlerrors import sql_errors_as
from pipelines.core.trace.records import INPUT_NODE, checkpoint_lineage, graph_node_name

THREAD_COLUMNS = ["thread_id", "workflow", "title", "scenario", "provider", "status", "created", "steps",
                  "duration_s", "errors", "iterations", "limits"]
TASK_COLUMNS = ["thread_id", "workflow", "provider", "node", "step", "status", "start", "end", "duration_ms", "calls",
                "input_tokens", "output_tokens", "model", "cost_usd", "unpriced_calls"]
ITERATION_COLUMNS = ["thread_id", "workflow", "counter", "label", "value", "limit"]

_guarded = sql_errors_as(RunStoreError, lambda engine: f"reading run metrics from "
                                                       f"{engine.url.render_as_string(hide_password=True)}")


@dataclass(frozen=True)
class RunFilter:
    """Which runs to count; an empty tuple or None means no restriction."""

    workflows: tuple[str, ...] = ()
    providers: tuple[str, ...] = ()
    first_day: dt.date | None = None  # days of the thread's creation, UTC, both inclusive
    last_day: dt.date | None = None

    def clauses(self) -> list[Any]:
        clauses = []
        if self.workflows:
            clauses.append(threads.c.pipeline.in_(list(self.workflows)))
        if self.providers:
            clauses.append(threads.c.provider.in_(list(self.providers)))
        if self.first_day:
            clauses.append(threads.c.created_at >= _epoch(self.first_day))
        if self.last_day:
            clauses.append(threads.c.created_at < _epoch(self.last_day + dt.timedelta(days=1)))
        return clauses


@dataclass(frozen=True)
class FilterOptions:
    """What the filters can choose from: the workflows and providers that have runs, and their first and last day."""

    workflows: list[str]
    providers: list[str]
    first_day: dt.date | None
    last_day: dt.date | None


@dataclass(frozen=True)
class RunMetrics:
    threads: pd.DataFrame
    tasks: pd.DataFrame
    iterations: pd.DataFrame


def _epoch(day: dt.date) -> float:
    return dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC).timestamp()


def _day(epoch: float | None) -> dt.date | None:
    return None if epoch is None else dt.datetime.fromtimestamp(float(epoch), dt.UTC).date()


@_guarded
def filter_options(engine: Engine) -> FilterOptions:
    query = (select(threads.c.pipeline, threads.c.provider, func.min(threads.c.created_at),
                    func.max(threads.c.created_at)).group_by(threads.c.pipeline, threads.c.provider))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return FilterOptions(workflows=sorted({r[0] for r in rows}), providers=sorted({r[1] for r in rows if r[1]}),
                         first_day=_day(min((r[2] for r in rows), default=None)),
                         last_day=_day(max((r[3] for r in rows), default=None)))


def _counters(pipeline: str) -> tuple[Counter, ...]:
    try:
        return get_spec(pipeline).counters
    except InvalidInput:  # a workflow this version no longer knows: its counters keep their field names
        return ()


def _limits(pipeline: str, raw_input: Mapping[str, Any] | None) -> dict[str, int | None]:
    """Each counter's limit: read from the run's input when the workflow takes it from there, else the default."""
    return {c.field: c.limit_for(raw_input if isinstance(raw_input, Mapping) else {}) for c in _counters(pipeline)}


@_guarded
def thread_frame(engine: Engine, run_filter: RunFilter = RunFilter()) -> pd.DataFrame:
    """One row per run: its steps (substeps inside a subgraph included), the time they took, its failed
    steps, and the highest value each loop counter reached (a dict, `iterations`) with their limits (`limits`)."""
    clauses = run_filter.clauses()
    totals = (select(steps.c.thread_id,
                     func.sum(case((steps.c.status.in_(["completed", "substep"]), 1), else_=0)).label("steps"),
                     func.sum(case((steps.c.status == "failed", 1), else_=0)).label("errors"),
                     func.sum(steps.c.duration_ms).label("work_ms"))
              .join(threads, threads.c.thread_id == steps.c.thread_id).where(*clauses)
              .group_by(steps.c.thread_id).subquery())
    runs = (select(threads.c.thread_id, threads.c.pipeline, threads.c.title, threads.c.scenario, threads.c.provider,
                   threads.c.status, threads.c.created_at, threads.c.input, totals.c.steps, totals.c.errors,
                   totals.c.work_ms)
            .outerjoin(totals, totals.c.thread_id == threads.c.thread_id).where(*clauses)
            .order_by(threads.c.created_at, threads.c.thread_id))
    counters = (select(steps.c.thread_id, steps.c.counters)
                .join(threads, threads.c.thread_id == steps.c.thread_id)
                .where(*clauses, steps.c.status == "completed"))
    with engine.connect() as conn:
        run_rows = conn.execute(runs).mappings().all()
        highest: dict[str, dict[str, int]] = {}
        for thread_id, values in conn.execute(counters):
            slot = highest.setdefault(thread_id, {})
            for name, value in (values or {}).items():
                slot[name] = max(slot.get(name, 0), int(value or 0))
    rows = [{"thread_id": r["thread_id"], "workflow": r["pipeline"], "title": r["title"] or "",
             "scenario": r["scenario"] or "", "provider": r["provider"] or "", "status": r["status"],
             "created": pd.to_datetime(float(r["created_at"]), unit="s"), "steps": int(r["steps"] or 0),
             "duration_s": round(float(r["work_ms"] or 0) / 1000, 3), "errors": int(r["errors"] or 0),
             "iterations": highest.get(r["thread_id"], {}), "limits": _limits(r["pipeline"], r["input"])}
            for r in run_rows]
    return pd.DataFrame(rows, columns=THREAD_COLUMNS)


def _usage(model_calls: Sequence[Mapping[str, Any]], prices: Mapping[str, Price]) -> tuple[str, float, int]:
    """The models a task called, its estimated cost (priced calls only) and how many calls had no price."""
    models = sorted({str(c.get("model") or "?") for c in model_calls})
    costs = [call_cost(c, prices) for c in model_calls]
    return ", ".join(models), sum(c for c in costs if c is not None), sum(c is None for c in costs)


@_guarded
def task_frame(engine: Engine, run_filter: RunFilter = RunFilter(),
               prices: Mapping[str, Price] = DEFAULT_PRICES) -> pd.DataFrame:
    """One row per node run. `cost_usd` is None when none of the task's calls has a price; otherwise the sum
    of the priced ones, with `unpriced_calls` saying how many were left out."""
    query = (select(tasks.c.thread_id, threads.c.pipeline, threads.c.provider, tasks.c.node, tasks.c.namespace,
                    steps.c.step, tasks.c.status, tasks.c.started_at, tasks.c.duration_ms, tasks.c.calls,
                    tasks.c.input_tokens, tasks.c.output_tokens, tasks.c.model_calls)
             .join(threads, threads.c.thread_id == tasks.c.thread_id)
             .join(steps, steps.c.step_key == tasks.c.step_key)
             .where(*run_filter.clauses(), tasks.c.node != INPUT_NODE, not_(tasks.c.node.startswith("edit:")))
             .order_by(tasks.c.id))
    with engine.connect() as conn:
        result = conn.execute(query).mappings().all()
    rows = []
    for r in result:
        calls = list(r["model_calls"] or [])
        model, cost, unpriced = _usage(calls, prices)
        node = graph_node_name(r["node"], r["namespace"] or "")
        start = pd.to_datetime(float(r["started_at"]), unit="s")
        duration = float(r["duration_ms"])
        rows.append({"thread_id": r["thread_id"], "workflow": r["pipeline"], "provider": r["provider"] or "",
                     "node": node, "step": int(r["step"]), "status": r["status"], "start": start,
                     "end": start + pd.to_timedelta(max(duration, 0.5), unit="ms"), "duration_ms": round(duration, 3),
                     "calls": int(r["calls"]), "input_tokens": int(r["input_tokens"]),
                     "output_tokens": int(r["output_tokens"]), "model": model,
                     "cost_usd": None if calls and unpriced == len(calls) else cost, "unpriced_calls": unpriced})
    return pd.DataFrame(rows, columns=TASK_COLUMNS)


def iteration_frame(threads_df: pd.DataFrame) -> pd.DataFrame:
    """One row per run and loop counter: the highest value it reached, its label and its limit."""
    rows = []
    for run in threads_df.itertuples(index=False):
        labels = {c.field: c.label for c in _counters(run.workflow)}
        for name, value in run.iterations.items():
            rows.append({"thread_id": run.thread_id, "workflow": run.workflow, "counter": name,
                         "label": labels.get(name, name), "value": value, "limit": run.limits.get(name)})
    return pd.DataFrame(rows, columns=ITERATION_COLUMNS)


def load_run_metrics(engine: Engine, run_filter: RunFilter = RunFilter(),
                     prices: Mapping[str, Price] = DEFAULT_PRICES) -> RunMetrics:
    runs = thread_frame(engine, run_filter)
    return RunMetrics(threads=runs, tasks=task_frame(engine, run_filter, prices), iterations=iteration_frame(runs))


@_guarded
def task_updates(engine: Engine, run_filter: RunFilter, workflow: str, nodes: Sequence[str]) -> list[dict[str, Any]]:
    """The updates that completed runs of `nodes` wrote on each run's current branch, in the order they ran:
    for workflow-specific metrics carried by the state (such as CareerNavigator's satisfaction). Steps left
    on an abandoned branch (before a rewind or a fork) are not counted."""
    query = (select(tasks.c.thread_id, threads.c.title, tasks.c.node, tasks.c.update, steps.c.checkpoint_id)
             .join(threads, threads.c.thread_id == tasks.c.thread_id)
             .join(steps, steps.c.step_key == tasks.c.step_key)
             .where(*run_filter.clauses(), threads.c.pipeline == workflow, tasks.c.node.in_(list(nodes)),
                    tasks.c.status == "completed", steps.c.status == "completed")
             .order_by(tasks.c.id))
    with engine.connect() as conn:
        rows = [dict(row) for row in conn.execute(query).mappings()]
        lineage = _current_branches(conn, {row["thread_id"] for row in rows})
    return [{k: v for k, v in row.items() if k != "checkpoint_id"} for row in rows
            if row["checkpoint_id"] in lineage.get(row["thread_id"], ())]


def _current_branches(conn, thread_ids: set[str]) -> dict[str, set[str | None]]:
    """Each thread's checkpoints on the branch it stands on: back from its cursor (after a rewind) or from its
    latest completed step, through the checkpoint each step started from."""
    if not thread_ids:
        return {}
    query = (select(steps.c.thread_id, steps.c.checkpoint_id, steps.c.parent_checkpoint_id,
                    threads.c.cursor_checkpoint_id)
             .join(threads, threads.c.thread_id == steps.c.thread_id)
             .where(steps.c.thread_id.in_(sorted(thread_ids)), steps.c.status == "completed",
                    steps.c.checkpoint_id.is_not(None))
             .order_by(steps.c.seq))
    parents: dict[str, dict[str, str | None]] = {}
    heads: dict[str, str] = {}
    for row in conn.execute(query).mappings():
        parents.setdefault(row["thread_id"], {})[row["checkpoint_id"]] = row["parent_checkpoint_id"]
        heads[row["thread_id"]] = row["cursor_checkpoint_id"] or row["checkpoint_id"]
    return {thread_id: checkpoint_lineage(parents[thread_id], head) for thread_id, head in heads.items()}
