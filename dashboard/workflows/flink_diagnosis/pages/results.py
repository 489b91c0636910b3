"""Flink diagnosis results: filter by priority, category, confidence and status; charts; PDF and CSV exports."""

import streamlit as st

from dashboard import services
from dashboard.workflows.flink_diagnosis import stores
from dashboard.workflows.flink_diagnosis.results import filter_results, render_exports, render_result_charts, render_result_table
from dashboard.workflows.flink_diagnosis.charts import results_frame

st.title("Flink · diagnosis results")
try:
    rows = stores.flink_store().list_exceptions(statuses=["completed", "failed"], limit=20_000)
    frame = results_frame(rows)
    if frame.empty:
        st.info("No exception has been diagnosed yet. Add some on the Queue page and run a batch, or run "
                "`python -m pipelines flink enqueue FILE.jsonl` and `python -m pipelines flink work --until-empty`.")
        st.stop()
    filtered, filters = filter_results(frame)
    st.caption(f"{len(filtered)} of {len(frame)} diagnosed exceptions match the filters.")
    render_result_charts(filtered)
    selected = render_result_table(filtered)
    by_id = {row["exception_id"]: row for row in rows}
    render_exports(filtered, [by_id[i] for i in filtered["id"]], by_id.get(selected) if selected else None, filters)
except services.storage_errors() as exc:
    services.storage_failure(exc)
