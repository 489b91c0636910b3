"""Flink exception queue: what waits, what runs, what failed; add exceptions and diagnose them in a batch."""

import streamlit as st

from dashboard import services
from dashboard.workflows.flink_diagnosis.queue import (read_queue, render_paste_form, render_queue_filters,
                                              render_queue_status, render_queue_table, render_upload_form)

st.title("Flink · exception queue")
st.caption("Job exceptions wait here for diagnosis. Workers claim them one at a time (SELECT … FOR UPDATE SKIP "
           "LOCKED on MariaDB and PostgreSQL); `python -m pipelines flink work --workers N` does the same from a "
           "terminal or other machines.")
try:
    # Drawn at the top but filled last: the counters and the batch button come from the same read of the queue
    # as the table, made after this rerun's forms have added what they add.
    status_box = st.container()
    st.subheader("Add exceptions")
    paste, upload = st.tabs(["Paste a stack trace", "Upload a file"])
    with paste:
        render_paste_form()
    with upload:
        render_upload_form()
    st.subheader("Queue")
    filters = render_queue_filters()
    snapshot = read_queue(filters)
    with status_box:
        render_queue_status(snapshot)
    render_queue_table(snapshot)
except services.storage_errors() as exc:
    services.storage_failure(exc)
