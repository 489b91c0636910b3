"""Step, Run to interrupt, Run to end (in a background worker) and Reset, with the run's status beside them."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

import streamlit as st

from dashboard.studio.flash import as_sentence
from dashboard.studio.live_run import report_finished
from dashboard.state_keys import FLASH
from pipelines.core.markup import escape_markdown
from pipelines.core.runtime.background import BackgroundRun, BackgroundRuns
from pipelines.core.errors import ConcurrentChange, InvalidInput
from pipelines.core.runtime.outcomes import StepOutcome
from pipelines.core.runtime.session import Session

STATUS_TEXT = {"new": "not started", "ready": "paused between steps", "waiting": "waiting for your answer",
               "completed": "completed", "failed": "failed — Step retries the failed node"}
STATUS_BADGE = {"completed": ":green[:material/check_circle:]", "waiting": ":orange[:material/pending:]",
                "failed": ":red[:material/error:]", "ready": ":blue[:material/pause_circle:]",
                "new": ":gray[:material/radio_button_unchecked:]"}
# A run that ends this soon is drawn at once, as a plain click would; a longer one is polled as it goes.
FOREGROUND_WAIT_S = 1.5
# While another tab or process holds the run, the page looks again this often, to show the run once it is free.
CLAIM_POLL_S = 1.0


def _report(outcomes: list[StepOutcome]) -> None:
    errors = [o.error for o in outcomes if o.error]
    if errors:
        st.session_state[FLASH] = ("error", f"A step failed: {errors[-1]}")
    elif outcomes:
        st.session_state[FLASH] = ("success", f"Ran {len(outcomes)} step(s).")


def run_in_background(runs: BackgroundRuns, session: Session, until: Literal["interrupt", "end"],
                      open_worker_session: Callable[[], Session], expected_version: int | None = None) -> BackgroundRun:
    """Claim the run from the version the page showed (RunBusy, RunMovedOn otherwise), start it in a worker that
    holds the claim, and wait a moment: one that ends by then is reported at once."""
    target = "the next interrupt" if until == "interrupt" else "the end"
    claim = session.claim(f"a background run to {target}", expected_version)
    run = runs.start(session.thread_id, until, open_worker_session, claim=claim)
    if run.wait(FOREGROUND_WAIT_S):
        report_finished(run)
    return run


def _shown_version(session: Session, key_prefix: str) -> int:
    """The run's version when this tab last drew its controls: a click means "from what I saw", so a run that
    moved on since (another tab stepped it) is not stepped again from where it now stands."""
    shown = st.session_state.get(f"{key_prefix}_shown_version")
    return shown[1] if shown and shown[0] == session.thread_id else session.version


@st.fragment(run_every=CLAIM_POLL_S)
def _wait_for_other_holder(session: Session) -> None:
    """Look again until the tab or process that holds the run gives it back; then draw the run as it is."""
    thread = session.studio.runs.get_thread(session.thread_id)
    if thread is None or thread.claimed_by(time.time()) is None:
        st.rerun()


def render_step_controls(session: Session, key_prefix: str, on_reset: Callable[[], None], runs: BackgroundRuns,
                         open_worker_session: Callable[[], Session]) -> bool:
    """Draw the controls; returns True when the session changed (the page should rerun)."""
    status = session.status()
    running = runs.active(session.thread_id) is not None
    holder = None if running else session.thread.claimed_by(time.time()) if session.thread else None
    ready = status in ("ready", "failed") and not running and holder is None
    shown = _shown_version(session, key_prefix)
    columns = st.columns([1, 1.5, 1.3, 1, 3.5], vertical_alignment="center")
    changed = False
    try:
        if columns[0].button("Step", key=f"{key_prefix}_step", disabled=not ready, type="primary", icon=":material/play_arrow:",
                             help="Run one super-step (parallel nodes run together)"):
            _report([session.step(expected_version=shown)])
            changed = True
        if columns[1].button("Run to interrupt", key=f"{key_prefix}_run_interrupt", disabled=not ready,
                             icon=":material/skip_next:",
                             help="Run until a breakpoint, a question for you, or the end"):
            run_in_background(runs, session, "interrupt", open_worker_session, expected_version=shown)
            changed = True
        if columns[2].button("Run to end", key=f"{key_prefix}_run_end", disabled=not ready, icon=":material/fast_forward:",
                             help="Ignore breakpoints; stop only where the workflow needs your answer"):
            run_in_background(runs, session, "end", open_worker_session, expected_version=shown)
            changed = True
    except ConcurrentChange as exc:
        st.session_state[FLASH] = ("warning", as_sentence(exc))
        changed = True
    except InvalidInput as exc:
        st.session_state[FLASH] = ("error", str(exc))
        changed = True
    st.session_state[f"{key_prefix}_shown_version"] = (session.thread_id, session.version)
    if columns[3].button("Reset", key=f"{key_prefix}_reset", icon=":material/restart_alt:",
                         help="Start a new run with the same input"):
        on_reset()
        changed = True
    if running:
        columns[4].markdown(":material/progress_activity: **running in the background**")
        return changed
    if holder is not None:
        columns[4].markdown(":material/lock: **another step of this run is under way** (in another tab or process)")
        st.caption(escape_markdown(f"Held by {holder}. The page shows the run as it is and looks again every second."))
        _wait_for_other_holder(session)
        return changed
    badge = STATUS_BADGE[status]
    next_nodes = ", ".join(session.next_nodes()) or "—"
    columns[4].markdown(f"{badge} **{STATUS_TEXT[status]}** · next: `{next_nodes}`")
    return changed
