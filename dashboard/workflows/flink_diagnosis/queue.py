"""The Flink queue's widgets: add exceptions (paste or upload), run a batch with progress, browse and act on rows.

The page handles the add forms first and then reads the queue once (`read_queue`): the counters, the batch
button and the table all draw from that one snapshot, so none of them lags behind what was just added.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from dashboard import services
from dashboard.workflows.flink_diagnosis import stores
from dashboard.workflows.flink_diagnosis.batch import BatchProgress, BatchRunner, outcome_message, progress_text
from dashboard.workflows.flink_diagnosis.charts import make_status_figure, results_frame
from dashboard.workflows.flink_diagnosis.views import CONFIDENCE
from dashboard.workflows.flink_diagnosis.knowledge_browser import index_with_progress
from dashboard.navigation import workflow_page
from dashboard.state_keys import FLASH, THREAD_PARAM
from dashboard.studio.flash import show_flash
from pipelines.core.markup import escape_markdown
from pipelines.core.errors import InvalidInput
from pipelines.core.registry import get_spec
from pipelines.flink_diagnosis.display import exception_title, status_label
from pipelines.flink_diagnosis.intake import MAX_UPLOAD_MB, UploadError, parse_upload, validate_exception
from pipelines.flink_diagnosis.patterns import exception_classes
from pipelines.flink_diagnosis.tables import STATUSES

UPLOAD_TYPES = ["jsonl", "ndjson", "log", "txt", "out"]
BATCH_LIMIT, BATCH_LIMIT_ALL, BATCH_ASKED = "flink_batch_limit", "flink_batch_limit_all", "flink_batch_asked"
PASTE_LABELS = {"error_message": "Stack trace", "job_id": "Job ID", "job_name": "Job name",
                "error_type": "Error type", "job_config": "Job configuration"}
SHOWN_MESSAGE_CHARS = 5000  # of an exception's message on this page; the rest is said to be there
TABLE_COLUMNS = {"id": "ID", "job_id": "Job ID", "job_name": "Job name", "status": "Status",
                 "category_label": "Category", "priority": "Priority", "confidence": CONFIDENCE,
                 "attempts": "Attempts", "headline": "Error", "updated_at": "Updated"}


@dataclass(frozen=True)
class QueueFilters:
    statuses: list[str]
    search: str | None
    limit: int


@dataclass(frozen=True)
class QueueSnapshot:
    """The queue as one read saw it: the counts by status and the rows the table's filters select."""

    counts: dict[str, int]
    rows: list[dict[str, Any]] = field(default_factory=list)


def read_queue(filters: QueueFilters | None = None) -> QueueSnapshot:
    store = stores.flink_store()
    counts = store.count_by_status()
    rows = store.list_exceptions(statuses=filters.statuses, search=filters.search, limit=filters.limit) \
        if filters else []
    return QueueSnapshot(counts, rows)


def open_in_studio(exception_id: int, job: dict[str, Any]) -> None:
    """Start a studio run on one exception of the queue and go to the step-through page."""
    settings = services.current_settings()
    try:
        session = services.studio(settings).new_session(
            get_spec("flink_diagnosis"), {"exception_id": exception_id}, settings, scenario=None,
            title=exception_title({**job, "exception_id": exception_id}))
    except InvalidInput as exc:
        st.error(escape_markdown(str(exc)))
        return
    st.session_state[FLASH] = ("success", f"Started a run on exception {exception_id}: step through it below.")
    st.switch_page(workflow_page("flink_diagnosis"), query_params={THREAD_PARAM: session.thread_id})


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
        st.error(f"The job configuration is not valid JSON: {escape_markdown(exc.msg)} (line {exc.lineno}, "
                 f"column {exc.colno}).")
        return
    except ValueError as exc:
        st.error(f"Not added: {escape_markdown(_in_form_words(str(exc)))}")
        return
    exception_id = stores.flink_store().add_exception(**item)
    if add_and_open:
        open_in_studio(exception_id, item)
    st.success(f"Added exception {exception_id} to the queue.")


def _in_form_words(reason: str) -> str:
    """A refusal as the form names its boxes: "Stack trace: 77,043 characters; …", not "error_message: …"."""
    for name, label in PASTE_LABELS.items():
        reason = reason.replace(f"{name}: ", f"{label}: ")
    return reason


