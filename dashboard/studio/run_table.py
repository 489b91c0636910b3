"""The Runs page's table of threads across workflows: filters, the frame it shows, and the row picked."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from pipelines.core.registry import workflows
from pipelines.core.storage.run_summaries import ThreadSummary

STATUSES = ["new", "ready", "waiting", "completed", "failed"]
RUN_COLUMNS = ["thread_id", "workflow", "title", "scenario", "status", "steps", "started", "duration", "provider",
               "last_error"]


def workflow_title(pipeline: str) -> str:
    return next((entry.title for entry in workflows() if entry.id == pipeline), pipeline)


def format_duration(ms: float | None) -> str:
    """Milliseconds for a quick offline run, minutes or hours for a run that waited on a person."""
    if ms is None:
        return "—"
    seconds = ms / 1000
    if seconds < 1:
        return f"{ms:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, seconds = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours < 48 else f"{hours // 24} d {hours % 24} h"


def format_started(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M:%S")


def run_label(summary: ThreadSummary) -> str:
    """One line that tells runs apart in a picker: workflow, title, start and a short thread id."""
    return (f"{workflow_title(summary.pipeline)} · {summary.title or 'untitled'} · "
            f"{format_started(summary.created_at)} · {summary.thread_id[:8]}")


def runs_frame(summaries: Sequence[ThreadSummary]) -> pd.DataFrame:
    """One row per thread, in the order given (newest first from the store)."""
    rows = [{"thread_id": s.thread_id, "workflow": workflow_title(s.pipeline), "title": s.title or "",
             "scenario": s.scenario or "", "status": s.status, "steps": s.steps,
             # The server's local time, as the workflow pages' run pickers show it.
             "started": pd.Timestamp(dt.datetime.fromtimestamp(s.created_at)),
             "duration": format_duration(s.duration_ms), "provider": s.provider or "",
             "last_error": s.last_error or ""} for s in summaries]
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def render_run_filters(pipelines: Sequence[str]) -> tuple[str | None, str | None, str]:
    """Workflow, status and a search on title or thread id; None means any."""
    with st.container(border=True):
        cols = st.columns([2, 2, 3])
        pipeline = cols[0].selectbox("Workflow", [None, *pipelines], key="runs_filter_workflow",
                                     format_func=lambda p: "All workflows" if p is None else workflow_title(p))
        status = cols[1].selectbox("Status", [None, *STATUSES], key="runs_filter_status",
                                   format_func=lambda s: "Any status" if s is None else s)
        search = cols[2].text_input("Search", key="runs_filter_search", placeholder="title or thread id",
                                    max_chars=120)
    return pipeline, status, search.strip()


def table_key(frame: pd.DataFrame) -> str:
    """The table's key changes with the runs it lists, so a selected row never silently points to another run
    after a filter, a new run or a deletion (a selection is a row position)."""
    digest = hashlib.sha1("\n".join(frame["thread_id"]).encode()).hexdigest()[:12]
    return f"runs_table_{digest}"


def render_run_table(frame: pd.DataFrame) -> str | None:
    """The runs as a table with one selectable row; returns the thread id of the selected row."""
    event = st.dataframe(
        frame, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
        key=table_key(frame), height=min(35 * (len(frame) + 1) + 3, 560),
        column_order=[c for c in RUN_COLUMNS if c not in ("thread_id", "last_error")] + ["thread_id", "last_error"],
        column_config={
            "started": st.column_config.DatetimeColumn("started", format="YYYY-MM-DD HH:mm:ss"),
            "steps": st.column_config.NumberColumn("steps", help="Completed steps, every branch, the input included"),
            "duration": st.column_config.TextColumn("duration", help="First step's start to the last step's end"),
            "last_error": st.column_config.TextColumn("last error", width="medium"),
            "thread_id": st.column_config.TextColumn("thread id", width="small")})
    rows = event.selection.rows if event else []
    return str(frame.iloc[rows[0]]["thread_id"]) if rows and rows[0] < len(frame) else None
