"""Metrics of a run as data frames and pure `make_*_figure(df)` plotly functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from pipelines.core.trace.records import StepRecord

TASK_COLUMNS = ["step", "node", "task_id", "status", "start", "end", "duration_ms", "calls", "input_tokens",
                "output_tokens", "providers"]


def task_frame(records: Sequence[StepRecord]) -> pd.DataFrame:
    """One row per executed task of the given steps."""
    rows = [{"step": record.step, "node": task.node, "task_id": task.task_id, "status": task.status,
             "start": task.started_at, "end": max(task.duration_ms, 0.5), "duration_ms": round(task.duration_ms, 3),
             "calls": len(task.model_calls), "input_tokens": task.input_tokens, "output_tokens": task.output_tokens,
             "providers": ", ".join(sorted({c.get("provider", "?") for c in task.model_calls}))}
            for record in records for task in record.tasks if task.node != "__input__"]
    frame = pd.DataFrame(rows, columns=TASK_COLUMNS)
    # Times converted once per column, not once per task: a long run has hundreds of tasks.
    frame["start"] = pd.to_datetime(frame["start"].astype(float), unit="s")
    frame["end"] = frame["start"] + pd.to_timedelta(frame["end"].astype(float), unit="ms")
    return frame


def counter_frame(records: Sequence[StepRecord], limits: Mapping[str, Any]) -> pd.DataFrame:
    """Counter values after each completed step, with their limits."""
    rows = [{"step": r.step, "label": r.label, "counter": name, "value": value, "limit": limits.get(name)}
            for r in records if r.status == "completed" for name, value in r.counters.items()]
    return pd.DataFrame(rows, columns=["step", "label", "counter", "value", "limit"])


def empty_figure(message: str) -> go.Figure:
    figure = go.Figure()
    figure.add_annotation(text=message, showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper")
    figure.update_layout(height=220, xaxis_visible=False, yaxis_visible=False)
    return figure


def make_latency_figure(df: pd.DataFrame) -> go.Figure:
    """Time per node: every run of the node as a point, its mean as a bar."""
    if df.empty:
        return empty_figure("No node has run yet")
    summary = df.groupby("node", as_index=False).agg(mean_ms=("duration_ms", "mean"), runs=("duration_ms", "size"))
    figure = px.bar(summary.sort_values("mean_ms"), x="mean_ms", y="node", orientation="h", text="runs",
                    labels={"mean_ms": "mean duration (ms)", "node": "", "runs": "runs"})
    figure.update_traces(texttemplate="%{text}×", textposition="outside", marker_color="#60a5fa")
    figure.add_scatter(x=df["duration_ms"], y=df["node"], mode="markers", name="each run",
                       marker={"color": "#1e3a8a", "size": 6, "opacity": 0.6})
    figure.update_layout(height=max(240, 34 * len(summary) + 80), showlegend=False, margin={"l": 10, "r": 30, "t": 10})
    return figure


STATUS_COLOURS = {"completed": "#22c55e", "interrupted": "#f97316", "failed": "#ef4444"}


def collapse_waits(df: pd.DataFrame) -> tuple[pd.DataFrame, list[tuple[float, float]]]:
    """The tasks on an axis of working time: each stretch where no task ran (the user reading, answering or
    away) shrinks to a short gap, so millisecond tasks are not lost on an axis of minutes. Returns the tasks
    with `x0`/`width` in ms on that axis and, for each collapsed wait, (its position, how long it really was)."""
    data = df.sort_values("start").reset_index(drop=True)
    start = (data["start"] - data["start"].min()).dt.total_seconds() * 1000
    end = start + (data["end"] - data["start"]).dt.total_seconds() * 1000
    busy = float((end - start).sum()) or 1.0
    shown_gap = max(busy * 0.04, 0.5)
    x0, waits, removed, reach = [], [], 0.0, None
    for task_start, task_end in zip(start, end):
        if reach is not None and task_start - reach > shown_gap:
            waits.append((reach - removed + shown_gap / 2, task_start - reach))
            removed += task_start - reach - shown_gap
        x0.append(task_start - removed)
        reach = task_end if reach is None else max(reach, task_end)
    axis = max(x + w for x, w in zip(x0, end - start))
    # A task of a few ms stays visible next to one of seconds.
    return data.assign(x0=x0, width=(end - start).clip(lower=axis * 0.004)), waits


def _wait_text(ms: float) -> str:
    seconds = ms / 1000
    return f"{seconds:.1f} s" if seconds < 60 else f"{int(seconds // 60)} min {int(seconds % 60)} s"


def make_timeline_figure(df: pd.DataFrame) -> go.Figure:
    """Gantt of the tasks: each node on its own row, so parallel tasks of one step sit side by side in time;
    waits between steps are collapsed and marked with how long they were."""
    if df.empty:
        return empty_figure("No node has run yet")
    data, waits = collapse_waits(df)
    figure = go.Figure()
    for status, rows in data.groupby("status", sort=False):
        figure.add_trace(go.Bar(
            x=rows["width"], base=rows["x0"], y=rows["node"], orientation="h", name=status,
            marker_color=STATUS_COLOURS.get(status, "#94a3b8"), customdata=rows[["step", "duration_ms"]],
            hovertemplate="%{y} · step %{customdata[0]} · %{customdata[1]:.1f} ms<extra></extra>"))
    for position, waited in waits:
        figure.add_vline(x=position, line_dash="dot", line_color="#94a3b8")
        if waited >= 1000:
            figure.add_annotation(x=position, y=1, yref="paper", text=f"waited {_wait_text(waited)}",
                                  showarrow=False, textangle=-90, font={"size": 9, "color": "#64748b"},
                                  xanchor="left", yanchor="top")
    figure.update_yaxes(autorange="reversed", title="", categoryorder="array",
                        categoryarray=list(dict.fromkeys(data["node"])))
    figure.update_xaxes(title="working time (ms) · dotted lines: waits between steps, collapsed")
    figure.update_layout(height=max(240, 30 * data["node"].nunique() + 120), margin={"l": 10, "r": 10, "t": 10},
                         barmode="overlay", legend_title="")
    return figure


def make_usage_figure(df: pd.DataFrame) -> go.Figure:
    """Model calls and tokens per node (tokens are zero for the offline engine, so calls are always shown)."""
    if df.empty:
        return empty_figure("No model calls yet")
    usage = df.groupby("node", as_index=False)[["calls", "input_tokens", "output_tokens"]].sum()
    long = usage.melt(id_vars="node", var_name="measure", value_name="count")
    figure = px.bar(long, x="node", y="count", color="measure", barmode="group",
                    color_discrete_map={"calls": "#a78bfa", "input_tokens": "#38bdf8", "output_tokens": "#34d399"})
    figure.update_layout(height=300, margin={"l": 10, "r": 10, "t": 10}, xaxis_title="", legend_title="")
    return figure


def make_counter_figure(df: pd.DataFrame) -> go.Figure:
    """Each loop counter over the steps, with its limit as a dashed line."""
    if df.empty:
        return empty_figure("This workflow has no counters yet")
    figure = px.line(df, x="step", y="value", color="counter", markers=True, line_shape="hv")
    limits = df.dropna(subset=["limit"]).groupby("limit")["counter"].unique()
    for limit, counters in limits.items():  # one line per limit, naming every counter it bounds
        figure.add_hline(y=float(limit), line_dash="dash", line_color="#dc2626",
                         annotation_text=f"limit {int(limit)}: {', '.join(sorted(counters))}")
    figure.update_layout(height=280, margin={"l": 10, "r": 10, "t": 10}, yaxis_title="value")
    return figure
