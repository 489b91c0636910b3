"""Metrics of a run as data frames and pure `make_*_figure(df)` plotly functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from pipelines.core.trace import StepRecord

TASK_COLUMNS = ["step", "node", "task_id", "status", "start", "end", "duration_ms", "calls", "input_tokens",
                "output_tokens", "providers"]


def task_frame(records: Sequence[StepRecord]) -> pd.DataFrame:
    """One row per executed task of the given steps."""
    rows = []
    for record in records:
        for task in record.tasks:
            if task.node == "__input__":
                continue
            start = pd.to_datetime(task.started_at, unit="s")
            rows.append({"step": record.step, "node": task.node, "task_id": task.task_id, "status": task.status,
                         "start": start, "end": start + pd.to_timedelta(max(task.duration_ms, 0.5), unit="ms"),
                         "duration_ms": round(task.duration_ms, 3), "calls": len(task.model_calls),
                         "input_tokens": task.input_tokens, "output_tokens": task.output_tokens,
                         "providers": ", ".join(sorted({c.get("provider", "?") for c in task.model_calls}))})
    return pd.DataFrame(rows, columns=TASK_COLUMNS)


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


def make_timeline_figure(df: pd.DataFrame) -> go.Figure:
    """Gantt of the tasks: each node on its own row, so parallel tasks of one step sit side by side in time."""
    if df.empty:
        return empty_figure("No node has run yet")
    data = df.assign(label=df["step"].astype(str) + " · " + df["node"])
    figure = px.timeline(data, x_start="start", x_end="end", y="node", color="status", hover_data=["step", "duration_ms"],
                         color_discrete_map={"completed": "#22c55e", "interrupted": "#f97316", "failed": "#ef4444"})
    figure.update_yaxes(autorange="reversed", title="")
    figure.update_layout(height=max(240, 30 * data["node"].nunique() + 100), margin={"l": 10, "r": 10, "t": 10})
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
