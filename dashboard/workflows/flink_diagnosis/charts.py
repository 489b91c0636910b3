"""Diagnosis results as a data frame and pure `make_*_figure(df)` plotly charts: categories, confidence, throughput."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from dashboard.studio.metrics_charts import empty_figure
from pipelines.flink_diagnosis.categories import label
from pipelines.flink_diagnosis.display import shown_confidence, status_label
from pipelines.flink_diagnosis.patterns import headline

RESULT_COLUMNS = ["id", "job_id", "job_name", "status", "category", "category_label", "priority", "confidence",
                  "root_cause", "headline", "attempts", "created_at", "updated_at"]
# Axis and legend titles in words, not the frame's column names.
LABELS = {"category_label": "Category", "priority": "Priority", "exceptions": "Exceptions",
          "confidence": "Confidence", "status": "Status", "updated_at": "Finished"}
PRIORITY_COLORS = {"high": "#d62728", "medium": "#ff7f0e", "low": "#2ca02c", "—": "#999999"}


def results_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per exception with its diagnosis fields flattened (blank where there is no diagnosis)."""
    records = []
    for row in rows:
        diagnosis = row.get("diagnosis") or {}
        category = diagnosis.get("category") or ("unknown" if diagnosis else "")
        records.append({
            "id": row["exception_id"], "job_id": row["job_id"], "job_name": row.get("job_name") or "",
            "status": row["status"], "category": category, "category_label": label(category) if category else "—",
            "priority": diagnosis.get("priority") or "—",
            # Cut to the three decimals the tables show: a 0.795 is never drawn as 0.80.
            "confidence": shown_confidence(diagnosis.get("confidence")),
            "root_cause": diagnosis.get("root_cause") or row.get("error") or "",
            "headline": headline(row.get("error_message") or "", 160), "attempts": row.get("attempts", 0),
            "created_at": pd.to_datetime(row.get("created_at"), utc=True),
            "updated_at": pd.to_datetime(row.get("updated_at"), utc=True)})
    return pd.DataFrame(records, columns=RESULT_COLUMNS)


def make_category_figure(df: pd.DataFrame) -> go.Figure:
    """Diagnosed exceptions per root-cause category, stacked by priority."""
    done = df[df["category"].astype(bool)] if not df.empty else df
    if done.empty:
        return empty_figure("No diagnoses yet")
    counts = done.groupby(["category_label", "priority"]).size().reset_index(name="exceptions")
    order = done["category_label"].value_counts().index.tolist()
    figure = px.bar(counts, x="exceptions", y="category_label", color="priority", orientation="h",
                    color_discrete_map=PRIORITY_COLORS, category_orders={"category_label": order}, labels=LABELS)
    figure.update_layout(height=max(260, 26 * len(order) + 80), yaxis_title=None, legend_title="Priority",
                         margin=dict(l=10, r=10, t=10, b=10))
    return figure


def make_confidence_figure(df: pd.DataFrame) -> go.Figure:
    """How confident the diagnoses are, in tenths, coloured by priority."""
    scored = df.dropna(subset=["confidence"]) if not df.empty else df
    if scored.empty:
        return empty_figure("No diagnoses yet")
    figure = px.histogram(scored, x="confidence", color="priority", nbins=10, range_x=[0, 1],
                          color_discrete_map=PRIORITY_COLORS, labels=LABELS)
    figure.update_layout(height=280, bargap=0.05, yaxis_title="Exceptions", margin=dict(l=10, r=10, t=10, b=10))
    return figure


BUCKETS = ((pd.Timedelta(minutes=10), "10s", "10 seconds"), (pd.Timedelta(hours=3), "1min", "minute"),
           (pd.Timedelta(days=3), "1h", "hour"), (pd.Timedelta.max, "1D", "day"))


def throughput_bucket(span: pd.Timedelta) -> tuple[str, str]:
    """A bucket size that gives a readable number of bars for the time the results span."""
    return next((freq, name) for limit, freq, name in BUCKETS if span <= limit)


def make_throughput_figure(df: pd.DataFrame) -> go.Figure:
    """Exceptions finished (completed or failed) per time bucket, the bucket chosen from the time span."""
    finished = df[df["status"].isin(["completed", "failed"])] if not df.empty else df
    if finished.empty:
        return empty_figure("Nothing diagnosed yet")
    freq, name = throughput_bucket(finished["updated_at"].max() - finished["updated_at"].min())
    buckets = (finished.groupby(["status", pd.Grouper(key="updated_at", freq=freq)]).size()
               .reset_index(name="exceptions"))
    figure = px.bar(buckets, x="updated_at", y="exceptions", color="status",
                    color_discrete_map={"completed": "#2ca02c", "failed": "#d62728"}, labels=LABELS)
    figure.update_layout(height=280, xaxis_title=None, yaxis_title=f"Exceptions per {name}",
                         margin=dict(l=10, r=10, t=10, b=10))
    # A few bars would otherwise stretch across the whole axis: show some empty buckets around them.
    step = pd.Timedelta(freq)
    figure.update_traces(width=step.total_seconds() * 1000 * 0.9)  # a date axis measures widths in ms
    figure.update_xaxes(range=[buckets["updated_at"].min() - 3 * step, buckets["updated_at"].max() + 4 * step])
    return figure


def make_status_figure(counts: Mapping[str, int]) -> go.Figure:
    """The queue by status."""
    if not any(counts.values()):
        return empty_figure("The queue is empty")
    colors = {"pending": "#1f77b4", "in_progress": "#ff7f0e", "completed": "#2ca02c", "failed": "#d62728"}
    figure = go.Figure(go.Bar(x=list(counts.values()), y=[status_label(k) for k in counts], orientation="h",
                              marker_color=[colors.get(k, "#999") for k in counts]))
    figure.update_layout(height=200, margin=dict(l=10, r=10, t=10, b=10))
    return figure
