"""Two runs side by side: the final-state diff, both evolution matrices, counters, per-node timings and usage."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import streamlit as st

from dashboard import services
from dashboard.studio.chart_layout import side_by_side
from dashboard.studio.evolution import render_evolution
from dashboard.studio.metrics_charts import empty_figure
from dashboard.studio.run_table import format_duration, run_label, workflow_title
from pipelines.core.markup import escape_markdown
from pipelines.core.trace.compare import FIELD_KIND_LABELS, RunComparison, RunSide, compare_runs
from pipelines.core.errors import InvalidInput
from pipelines.core.registry import get_spec
from pipelines.core.storage.run_summaries import ThreadSummary
from pipelines.core.trace.records import evolution_matrix

KIND_COLOURS = {"only in A": "#fde68a", "only in B": "#fbcfe8", "same": "#f1f5f9", "different": "#bfdbfe"}
RUN_COLOURS = {"A": "#2563eb", "B": "#f97316"}
NODE_COLUMNS = ["node", "run", "runs", "mean_ms", "total_ms", "calls", "input_tokens", "output_tokens"]


# frames -----------------------------------------------------------------------------------------
def diff_frame(comparison: RunComparison) -> pd.DataFrame:
    """One row per state field: its kind (only in A / only in B / same / different) and both previews."""
    rows = [{"field": f.field, "kind": FIELD_KIND_LABELS[f.kind], "A": f.a if f.a is not None else "—",
             "B": f.b if f.b is not None else "—"} for f in comparison.fields]
    return pd.DataFrame(rows, columns=["field", "kind", "A", "B"])


def styled_diff(frame: pd.DataFrame):
    return frame.style.apply(
        lambda row: [f"background-color: {KIND_COLOURS.get(row['kind'], '#ffffff')}"] * len(row), axis=1)


def counters_frame(comparison: RunComparison) -> pd.DataFrame:
    def shown(value, limit) -> str:
        return "—" if value is None else f"{value} / {limit if limit is not None else '∞'}"

    rows = [{"counter": c.field, "label": c.label, "A (value / limit)": shown(c.a_value, c.a_limit),
             "B (value / limit)": shown(c.b_value, c.b_limit)} for c in comparison.counters]
    return pd.DataFrame(rows, columns=["counter", "label", "A (value / limit)", "B (value / limit)"])


def nodes_frame(comparison: RunComparison) -> pd.DataFrame:
    """Long format, one row per (node, run): for grouped charts."""
    rows = [{"node": n.node, "run": n.run, "runs": n.runs, "mean_ms": round(n.mean_ms, 2),
             "total_ms": round(n.total_ms, 2), "calls": n.calls, "input_tokens": n.input_tokens,
             "output_tokens": n.output_tokens} for n in comparison.nodes]
    return pd.DataFrame(rows, columns=NODE_COLUMNS)


NODE_MEASURES = {"runs": "runs", "mean_ms": "mean ms", "total_ms": "total ms", "calls": "calls",
                 "input_tokens": "tokens in", "output_tokens": "tokens out"}


def nodes_table(df: pd.DataFrame) -> pd.DataFrame:
    """Wide format, one row per node, A's and B's figures side by side. A node one run never reached ran 0
    times for 0 ms with 0 calls there; only its mean stays empty."""
    if df.empty:
        return df
    wide = df.pivot(index="node", columns="run", values=list(NODE_MEASURES))
    for measure, run in wide.columns:
        if measure != "mean_ms":
            wide[(measure, run)] = wide[(measure, run)].fillna(0).astype(float if measure == "total_ms" else int)
    wide.columns = [f"{run} {NODE_MEASURES[measure]}" for measure, run in wide.columns]
    order = [f"{run} {label}" for run in ("A", "B") for label in NODE_MEASURES.values() if f"{run} {label}" in wide]
    return wide[order].reindex(list(dict.fromkeys(df["node"]))).reset_index()


# figures ----------------------------------------------------------------------------------------
def make_node_timing_figure(df: pd.DataFrame) -> go.Figure:
    """Total time per node, A's and B's bars side by side; the hover gives runs and the mean."""
    if df.empty:
        return empty_figure("Neither run has executed a node yet")
    figure = px.bar(df, x="node", y="total_ms", color="run", barmode="group", color_discrete_map=RUN_COLOURS,
                    hover_data=["runs", "mean_ms"], category_orders={"run": ["A", "B"]},
                    labels={"total_ms": "total time (ms)", "node": "", "mean_ms": "mean (ms)"})
    figure.update_layout(height=340, margin={"l": 10, "r": 10, "t": 10}, legend_title="run")
    return figure


def make_node_usage_figure(df: pd.DataFrame) -> go.Figure:
    """Model calls and tokens per node for A and B; a measure that is zero throughout (tokens, with the offline
    engine) is left out rather than drawn as an empty panel."""
    measures = [m for m in ("calls", "input_tokens", "output_tokens") if not df.empty and df[m].any()]
    if not measures:
        return empty_figure("Neither run called a model")
    long = df.melt(id_vars=["node", "run"], value_vars=measures, var_name="measure", value_name="count")
    figure = px.bar(long, x="node", y="count", color="run", barmode="group", facet_row="measure",
                    color_discrete_map=RUN_COLOURS, category_orders={"run": ["A", "B"], "measure": measures},
                    labels={"node": ""})
    figure.update_yaxes(matches=None, title="")
    figure.for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
    figure.update_layout(height=160 + 180 * len(measures), margin={"l": 10, "r": 10, "t": 20}, legend_title="run")
    return figure


# rendering --------------------------------------------------------------------------------------
def _pick(label: str, summaries: Sequence[ThreadSummary], key: str, index: int) -> ThreadSummary:
    by_id = {s.thread_id: s for s in summaries}
    if st.session_state.get(key) not in by_id:
        st.session_state.pop(key, None)  # a deleted run: fall back to the default instead of a stale id
    chosen = st.selectbox(label, list(by_id), index=index, key=key, format_func=lambda t: run_label(by_id[t]))
    return by_id.get(chosen, summaries[index])


def _side(summary: ThreadSummary) -> RunSide | None:
    try:
        session = services.open_session(get_spec(summary.pipeline), summary.thread_id)
    except InvalidInput as exc:
        st.error(escape_markdown(f"Run {summary.thread_id[:8]} cannot be opened: {exc}."))
        return None
    return RunSide.from_session(session)


def _default_a(summaries: Sequence[ThreadSummary]) -> int:
    """The newest run that has an older run of its own workflow to compare with (else the newest)."""
    runs_per_workflow = Counter(s.pipeline for s in summaries)
    return next((i for i, s in enumerate(summaries) if runs_per_workflow[s.pipeline] > 1), 0)


def render_run_compare(summaries: Sequence[ThreadSummary]) -> None:
    if len(summaries) < 2:
        st.info("Comparing needs two runs; start another one on a workflow page.")
        return
    left, right = st.columns(2)
    with left:
        first = _pick("Run A", summaries, "runs_compare_a", _default_a(summaries))
    # B starts as the next run of A's workflow: the comparison people want first.
    same = [i for i, s in enumerate(summaries) if s.pipeline == first.pipeline and s.thread_id != first.thread_id]
    with right:
        second = _pick("Run B", summaries, "runs_compare_b", same[0] if same else int(first is summaries[0]))
    if first.thread_id == second.thread_id:
        st.warning("Run A and run B are the same run: pick two different runs.")
        return
    a, b = _side(first), _side(second)
    if a is None or b is None:
        return
    comparison = compare_runs(a, b)
    _render_headers(comparison, (first, second))
    _render_state_diff(comparison)
    st.subheader("Field evolution")
    for column, side, name in zip(st.columns(2), (a, b), "AB"):
        with column:
            st.markdown(f"**{name}** · {escape_markdown(side.thread.title or side.thread.thread_id[:8])}")
            render_evolution(evolution_matrix(side.records, side.field_order), key=f"runs_compare_evolution_{name}")
    st.subheader("Counters")
    counters = counters_frame(comparison)
    if counters.empty:
        st.caption("Neither workflow counts loops.")
    else:
        st.dataframe(counters, hide_index=True, width="stretch")
    _render_nodes(comparison)


def _render_headers(comparison: RunComparison, summaries: tuple[ThreadSummary, ThreadSummary]) -> None:
    for column, summary, name in zip(st.columns(2), summaries, "AB"):
        with column.container(border=True):
            title = escape_markdown(summary.title or summary.thread_id[:8])
            st.markdown(f"**{name} · {title}** — {workflow_title(summary.pipeline)}")
            st.caption(f"{summary.status} · {summary.steps} step(s) · {format_duration(summary.duration_ms)} · "
                       f"{escape_markdown(summary.provider or 'provider unknown')} · thread `{summary.thread_id}`")
    if not comparison.same_workflow:
        st.info("These runs belong to different workflows: most fields are only in one of them.")


def _render_state_diff(comparison: RunComparison) -> None:
    st.subheader("Final state")
    counts = {label: comparison.count(kind) for kind, label in FIELD_KIND_LABELS.items()}
    st.markdown(" · ".join(f"**{n}** {label}" for label, n in counts.items()))
    frame = diff_frame(comparison)
    if st.toggle("Only fields that differ", key="runs_compare_only_diff"):
        frame = frame[frame["kind"] != "same"]
    st.dataframe(styled_diff(frame), hide_index=True, width="stretch", height=min(36 * (len(frame) + 1) + 4, 640),
                 column_config={"field": st.column_config.TextColumn("field", width=170),
                                "kind": st.column_config.TextColumn("kind", width=90),
                                "A": st.column_config.TextColumn("A", width=360),
                                "B": st.column_config.TextColumn("B", width=360)})


def _render_nodes(comparison: RunComparison) -> None:
    st.subheader("Per-node timings and model usage")
    df = nodes_frame(comparison)
    table = nodes_table(df)
    # A node one run never reached has no mean time: a dash, not "None".
    st.dataframe(table.style.format(na_rep="—", precision=2), hide_index=True, width="stretch",
                 height=min(35 * (len(table) + 1) + 3, 640))
    side_by_side(("**Total time per node**", make_node_timing_figure(df), "runs_compare_timing"),
                 ("**Model calls and tokens per node**", make_node_usage_figure(df), "runs_compare_usage"))
