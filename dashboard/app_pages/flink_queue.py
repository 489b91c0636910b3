"""Flink exception queue: what waits, what runs, what failed; add exceptions and diagnose them in a batch."""

import streamlit as st

from dashboard import services
from dashboard.components.flink_charts import make_status_figure
from dashboard.components.flink_queue import (render_batch_panel, render_paste_form, render_queue_table,
                                              render_upload_form)

st.title("Flink · exception queue")
st.caption("Job exceptions wait here for diagnosis. Workers claim them one at a time (SELECT … FOR UPDATE SKIP "
           "LOCKED on MariaDB and PostgreSQL); `python -m pipelines flink work --workers N` does the same from a "
           "terminal or other machines.")
try:
    counts = services.flink_store().count_by_status()
    cols = st.columns(4)
    for col, status in zip(cols, ["pending", "in_progress", "completed", "failed"]):
        col.metric(status.replace("_", " ").capitalize(), counts[status])
    st.plotly_chart(make_status_figure(counts), key="flink_queue_status_chart", width="stretch")
    st.subheader("Diagnose in a batch")
    render_batch_panel(counts["pending"])
    st.subheader("Add exceptions")
    paste, upload = st.tabs(["Paste a stack trace", "Upload a file"])
    with paste:
        render_paste_form()
    with upload:
        render_upload_form()
    st.subheader("Queue")
    render_queue_table()
except services.STORAGE_ERRORS as exc:
    services.storage_failure(exc)
