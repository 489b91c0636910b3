"""The Metrics page's widgets: filters, headline numbers, the chart tabs (with each workflow's own), one run's timeline."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pandas as pd
import streamlit as st
from sqlalchemy.engine import Engine

from dashboard.studio.run_metrics_charts import (make_cost_figure, make_iterations_figure,
                                                     make_latency_distribution_figure, make_outcome_figure,
                                                     make_run_gantt_figure,
                                                     make_usage_by_provider_figure)
from pipelines.core.models.pricing import PRICES_AS_OF
from dashboard.studio.chart_layout import side_by_side
from dashboard.studio.plugins import registered_uis
from dashboard.studio.run_table import workflow_title
from pipelines.core.trace.run_metrics import FilterOptions, RunFilter, RunMetrics

TABS = ["Outcomes & loops", "Latency", "Usage & cost", "One run"]



def render_filters(options: FilterOptions) -> RunFilter:
    with st.sidebar:
        st.markdown("**Filter the runs**")
        workflows = st.multiselect("Workflow", options.workflows, key="metrics_workflows", placeholder="all workflows",
                                   format_func=workflow_title)
        providers = st.multiselect("Provider", options.providers, key="metrics_providers", placeholder="all providers")
        today = dt.datetime.now(dt.UTC).date()
        days = st.date_input("Started between (UTC days)", value=(options.first_day or today, today),
                             key="metrics_days", format="YYYY-MM-DD")
    days = tuple(days) if isinstance(days, (tuple, list)) else (days,)
    return RunFilter(workflows=tuple(workflows), providers=tuple(providers), first_day=days[0] if days else None,
                     last_day=days[-1] if days else None)


def _money(value: float) -> str:
    return "$0" if value == 0 else f"${value:,.4f}" if value < 1 else f"${value:,.2f}"


def render_headline(metrics: RunMetrics) -> None:
    runs, tasks = metrics.threads, metrics.tasks
    ended = runs["status"].isin(["completed", "failed"])
    completed = int((runs["status"] == "completed").sum())
    cols = st.columns(6)
    cols[0].metric("Runs", len(runs), help=f"{int((runs['errors'] > 0).sum())} with a failed step")
    cols[1].metric("Success rate", f"{100 * completed / ended.sum():.0f}%" if ended.any() else "—",
                   help=f"completed among the runs that ended (completed or failed); {int((~ended).sum())} "
                        "still open (waiting for an answer, ready or new)")
    cols[2].metric("Node runs", len(tasks), help=f"{int((tasks['status'] == 'failed').sum())} failed")
    cols[3].metric("Model calls", int(tasks["calls"].sum()))
    input_tokens, output_tokens = int(tasks["input_tokens"].sum()), int(tasks["output_tokens"].sum())
    cols[4].metric("Tokens", f"{input_tokens + output_tokens:,}",
                   help=f"input {input_tokens:,} · output {output_tokens:,}")
    unpriced = int(tasks["unpriced_calls"].sum())
    priced_calls = int(tasks["calls"].sum()) - unpriced
    cost = "not priced" if unpriced and not priced_calls else _money(float(tasks["cost_usd"].sum()))
    cols[5].metric("Estimated cost", cost, help=f"list prices as of {PRICES_AS_OF}, an estimate; override them "
                   "with a JSON file named by STEPWISE_PRICING_FILE")
    if unpriced:
        st.caption(f":material/info: {unpriced} model call(s) used a model with no known price: they are left out "
                   "of the estimated cost (add the model to the file named by STEPWISE_PRICING_FILE).")



def _outcomes(metrics: RunMetrics) -> None:
    side_by_side(("**Runs by status**, per workflow", make_outcome_figure(metrics.threads), "metrics_outcomes"),
                 ("**Loop counters**: the highest value each run reached, against the limit",
                  make_iterations_figure(metrics.iterations), "metrics_iterations"))
    table = metrics.threads.assign(workflow=metrics.threads["workflow"].map(workflow_title))
    st.dataframe(table[["created", "workflow", "title", "provider", "status", "steps", "duration_s", "errors",
                        "thread_id"]].sort_values("created", ascending=False),
                 hide_index=True, width="stretch", key="metrics_runs_table",
                 column_config={"created": st.column_config.DatetimeColumn("started (UTC)", format="YYYY-MM-DD HH:mm"),
                                "duration_s": st.column_config.NumberColumn("work (s)", format="%.2f")})


def _usage(metrics: RunMetrics) -> None:
    st.markdown("**Model calls and tokens** per node, by provider")
    st.plotly_chart(make_usage_by_provider_figure(metrics.tasks), key="metrics_usage", width="stretch")
    st.markdown(f"**Estimated cost** per node, by provider (list prices as of {PRICES_AS_OF})")
    st.plotly_chart(make_cost_figure(metrics.tasks), key="metrics_cost", width="stretch")
    called = metrics.tasks[metrics.tasks["calls"] > 0]
    if not called.empty:
        by_model = (called.groupby(["provider", "model"], as_index=False)
                    .agg(node_runs=("node", "size"), calls=("calls", "sum"), input_tokens=("input_tokens", "sum"),
                         output_tokens=("output_tokens", "sum"), cost_usd=("cost_usd", lambda s: s.sum(min_count=1)),
                         unpriced_calls=("unpriced_calls", "sum")))
        by_model["cost_usd"] = by_model["cost_usd"].map(lambda v: "not priced" if pd.isna(v) else f"${v:,.6f}")
        st.dataframe(by_model.rename(columns={"cost_usd": "estimated cost", "node_runs": "node runs",
                                              "input_tokens": "input tokens", "output_tokens": "output tokens",
                                              "unpriced_calls": "calls not priced"}),
                     hide_index=True, width="stretch", key="metrics_usage_table")


def _one_run(metrics: RunMetrics) -> None:
    runs = metrics.threads.sort_values("created", ascending=False)
    labels = {r.thread_id: f"{r.created:%Y-%m-%d %H:%M} · {workflow_title(r.workflow)} · {r.title} · "
                           f"{r.thread_id[:8]}" for r in runs.itertuples()}
    thread_id = st.selectbox("Run", list(labels), format_func=labels.get, key="metrics_gantt_run")
    tasks = metrics.tasks[metrics.tasks["thread_id"] == thread_id]
    st.caption("Each node on its own row; tasks of one node that ran at the same time get a row each. The time "
               "between steps (waiting for an answer, or for the next Step) is collapsed to a dotted line, labelled "
               "with how long it was, so that millisecond tasks stay visible.")
    st.plotly_chart(make_run_gantt_figure(tasks), key="metrics_gantt", width="stretch")




def render_tabs(metrics: RunMetrics, run_filter: RunFilter, engine: Engine) -> None:
    """The runtime's tabs, then each workflow's own (MetricsTab); only the open tab is computed, and the chosen
    tab survives reruns."""
    renderers: dict[str, Callable[[], None]] = {
        "Outcomes & loops": lambda: _outcomes(metrics),
        "Latency": lambda: st.plotly_chart(make_latency_distribution_figure(metrics.tasks), key="metrics_latency",
                                           width="stretch"),
        "Usage & cost": lambda: _usage(metrics), "One run": lambda: _one_run(metrics)}
    for _, ui in registered_uis():
        for tab in ui.metrics_tabs:
            renderers[tab.title] = lambda render=tab.render: render(engine, run_filter)
    tabs = dict(zip(renderers, st.tabs(list(renderers), key="metrics_tab", on_change="rerun")))
    for name, render in renderers.items():
        with tabs[name]:
            if tabs[name].open:
                render()
