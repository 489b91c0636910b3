"""Metrics across runs as pure `make_*_figure(df)` plotly charts: latency, usage, cost, loops, outcomes."""

from __future__ import annotations

import math

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from dashboard.studio.metrics_charts import empty_figure, make_timeline_figure

STATUS_COLORS = {"completed": "#22c55e", "waiting": "#f97316", "ready": "#60a5fa", "new": "#cbd5e1",
                 "failed": "#ef4444"}
MARGIN = {"l": 10, "r": 10, "t": 10, "b": 10}


def provider_colors(tasks: pd.DataFrame) -> dict[str, str]:
    """One colour per provider, the same in every chart drawn from the same frame."""
    palette = px.colors.qualitative.Safe
    return {name: palette[i % len(palette)] for i, name in enumerate(sorted(tasks["provider"].unique()))}


def make_latency_distribution_figure(tasks: pd.DataFrame) -> go.Figure:
    """How long each node takes across runs: a box per node, every run a point, coloured by workflow."""
    if tasks.empty:
        return empty_figure("No node has run in the selected runs")
    data = tasks.sort_values(["workflow", "node"])
    figure = px.box(data, x="duration_ms", y="node", color="workflow", points="all", orientation="h",
                    hover_data=["thread_id", "step", "status"],
                    labels={"duration_ms": "duration (ms)", "node": "", "workflow": "workflow"})
    fastest = data["duration_ms"].clip(lower=0.01).min()
    if data["duration_ms"].max() / fastest > 100:  # microsecond offline nodes next to multi-second model calls
        figure.update_xaxes(type="log")
    figure.update_traces(pointpos=0, jitter=0.5, marker_size=5)
    figure.update_yaxes(autorange="reversed")
    figure.update_layout(boxmode="overlay", height=max(260, 26 * data["node"].nunique() + 90), margin=MARGIN)
    return figure


def make_usage_by_provider_figure(tasks: pd.DataFrame) -> go.Figure:
    """Model calls and tokens (input + output) per node, stacked by provider."""
    if tasks.empty or tasks["calls"].sum() == 0:
        return empty_figure("No model calls in the selected runs")
    usage = (tasks.assign(tokens=tasks["input_tokens"] + tasks["output_tokens"])
             .groupby(["node", "provider"], as_index=False)[["calls", "tokens"]].sum())
    usage = usage[usage["calls"] > 0].rename(columns={"calls": "model calls"})
    long = usage.melt(id_vars=["node", "provider"], var_name="measure", value_name="count")
    figure = px.bar(long, x="node", y="count", color="provider", facet_row="measure",
                    color_discrete_map=provider_colors(tasks),
                    category_orders={"measure": ["model calls", "tokens"]}, labels={"node": "", "count": ""})
    figure.for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
    figure.update_yaxes(matches=None)
    figure.update_layout(height=460, margin=MARGIN, legend_title="provider")
    return figure


def make_cost_figure(tasks: pd.DataFrame) -> go.Figure:
    """Estimated USD per node and provider; nodes whose calls have no price are marked "not priced", not drawn as 0."""
    if tasks.empty or tasks["calls"].sum() == 0:
        return empty_figure("No model calls in the selected runs")
    cost = (tasks[tasks["calls"] > 0].groupby(["node", "provider"], as_index=False)
            .agg(cost_usd=("cost_usd", lambda s: s.sum(min_count=1)), unpriced=("unpriced_calls", "sum")))
    priced, unpriced = cost.dropna(subset=["cost_usd"]), cost[cost["unpriced"] > 0]
    if priced["cost_usd"].sum() == 0 and unpriced.empty:
        return empty_figure("Estimated cost: USD 0 (every call ran on the offline engine or a local model)")
    figure = px.bar(priced, x="node", y="cost_usd", color="provider", color_discrete_map=provider_colors(tasks),
                    labels={"cost_usd": "estimated cost (USD)", "node": ""}, hover_data={"cost_usd": ":.6f"})
    if not unpriced.empty:
        figure.add_scatter(x=unpriced["node"], y=[0] * len(unpriced), mode="markers", name="not priced",
                           marker={"symbol": "x", "color": "#475569", "size": 12},
                           customdata=unpriced[["provider", "unpriced"]],
                           hovertemplate="%{x} · %{customdata[0]}: %{customdata[1]} call(s) not priced<extra></extra>")
    # Two significant digits of the largest bar: cents would show every bar of a cheap model as $0.00.
    largest = float(priced["cost_usd"].max()) if not priced.empty else 0.0
    decimals = 2 if largest >= 1 or largest <= 0 else min(8, 1 - math.floor(math.log10(largest)))
    figure.update_layout(height=340, margin=MARGIN, legend_title="provider", yaxis_tickformat=f"$,.{decimals}f")
    return figure