def render_upload_form() -> None:
    upload = st.file_uploader(f"A `.jsonl` file (one exception per line) or a log file, up to {MAX_UPLOAD_MB} MB",
                              key="flink_upload", type=UPLOAD_TYPES, max_upload_size=MAX_UPLOAD_MB)
    job_id = st.text_input("Job ID for a log file", key="flink_upload_job_id",
                           help="A .jsonl line carries its own job_id; a log file's exceptions get this one.")
    if not st.button("Add the file's exceptions", key="flink_upload_add", disabled=upload is None):
        return
    try:
        intake = parse_upload(upload.getvalue(), upload.name, job_id=job_id.strip())
    except UploadError as exc:
        st.error(escape_markdown(exc))
        return
    ids = stores.flink_store().add_many(intake.exceptions) if intake.exceptions else []
    if ids:
        st.success(f"Added {len(ids)} exception(s) from {escape_markdown(upload.name, line_breaks=False)} "
                   f"(ids {ids[0]}–{ids[-1]}).")
    if intake.errors:
        st.warning(f"{len(intake.errors)} entr{'y was' if len(intake.errors) == 1 else 'ies were'} not added:")
        st.code("\n".join(intake.errors[:50]), language=None)


def render_queue_status(snapshot: QueueSnapshot) -> None:
    """The counters, the status chart and the batch panel; while a batch runs they redraw each second
    from one fresh read, so the progress line and the counters agree."""
    runner = stores.batch_runner()
    if (asked := st.session_state.pop(BATCH_ASKED, None)) is not None:
        _start_batch(runner, snapshot.counts, asked)
    show_flash()
    if runner.progress.running:
        _live_status({"snapshot": snapshot})
    else:
        _draw_status(snapshot, runner)


def _start_batch(runner: BatchRunner, counts: dict[str, int], count: int) -> None:
    settings = services.current_settings()
    knowledge = stores.flink_knowledge(settings)
    if knowledge.needs_index():
        index_with_progress(knowledge, rebuild=False)
    if not runner.start(settings, services.studio(settings), counts, count):
        st.session_state[FLASH] = ("info", "Not started: a batch started from another tab is running; its progress "
                                           "is below.")
    st.rerun()  # from now on the live panel draws the batch


@st.fragment(run_every=1.0)
def _live_status(first: dict[str, QueueSnapshot]) -> None:
    """Redraws only this part while the batch runs; the worker thread never touches Streamlit. The full run
    hands its own snapshot in (used once), each later tick reads the queue again."""
    runner = stores.batch_runner()
    try:
        snapshot = first.pop("snapshot", None) or read_queue()
    except services.storage_errors() as exc:  # an outage the batch may be riding out: keep ticking, say so
        st.warning(escape_markdown(f"The queue cannot be read right now ({exc}). The batch waits for the database "
                                   "and goes on when it answers; this panel updates by itself."))
        _progress_bar(runner.progress)
        return
    if not runner.progress.running:
        st.rerun()  # the batch is over: redraw the whole page, the table included, with the new counts
    _draw_status(snapshot, runner)


def _draw_status(snapshot: QueueSnapshot, runner: BatchRunner) -> None:
    counts = snapshot.counts
    for col, status in zip(st.columns(4), STATUSES):
        col.metric(status_label(status), counts[status])
    st.plotly_chart(make_status_figure(counts), key="flink_queue_status_chart", width="stretch")
    st.subheader("Diagnose in a batch")
    if runner.progress.running:
        _progress_bar(runner.progress.seen_in(counts))
        if runner.progress.note:  # the worker gave up on an unreachable database and waits to hand back its claim
            st.warning(escape_markdown(runner.progress.note))
        if runner.stopping or st.button("Stop after the current exception", key="flink_batch_stop"):
            runner.stop()
            st.caption("Stopping after the current exception…")
        return
    pending = counts["pending"]
    _follow_the_queue(pending)
    cols = st.columns([1, 2])
    limit = cols[0].number_input("At most", min_value=1, max_value=max(1, pending), key=BATCH_LIMIT,
                                 disabled=pending == 0,
                                 help="Diagnose only this many of the pending exceptions, oldest first.")
    count = min(int(limit), pending)
    # The button names the number it diagnoses, and hands that very number to the batch (on_click args are the
    # ones drawn here): a box left at 1 by the last batch never turns "(22)" into one.
    label = f"Diagnose pending exceptions ({pending})" if count >= pending else \
        f"Diagnose {count} of {pending} pending exceptions"
    cols[1].button(label, key="flink_batch_start", type="primary", disabled=pending == 0, on_click=_ask_for_batch,
                   args=(count,))
    if runner.progress.started_at:
        progress = runner.progress
        _progress_bar(progress)
        kind, text = outcome_message(progress)
        getattr(st, kind)(escape_markdown(text))


