"""The Flink diagnosis's tab of the Metrics page: the queue's throughput and category mix in the chosen days."""

from __future__ import annotations

import streamlit as st
from sqlalchemy.engine import Engine

from dashboard.studio.chart_layout import side_by_side
from dashboard.workflows.flink_diagnosis import stores
from dashboard.workflows.flink_diagnosis.charts import make_category_figure, make_throughput_figure, results_frame
from pipelines.core.trace.run_metrics import RunFilter


def render_flink_tab(engine: Engine, run_filter: RunFilter) -> None:
    if run_filter.workflows and "flink_diagnosis" not in run_filter.workflows:
        st.info("Flink diagnosis is not among the selected workflows.")
        return
    frame = results_frame(stores.flink_store().list_exceptions(statuses=["completed", "failed"], limit=20_000))
    if not frame.empty and run_filter.first_day and run_filter.last_day:
        days = frame["updated_at"].dt.date
        frame = frame[(days >= run_filter.first_day) & (days <= run_filter.last_day)]
    if frame.empty:
        st.info("The Flink exception queue has no diagnoses in these days yet. Queue exceptions on the Exception "
                "queue page and run a batch, or `python -m pipelines flink work --until-empty`.")
        return
    failed = int((frame["status"] == "failed").sum())
    st.caption(f"{len(frame)} exception(s) of the queue finished in these days ({failed} failed), counted by the day "
               "they finished; the provider filter does not apply to the queue.")
    side_by_side(("**Throughput**: exceptions finished over time", make_throughput_figure(frame),
                  "metrics_flink_throughput"),
                 ("**Category mix** of the diagnoses", make_category_figure(frame), "metrics_flink_categories"))