def make_iterations_figure(iterations: pd.DataFrame) -> go.Figure:
    """The highest value each loop counter reached in each run, as a share of its limit (a point per run, labelled
    `value/limit`); the limit is the red line at 100%. Counters without a limit are left out."""
    data = iterations.dropna(subset=["limit"]) if not iterations.empty else iterations
    data = data[data["limit"] > 0] if not data.empty else data
    if data.empty:
        return empty_figure("No loop counters in the selected runs")
    data = data.assign(counter_label=data["workflow"] + " · " + data["label"],
                       share=100 * data["value"] / data["limit"],
                       reached=data["value"].astype(int).astype(str) + "/" + data["limit"].astype(int).astype(str))
    figure = px.strip(data, x="share", y="counter_label", color="workflow", hover_data=["reached", "thread_id"],
                      labels={"share": "highest value in the run, % of its limit", "counter_label": ""})
    figure.add_vline(x=100, line_dash="dash", line_color="#dc2626", annotation_text="limit")
    figure.update_traces(marker={"size": 9, "opacity": 0.7}, selector={"type": "box"})
    figure.update_xaxes(range=[-8, max(112, data["share"].max() + 12)])
    figure.update_layout(height=max(240, 40 * data["counter_label"].nunique() + 90), margin=MARGIN,
                         showlegend=False)  # the row labels already name the workflow
    return figure


def make_outcome_figure(threads: pd.DataFrame) -> go.Figure:
    """Each workflow's runs by status, as shares of its runs (the bar text gives the counts)."""
    if threads.empty:
        return empty_figure("No runs match the filters")
    counts = threads.groupby(["workflow", "status"]).size().reset_index(name="runs")
    counts["share"] = 100 * counts["runs"] / counts.groupby("workflow")["runs"].transform("sum")
    counts["text"] = counts.apply(lambda r: f"{r['runs']} ({r['share']:.0f}%)", axis=1)
    order = [s for s in STATUS_COLORS if s in set(counts["status"])] + \
        sorted(set(counts["status"]) - set(STATUS_COLORS))
    figure = px.bar(counts, x="share", y="workflow", color="status", orientation="h", text="text",
                    color_discrete_map=STATUS_COLORS, category_orders={"status": order},
                    labels={"share": "share of runs (%)", "workflow": ""})
    figure.update_traces(textangle=0, textposition="inside")
    figure.update_layout(height=max(200, 50 * counts["workflow"].nunique() + 100), margin=MARGIN,
                         xaxis_range=[0, 100], uniformtext={"minsize": 10, "mode": "hide"})  # hover tells the rest
    return figure



def gantt_lanes(tasks: pd.DataFrame) -> pd.DataFrame:
    """The tasks with `node` named per row: copies of one node that overlap in time get `node #2`, `node #3`, ..."""
    data = tasks.sort_values(["start", "node"]).reset_index(drop=True)
    lane_ends: dict[str, list[pd.Timestamp]] = {}  # per node, when the last task of each of its rows ends
    names = []
    for node, start, end in zip(data["node"], data["start"], data["end"]):
        ends = lane_ends.setdefault(node, [])
        lane = next((i for i, busy_until in enumerate(ends) if busy_until <= start), len(ends))
        ends[lane:lane + 1] = [end]
        names.append(node if lane == 0 else f"{node} #{lane + 1}")
    return data.assign(node=names)


def make_run_gantt_figure(tasks: pd.DataFrame) -> go.Figure:
    """One run's timeline: a row per node, and a row of its own for each task that ran alongside another copy."""
    return make_timeline_figure(gantt_lanes(tasks) if not tasks.empty else tasks)
