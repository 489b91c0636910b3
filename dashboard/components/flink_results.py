"""The Flink results explorer's widgets: filters, charts, the table, and the exports."""

from __future__ import annotations

import io

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.components.flink_charts import make_category_figure, make_confidence_figure, make_throughput_figure
from dashboard.components.flink_views import render_diagnosis_card
from pipelines.flink_diagnosis.cli import result_row, write_results_csv

PRIORITIES = ["high", "medium", "low"]


def filter_results(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    with st.container(border=True):
        cols = st.columns([1, 2, 2, 1])
        priorities = cols[0].multiselect("Priority", PRIORITIES, default=PRIORITIES, key="flink_results_priority")
        categories = sorted(c for c in frame["category_label"].unique() if c != "—")
        chosen = cols[1].multiselect("Category", categories, key="flink_results_category",
                                     placeholder="all categories")
        low, high = cols[2].slider("Confidence", 0.0, 1.0, (0.0, 1.0), step=0.05, key="flink_results_confidence")
        statuses = cols[3].multiselect("Status", ["completed", "failed"], default=["completed", "failed"],
                                       key="flink_results_status")
    mask = frame["status"].isin(statuses or ["completed", "failed"])
    diagnosed = frame["confidence"].notna()
    mask &= ~diagnosed | (frame["priority"].isin(priorities) & frame["confidence"].between(low, high))
    if chosen:
        mask &= frame["category_label"].isin(chosen)
    filters = {"priority": ", ".join(priorities), "category": ", ".join(chosen) or "all",
               "confidence": f"{low:.2f}–{high:.2f}", "status": ", ".join(statuses)}
    return frame[mask], filters


def render_result_charts(frame: pd.DataFrame) -> None:
    left, right = st.columns(2)
    with left:
        st.markdown("**Root-cause categories**")
        st.plotly_chart(make_category_figure(frame), key="flink_results_categories", width="stretch")
    with right:
        st.markdown("**Confidence**")
        st.plotly_chart(make_confidence_figure(frame), key="flink_results_confidence_chart", width="stretch")
        st.markdown("**Throughput** (exceptions finished over time)")
        st.plotly_chart(make_throughput_figure(frame), key="flink_results_throughput", width="stretch")


def render_result_table(frame: pd.DataFrame) -> int | None:
    view = frame[["id", "job_id", "job_name", "category_label", "priority", "confidence", "status", "root_cause"]]
    event = st.dataframe(view, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                         key="flink_results_table", column_config={
                             "category_label": "category",
                             "confidence": st.column_config.ProgressColumn("confidence", min_value=0.0,
                                                                           max_value=1.0, format="%.2f")})
    rows = event.selection.rows if event else []
    if not rows:
        st.caption("Select a row for its diagnosis card and a one-exception PDF.")
        return None
    exception_id = int(view.iloc[rows[0]]["id"])
    return exception_id


def _csv(rows: Sequence[Mapping[str, Any]]) -> bytes:
    out = io.StringIO()
    write_results_csv((result_row(dict(r)) for r in rows), out)
    return out.getvalue().encode("utf-8")


def render_exports(frame: pd.DataFrame, rows: list[dict[str, Any]], selected: dict[str, Any] | None,
                   filters: dict[str, Any]) -> None:
    from pipelines.flink_diagnosis.pdf_report import diagnosis_pdf

    if selected is not None:
        st.markdown(f"#### Exception {selected['exception_id']} · job `{selected['job_id']}`")
        render_diagnosis_card(selected.get("diagnosis"), selected.get("error"))
        st.download_button("Download this diagnosis as PDF", data=diagnosis_pdf([selected]),
                           file_name=f"flink-diagnosis-{selected['exception_id']}.pdf", mime="application/pdf",
                           key="flink_results_pdf_one")
    st.markdown("#### Export the filtered results")
    cols = st.columns(2)
    # The built PDF belongs to the rows it was built from: another filter needs another build.
    selection = (tuple(r["exception_id"] for r in rows), tuple(sorted(filters.items())))
    if cols[0].button(f"Build the PDF report of {len(rows)} exceptions", key="flink_results_pdf_build",
                      disabled=not rows):
        with st.spinner("Building the PDF…"):
            st.session_state["flink_results_pdf"] = (selection, diagnosis_pdf(rows, filters=filters))
    built = st.session_state.get("flink_results_pdf")
    if built and built[0] == selection:
        cols[0].download_button("Download the batch PDF", data=built[1],
                                file_name="flink-diagnoses.pdf", mime="application/pdf",
                                key="flink_results_pdf_batch")
    cols[1].download_button("Download as CSV", data=_csv(rows), file_name="flink-diagnoses.csv", mime="text/csv",
                            key="flink_results_csv", disabled=not rows)
