"""The Flink queue's widgets: add exceptions (paste or upload), run a batch with progress, browse and act on rows."""

from __future__ import annotations

import json

import streamlit as st

from dashboard import services
from dashboard.components.flink_charts import results_frame
from dashboard.components.knowledge_browser import index_with_progress
from dashboard.state_keys import FLASH, THREAD_PARAM
from pipelines.core.registry import InvalidInput, get_spec
from pipelines.flink_diagnosis.intake import UploadError, parse_upload, validate_exception
from pipelines.flink_diagnosis.patterns import exception_classes

STUDIO_PAGE = "app_pages/flink_diagnosis.py"
STATUSES = ["pending", "in_progress", "completed", "failed"]


def open_in_studio(exception_id: int, job: str = "") -> None:
    """Start a studio run on one exception of the queue and go to the step-through page."""
    settings = services.current_settings()
    try:
        session = services.studio(settings).new_session(
            get_spec("flink_diagnosis"), {"exception_id": exception_id}, settings, scenario=None,
            title=f"Exception {exception_id}" + (f" · {job}" if job else ""))
    except InvalidInput as exc:
        st.error(str(exc))
        return
    st.session_state[FLASH] = ("success", f"Started a run on exception {exception_id}: step through it below.")
    st.switch_page(STUDIO_PAGE, query_params={THREAD_PARAM: session.thread_id})


def render_paste_form() -> None:
    with st.form("flink_paste_form", clear_on_submit=False):
        cols = st.columns([2, 2, 3])
        job_id = cols[0].text_input("Job ID", key="flink_paste_job_id", placeholder="a1b2c3… or a name")
        job_name = cols[1].text_input("Job name (optional)", key="flink_paste_job_name")
        error_type = cols[2].text_input("Error type (optional, detected from the trace)", key="flink_paste_type")
        trace = st.text_area("Stack trace or log excerpt", key="flink_paste_trace", height=180,
                             placeholder="org.apache.flink.runtime.checkpoint.CheckpointException: …")
        config = st.text_area("Job configuration (optional, JSON object)", key="flink_paste_config", height=68,
                              placeholder='{"execution.checkpointing.timeout": "10min"}')
        add, diagnose = st.columns(2)
        add_only = add.form_submit_button("Add to queue", width="stretch")
        add_and_open = diagnose.form_submit_button("Add and step through ▶", type="primary", width="stretch")
    if not (add_only or add_and_open):
        return
    try:
        job_config = json.loads(config) if config.strip() else None
        if job_config is not None and not isinstance(job_config, dict):
            raise ValueError("the job configuration must be a JSON object")
        classes = exception_classes(trace.strip().splitlines()[0]) if trace.strip() else []
        item = validate_exception({"job_id": job_id, "job_name": job_name or None,
                                   "error_type": error_type or (classes[0] if classes else None),
                                   "error_message": trace, "job_config": job_config})
    except json.JSONDecodeError as exc:
        st.error(f"The job configuration is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}).")
        return
    except ValueError as exc:
        st.error(f"Not added: {exc}")
        return
    exception_id = services.flink_store().add_exception(**item)
    if add_and_open:
        open_in_studio(exception_id, item.get("job_name") or item["job_id"])
    st.success(f"Added exception {exception_id} to the queue.")


def render_upload_form() -> None:
    upload = st.file_uploader("A `.jsonl` file (one exception per line) or a log file", key="flink_upload",
                              type=["jsonl", "ndjson", "log", "txt", "out"])
    job_id = st.text_input("Job ID for a log file", key="flink_upload_job_id",
                           help="A .jsonl line carries its own job_id; a log file's exceptions get this one.")
    if not st.button("Add the file's exceptions", key="flink_upload_add", disabled=upload is None):
        return
    try:
        intake = parse_upload(upload.getvalue(), upload.name, job_id=job_id.strip())
    except UploadError as exc:
        st.error(str(exc))
        return
    ids = services.flink_store().add_many(intake.exceptions) if intake.exceptions else []
    if ids:
        st.success(f"Added {len(ids)} exception(s) from {upload.name} (ids {ids[0]}–{ids[-1]}).")
    if intake.errors:
        st.warning(f"{len(intake.errors)} entr{'y was' if len(intake.errors) == 1 else 'ies were'} not added:")
        st.code("\n".join(intake.errors[:50]), language=None)