def _follow_the_queue(pending: int) -> None:
    """The "At most" box holds every pending exception until the user picks fewer, and follows the queue while
    untouched (0 pending, then an upload of 7: 7, not 1); a number picked is kept, within what is pending."""
    everything = max(1, pending)
    chosen = st.session_state.get(BATCH_LIMIT)
    if chosen is None or chosen == st.session_state.get(BATCH_LIMIT_ALL):
        chosen = everything
    st.session_state[BATCH_LIMIT] = min(int(chosen), everything)
    st.session_state[BATCH_LIMIT_ALL] = everything


def _ask_for_batch(count: int) -> None:
    """The batch button's click, before the page is drawn again: remember how many it said, and let the box go back
    to all pending for the next batch."""
    st.session_state[BATCH_ASKED] = count
    st.session_state.pop(BATCH_LIMIT, None)


def _progress_bar(progress: BatchProgress) -> None:
    st.progress(min(1.0, progress.done / progress.total) if progress.total else 1.0, text=progress_text(progress))


def render_queue_filters() -> QueueFilters:
    cols = st.columns([2, 2, 1])
    statuses = cols[0].multiselect("Status", STATUSES, default=STATUSES, key="flink_queue_status",
                                   format_func=status_label)
    search = cols[1].text_input("Search job, type or message", key="flink_queue_search")
    limit = cols[2].number_input("Rows", min_value=10, max_value=5000, value=200, step=50, key="flink_queue_rows")
    return QueueFilters(statuses or STATUSES, search or None, int(limit))


def render_queue_table(snapshot: QueueSnapshot) -> None:
    rows = snapshot.rows
    frame = results_frame(rows)[list(TABLE_COLUMNS)]
    frame = frame.assign(status=frame["status"].map(status_label))
    event = st.dataframe(frame, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                         key="flink_queue_table", column_config=TABLE_COLUMNS)
    selected = event.selection.rows if event else []
    if not selected:
        st.caption("Select a row to see the exception and to step through its diagnosis.")
        return
    row = rows[selected[0]]
    with st.container(border=True):
        name = f" ({escape_markdown(row['job_name'], line_breaks=False)})" if row.get("job_name") else ""
        st.markdown(f"**Exception {row['exception_id']}** · job {escape_markdown(row['job_id'], line_breaks=False)}"
                    f"{name} · {status_label(row['status']).lower()} · {row.get('attempts', 0)} attempt(s)")
        message = row["error_message"]
        st.code(message[:SHOWN_MESSAGE_CHARS], language=None, wrap_lines=True)
        if len(message) > SHOWN_MESSAGE_CHARS:
            st.caption(f"The first {SHOWN_MESSAGE_CHARS:,} of its {len(message):,} characters: the queue keeps the "
                       "whole message, and the exports on the Diagnosis results page include all of it.")
        if row.get("error"):
            st.error(escape_markdown(row["error"]))
        actions = st.columns(3)
        if actions[0].button("Step through in the studio ▶", key="flink_queue_open", type="primary"):
            open_in_studio(int(row["exception_id"]), row)
        if actions[1].button("Back to pending", key="flink_queue_requeue", disabled=row["status"] == "pending"):
            stores.flink_store().requeue(int(row["exception_id"]))
            st.rerun()
        with actions[2].popover("Delete…"):
            st.caption("The exception and its diagnosis are removed from the queue for good.")
            if st.button(f"Delete exception {row['exception_id']}", key="flink_queue_delete", type="primary"):
                stores.flink_store().delete_exception(int(row["exception_id"]))
                st.rerun()
