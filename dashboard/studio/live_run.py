"""A background run as it goes: the steps that have landed, polled by a fragment, and Stop."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.state_keys import ENDED_RUN, REPORTED_RUNS, WATCHED_RUNS
from pipelines.core.markup import escape_markdown
from pipelines.core.runtime.background import BackgroundRun, BackgroundRuns
from pipelines.core.storage.runstore import ThreadInfo

POLL_SECONDS = 0.5


def report_finished(run: BackgroundRun) -> None:
    """Announce a finished run to this browser session, once: its thread's page shows the summary until the
    next action (see render_ended_run)."""
    reported = st.session_state.setdefault(REPORTED_RUNS, set())
    if run.run_id in reported:
        return
    reported.add(run.run_id)
    failed = run.error or any(s.error for s in run.steps)
    st.session_state[ENDED_RUN] = {"thread": run.thread_id, "kind": "error" if failed else "success",
                                   "text": run.summary(), "position": None}


def report_watched_run(runs: BackgroundRuns, thread: ThreadInfo) -> None:
    """A run this browser session saw going on, and which has ended since while the page was not polling it
    (the tab was on another run or page), is announced, unless the thread has been written since it ended:
    then someone has acted on the run after it, and its end is no longer news."""
    run = runs.get(thread.thread_id)
    if (run is not None and not run.running and run.run_id in st.session_state.get(WATCHED_RUNS, set())
            and thread.updated_at <= (run.finished_at or 0)):
        report_finished(run)


def render_ended_run(thread_id: str | None, position: Hashable, replaced: bool) -> None:
    """The summary of the background run that ended last in this browser session, on its thread's page, from its
    end until the next action: a message of that action (`replaced`: a Step, an answer, a rewind, a new run),
    the run moving on from where it stood (`position`: its head and number of step records, changed by an
    action in any tab), or another run shown here."""
    ended = st.session_state.get(ENDED_RUN)
    if not ended:
        return
    if replaced or ended["thread"] != thread_id or ended["position"] not in (None, position):
        del st.session_state[ENDED_RUN]
        return
    ended["position"] = position  # where the run stood when its end was first shown
    getattr(st, ended["kind"])(escape_markdown(ended["text"]))


def steps_frame(run: BackgroundRun) -> pd.DataFrame:
    rows = [{"step": s.step, "nodes": s.label.split(" ", 1)[-1], "status": s.status,
             "duration ms": round(s.duration_ms, 1), "error": s.error or ""} for s in run.steps]
    return pd.DataFrame(rows, columns=["step", "nodes", "status", "duration ms", "error"])


@st.fragment(run_every=POLL_SECONDS)
def render_live_run(runs: BackgroundRuns, thread_id: str, limits: Mapping[str, Any], key_prefix: str) -> None:
    """Redrawn every half second while the run goes on; a full rerun when it has ended draws the result."""
    run = runs.get(thread_id)
    if run is None:
        return
    if not run.running:
        report_finished(run)
        st.rerun()
    st.session_state.setdefault(WATCHED_RUNS, set()).add(run.run_id)
    with st.container(border=True):
        cols = st.columns([5, 1], vertical_alignment="center")
        target = "the next interrupt or breakpoint" if run.until == "interrupt" else "the end"
        last = run.steps[-1].label.split(" ", 1)[-1] if run.steps else "starting"
        cols[0].markdown(f":material/progress_activity: **Running to {target}** in the background · "
                         f"{len(run.steps)} step(s) · {run.elapsed_s:.1f} s · last: `{last}`")
        slot = cols[1].empty()
        if not run.stop_requested and slot.button(
                "Stop", key=f"{key_prefix}_stop", icon=":material/stop_circle:",
                help="Stop between steps: the step under way finishes and is kept"):
            runs.stop(thread_id)
        if run.stop_requested:
            slot.caption("Stopping after the current step…")
        if run.steps:
            counters = run.steps[-1].counters
            if counters:
                st.caption(" · ".join(f"`{name}` {value} / {limits.get(name) or '∞'}"
                                      for name, value in counters.items()))
            st.dataframe(steps_frame(run).tail(8), hide_index=True, width="stretch")
        st.caption("You may leave or reload the page: the run goes on, and any tab on this run shows it.")