def _draw_progress(progress) -> None:
    fraction = progress.done / progress.total if progress.total else 1.0
    st.progress(min(1.0, fraction), text=f"{progress.done} of {progress.total} diagnosed · {progress.completed} "
                                          f"completed · {progress.failed} failed · {progress.rate:.1f}/s")
    if progress.error:
        st.error(f"The batch stopped: {progress.error}")


@st.fragment(run_every=1.0)
def _poll_batch() -> None:
    """Redraws only this part each second while the batch runs; the worker thread never touches Streamlit."""
    runner = services.batch_runner()
    _draw_progress(runner.progress)
    if not runner.progress.running:
        st.rerun()  # the batch is over: redraw the whole page with the new counts
    if st.button("Stop after the current exception", key="flink_batch_stop"):
        runner.stop()


def render_batch_progress() -> None:
    runner = services.batch_runner()
    if runner.progress.running:
        _poll_batch()
    elif runner.progress.started_at:
        _draw_progress(runner.progress)
        st.caption("Batch finished. The Diagnosis results page has the diagnoses.")


def render_batch_panel(pending: int) -> None:
    runner = services.batch_runner()
    cols = st.columns([1, 2])
    limit = cols[0].number_input("At most", min_value=1, max_value=max(1, pending), value=max(1, pending),
                                 key="flink_batch_limit", disabled=pending == 0)
    if cols[1].button(f"Diagnose pending exceptions ({pending})", key="flink_batch_start", type="primary",
                      disabled=pending == 0 or runner.progress.running):
        settings = services.current_settings()
        knowledge = services.flink_knowledge(settings)
        if knowledge.needs_index():
            index_with_progress(knowledge, rebuild=False)
        runner.start(settings, services.studio(settings), pending, int(limit))
    render_batch_progress()


def render_queue_table() -> None:
    cols = st.columns([2, 2, 1])
    statuses = cols[0].multiselect("Status", STATUSES, default=STATUSES, key="flink_queue_status")
    search = cols[1].text_input("Search job, type or message", key="flink_queue_search")
    limit = cols[2].number_input("Rows", min_value=10, max_value=5000, value=200, step=50, key="flink_queue_rows")
    rows = services.flink_store().list_exceptions(statuses=statuses or STATUSES, search=search or None,
                                                  limit=int(limit))
    frame = results_frame(rows)[["id", "job_id", "job_name", "status", "category_label", "priority", "confidence",
                                 "attempts", "headline", "updated_at"]]
    event = st.dataframe(frame, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                         key="flink_queue_table", column_config={
                             "category_label": "category",
                             "confidence": st.column_config.ProgressColumn("confidence", min_value=0.0, max_value=1.0,
                                                                           format="%.2f")})
    selected = event.selection.rows if event else []
    if not selected:
        st.caption("Select a row to see the exception and to step through its diagnosis.")
        return
    row = rows[selected[0]]
    with st.container(border=True):
        st.markdown(f"**Exception {row['exception_id']}** · job `{row['job_id']}` {row.get('job_name') or ''} · "
                    f"status `{row['status']}` · {row.get('attempts', 0)} attempt(s)")
        st.code(row["error_message"][:5000], language=None, wrap_lines=True)
        if row.get("error"):
            st.error(row["error"])
        actions = st.columns(3)
        if actions[0].button("Step through in the studio ▶", key="flink_queue_open", type="primary"):
            open_in_studio(int(row["exception_id"]), row.get("job_name") or row["job_id"])
        if actions[1].button("Back to pending", key="flink_queue_requeue", disabled=row["status"] == "pending"):
            services.flink_store().requeue(int(row["exception_id"]))
            st.rerun()
        with actions[2].popover("Delete…"):
            st.caption("The exception and its diagnosis are removed from the queue for good.")
            if st.button(f"Delete exception {row['exception_id']}", key="flink_queue_delete", type="primary"):
                services.flink_store().delete_exception(int(row["exception_id"]))
                st.rerun()
