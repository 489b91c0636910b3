"""The Flink results explorer's widgets: filters, charts, the table, and the exports."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.workflows.flink_diagnosis.charts import make_category_figure, make_confidence_figure, make_throughput_figure
from dashboard.workflows.flink_diagnosis.views import CONFIDENCE, render_diagnosis_card
from pipelines.core.markup import escape_markdown
from pipelines.flink_diagnosis.cli import result_row, write_results_csv
from pipelines.flink_diagnosis.display import PRIORITY_LABELS, status_label

PRIORITIES = ["high", "medium", "low"]
RESULT_STATUSES = ["completed", "failed"]
TABLE_COLUMNS = {"id": "ID", "job_id": "Job ID", "job_name": "Job name", "category_label": "Category",
                 "priority": "Priority", "confidence": CONFIDENCE, "status": "Status", "root_cause": "Root cause"}


def filter_results(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Priority and status as pills (never cut short, unlike chips in a narrow multiselect), confidence and
    the categories on a row of their own. A filter with nothing selected filters nothing."""
    with st.container(border=True):
        cols = st.columns([1, 1, 2])
        priorities = cols[0].pills("Priority", PRIORITIES, selection_mode="multi", default=PRIORITIES,
                                   format_func=PRIORITY_LABELS.get, key="flink_results_priority") or PRIORITIES
        statuses = cols[1].pills("Status", RESULT_STATUSES, selection_mode="multi", default=RESULT_STATUSES,
                                 format_func=status_label, key="flink_results_status") or RESULT_STATUSES
        low, high = cols[2].slider("Confidence", 0.0, 1.0, (0.0, 1.0), step=0.05, key="flink_results_confidence")
        categories = sorted(c for c in frame["category_label"].unique() if c != "—")
        chosen = st.multiselect("Category", categories, key="flink_results_category", placeholder="All categories")
    mask = frame["status"].isin(statuses)
    diagnosed = frame["confidence"].notna()
    mask &= ~diagnosed | (frame["priority"].isin(priorities) & frame["confidence"].between(low, high))
    if chosen:
        mask &= frame["category_label"].isin(chosen)
    filters = {"priority": ", ".join(PRIORITY_LABELS[p] for p in priorities), "category": ", ".join(chosen) or "all",
               "confidence": f"{low:.2f}–{high:.2f}", "status": ", ".join(status_label(s) for s in statuses)}
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
    view = frame[list(TABLE_COLUMNS)].assign(status=frame["status"].map(status_label))
    event = st.dataframe(view, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                         key="flink_results_table", column_config=TABLE_COLUMNS)
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
        st.markdown(f"#### Exception {selected['exception_id']} · job "
                    f"{escape_markdown(selected.get('job_name') or selected['job_id'], line_breaks=False)}")
        render_diagnosis_card(selected.get("diagnosis"), selected.get("error"))
        st.download_button("Download this diagnosis as PDF", data=diagnosis_pdf([selected]),
                           file_name=f"flink-diagnosis-{selected['exception_id']}.pdf", mime="application/pdf",
                           key="flink_results_pdf_one", on_click="ignore")
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
                                key="flink_results_pdf_batch", on_click="ignore")
    cols[1].download_button("Download as CSV", data=_csv(rows), file_name="flink-diagnoses.csv", mime="text/csv",
                            key="flink_results_csv", disabled=not rows, on_click="ignore")
