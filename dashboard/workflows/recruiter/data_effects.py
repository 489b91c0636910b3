"""The Recruiting data page's views of what the agents did: the Outbox, the Calendar of booked interviews and the
Plans with their modification history. Outside text (subjects, bodies, goals, instructions, diffs) is shown as
table cells, st.text, st.code or escaped Markdown: never as formatting, links or HTML."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from pipelines.core.markup import escape_markdown
from pipelines.recruiter.calendar_events import (
    ICS_MIME, InterviewCalendar, InterviewEvent, Interviewer, ics_filename, ics_for, load_interviewers,
)
from pipelines.recruiter.labels import agent_label, mode_label, workflow_label
from pipelines.recruiter.outbox import EDITABLE, Outbox, OutboxMessage
from pipelines.recruiter.plan_store import PlanStore
from pipelines.recruiter.store import RecruitingStore

OUTBOX_STATUSES = ("draft", "approved", "sent", "not_sent", "failed", "discarded")
OUTBOX_COLUMNS = {"id": "ID", "to": "To", "subject": "Subject", "status": "Status", "reason": "Reason",
                  "candidate": "Candidate", "job": "Job", "sent_at": "Sent at"}
CALENDAR_COLUMNS = {"local": "Local time", "utc": "UTC", "candidate": "Candidate", "job": "Job",
                    "interviewer": "Interviewer", "status": "Status"}
PLAN_COLUMNS = {"id": "ID", "goal": "Goal", "workflow_type": "Workflow", "status": "Status", "updated_at": "Updated"}
STEP_COLUMNS = {"step": "Step", "agent": "Agent", "mode": "Mode", "action": "Action"}
PLAN_LIMIT = 200
FLASH_KEY = "recruiting_effects_flash"


def _when(label: str) -> Any:
    return st.column_config.DatetimeColumn(label, format="YYYY-MM-DD HH:mm")


def _label(status: str) -> str:
    return status.replace("_", " ").capitalize()


def _selected_row(event: Any, rows: int) -> int | None:
    selected = event.selection.rows if event else []
    return selected[0] if selected and selected[0] < rows else None


def show_flash() -> None:
    """What the last button did, said once after the rerun that shows its effect."""
    if message := st.session_state.pop(FLASH_KEY, None):
        st.success(escape_markdown(message))


def _table_key(base: str) -> str:
    """A table's key, renewed after a button changed its rows: a selection by row number never lands on another row."""
    version = st.session_state.get(f"{base}_version", 0)
    return f"{base}_{version}" if version else base


def rerun_saying(message: str, table: str | None = None) -> None:
    """Rerun the page (so everything shows the change) and say `message` on top of the tab."""
    st.session_state[FLASH_KEY] = message
    if table:
        st.session_state[f"{table}_version"] = st.session_state.get(f"{table}_version", 0) + 1
    st.rerun()


# --- outbox --------------------------------------------------------------------------------------------------------
def _reason(message: OutboxMessage) -> str:
    reason = message.status_reason or ""
    return "being sent" if reason.startswith("sending ") else reason  # a send's claim token says nothing to a reader


def outbox_frame(messages: list[OutboxMessage]) -> pd.DataFrame:
    records = [{"id": m.id, "to": m.to_address, "subject": m.subject, "status": _label(m.status), "reason": _reason(m),
                "candidate": m.candidate_id or "", "job": m.job_id or "", "sent_at": pd.to_datetime(m.sent_at, utc=True)}
               for m in messages]
    return pd.DataFrame(records, columns=list(OUTBOX_COLUMNS))


def render_outbox_tab(store: RecruitingStore) -> None:
    show_flash()
    outbox = Outbox(store.engine)
    everything = outbox.drafts()
    counts = {status: sum(m.status == status for m in everything) for status in OUTBOX_STATUSES}
    for column, status in zip(st.columns(len(OUTBOX_STATUSES)), OUTBOX_STATUSES):
        column.metric(_label(status), counts[status])
    status = st.selectbox("Status", ["", *OUTBOX_STATUSES], key="recruiting_outbox_status",
                          format_func=lambda s: _label(s) if s else "All statuses")
    messages = [m for m in everything if not status or m.status == status][::-1]  # newest first
    if not messages:
        st.info("No message with this status." if status else
                "The outbox is empty: the Communication agent drafts emails into it.")
        return
    st.caption(f"{len(messages)} message(s), newest first. Select one to read it.")
    frame = outbox_frame(messages)
    event = st.dataframe(frame, hide_index=True, width="stretch", placeholder="—", on_select="rerun",
                         selection_mode="single-row", key=_table_key("recruiting_outbox_table"),
                         column_config={**OUTBOX_COLUMNS, "sent_at": _when("Sent at")})
    row = _selected_row(event, len(frame))
    if row is not None:
        render_message(outbox, messages[row])


def render_message(outbox: Outbox, message: OutboxMessage) -> None:
    with st.container(border=True):
        st.markdown(f"**{escape_markdown(message.subject, line_breaks=False)}**")
        facts = [f"to {message.to_address}", _label(message.status), _reason(message),
                 f"candidate {message.candidate_id}" if message.candidate_id else "",
                 f"job {message.job_id}" if message.job_id else ""]
        st.caption(escape_markdown(" · ".join(f for f in facts if f), line_breaks=False))
        st.code(message.body, language=None, wrap_lines=True)
        cols = st.columns(2)
        if message.attachment_text:
            cols[0].download_button("Download the invitation (.ics)", message.attachment_text.encode("utf-8"),
                                    file_name=message.attachment_name or "invite.ics", mime=ICS_MIME,
                                    key="recruiting_outbox_ics", on_click="ignore", icon=":material/event:")
        if message.status in EDITABLE and cols[1].button("Discard", key="recruiting_outbox_discard",
                                                         icon=":material/delete:"):
            if outbox.discard([message.id]):
                rerun_saying(f"Message {message.id} discarded.", "recruiting_outbox_table")
            st.warning(f"Message {message.id} could not be discarded: it is being sent or was sent meanwhile.")


# --- calendar ------------------------------------------------------------------------------------------------------
def _interviewers() -> dict[str, Interviewer]:
    try:
        return load_interviewers()
    except (OSError, ValueError, KeyError):  # a missing or broken interviewers file: the bookings by their ids
        return {}


def _interviewer_of(event: InterviewEvent, interviewers: dict[str, Interviewer]) -> Interviewer:
    return interviewers.get(event.interviewer_id) or Interviewer(event.interviewer_id, event.interviewer_id, "",
                                                                  event.timezone)


def calendar_frame(events: list[InterviewEvent], names: dict[str, str], titles: dict[str, str],
                   interviewers: dict[str, Interviewer]) -> pd.DataFrame:
    records = [{"local": f"{e.local_start:%Y-%m-%d %H:%M} {e.timezone}", "utc": pd.to_datetime(e.start_utc, utc=True),
                "candidate": f"{names.get(e.candidate_id) or e.candidate_id} ({e.candidate_id})",
                "job": f"{titles.get(e.job_id) or e.job_id} ({e.job_id})",
                "interviewer": _interviewer_of(e, interviewers).name, "status": _label(e.status)} for e in events]
    return pd.DataFrame(records, columns=list(CALENDAR_COLUMNS))


def render_calendar_tab(store: RecruitingStore) -> None:
    show_flash()
    interviewers = _interviewers()
    calendar = InterviewCalendar(store.engine, interviewers)
    everything = calendar.events(status=None)
    people = {**{i: p.name for i, p in interviewers.items()},
              **{e.interviewer_id: e.interviewer_id for e in everything if e.interviewer_id not in interviewers}}
    cols = st.columns([3, 1])
    chosen = cols[0].selectbox("Interviewer", ["", *people], key="recruiting_calendar_interviewer",
                               format_func=lambda i: f"{people[i]} ({i})" if i else "All interviewers")
    cancelled = cols[1].toggle("Show cancelled", key="recruiting_calendar_cancelled")
    events = [e for e in everything if (not chosen or e.interviewer_id == chosen) and (cancelled or e.status == "scheduled")]
    if not events:
        st.info("No interview booked: the Scheduling agent books them." if not everything else
                "No interview matches these filters.")
        return
    candidates = {i: store.candidate(i) for i in {e.candidate_id for e in events}}
    jobs = {i: store.job(i) for i in {e.job_id for e in events}}
    frame = calendar_frame(events, {i: c.name for i, c in candidates.items() if c},
                           {i: j.title for i, j in jobs.items() if j}, interviewers)
    st.caption(f"{len(events)} interview(s), by start time: each in the interviewer's time zone and in UTC. "
               "Select one for its invitation.")
    event = st.dataframe(frame, hide_index=True, width="stretch", placeholder="—", on_select="rerun",
                         selection_mode="single-row", key=_table_key("recruiting_calendar_table"),
                         column_config={**CALENDAR_COLUMNS, "utc": _when("UTC")})
    row = _selected_row(event, len(frame))
    if row is None:
        return
    chosen_event = events[row]
    interviewer = _interviewer_of(chosen_event, interviewers)
    with st.container(border=True):
        st.caption(escape_markdown(f"{frame.iloc[row]['candidate']} · {frame.iloc[row]['job']} · with "
                                   f"{interviewer.name} · {frame.iloc[row]['local']} · {_label(chosen_event.status)}",
                                   line_breaks=False))
        cols = st.columns(2)
        ics = ics_for(chosen_event, candidates.get(chosen_event.candidate_id) or chosen_event.candidate_id,
                      jobs.get(chosen_event.job_id) or chosen_event.job_id, interviewer)
        cols[0].download_button("Download the invitation (.ics)", ics, file_name=ics_filename(chosen_event),
                                mime=ICS_MIME, key="recruiting_calendar_ics", on_click="ignore",
                                icon=":material/event:")
        if chosen_event.status == "scheduled" and cols[1].button("Cancel the interview", key="recruiting_calendar_cancel",
                                                                 icon=":material/event_busy:"):
            if calendar.cancel(chosen_event.id):
                rerun_saying(f"The interview at {frame.iloc[row]['local']} is cancelled.", "recruiting_calendar_table")
            st.warning("This interview was already cancelled.")


# --- plans ---------------------------------------------------------------------------------------------------------
def plans_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    records = [{"id": r["id"], "goal": r.get("goal") or "", "workflow_type": workflow_label(r.get("workflow_type")),
                "status": _label(r.get("status") or ""), "updated_at": pd.to_datetime(r.get("updated_at"), utc=True)}
               for r in rows]
    return pd.DataFrame(records, columns=list(PLAN_COLUMNS))


def steps_frame(plan: dict[str, Any]) -> pd.DataFrame:
    steps = [s for s in (plan.get("steps") or []) if isinstance(s, dict)]
    return pd.DataFrame([{"step": s.get("step"), "agent": agent_label(s.get("agent")), "mode": mode_label(s.get("mode")),
                          "action": s.get("action") or ""} for s in steps], columns=list(STEP_COLUMNS))


def render_plans_tab(store: RecruitingStore) -> None:
    plans = PlanStore(store.engine)
    rows = plans.recent(limit=PLAN_LIMIT)
    if not rows:
        st.info("No plan yet: the planner saves each plan it proposes in the recruiter's chat.")
        return
    st.caption(f"The {len(rows)} newest plan(s). Select one for its steps and the history of its changes.")
    frame = plans_frame(rows)
    event = st.dataframe(frame, hide_index=True, width="stretch", placeholder="—", on_select="rerun",
                         selection_mode="single-row", key="recruiting_plans_table",
                         column_config={**PLAN_COLUMNS, "updated_at": _when("Updated")})
    row = _selected_row(event, len(frame))
    if row is not None:
        render_plan(plans.get(rows[row]["id"]) or rows[row])


def render_plan(row: dict[str, Any]) -> None:
    plan = row.get("plan_json") if isinstance(row.get("plan_json"), dict) else {}
    with st.container(border=True):
        st.markdown(f"**Plan** · {escape_markdown(row['id'], line_breaks=False)} · "
                    f"{escape_markdown(_label(row.get('status') or ''), line_breaks=False)}")
        st.text(plan.get("goal") or row.get("goal") or "")
        st.dataframe(steps_frame(plan), hide_index=True, width="stretch", placeholder="—", key="recruiting_plan_steps",
                     column_config={**STEP_COLUMNS, "action": st.column_config.TextColumn("Action", width="large")})
        estimated = plan.get("estimated_actions") if isinstance(plan.get("estimated_actions"), dict) else {}
        st.caption(f"Estimated actions: {int(estimated.get('emails') or 0)} email(s), "
                   f"{int(estimated.get('api_calls') or 0)} API call(s).")
        history = [m for m in (row.get("modifications_json") or []) if isinstance(m, dict)]
        st.markdown(f"**Modifications** · {len(history)}")
        if not history:
            st.caption("Not modified since it was proposed.")
        for number, change in reversed(list(enumerate(history, 1))):  # newest first
            render_modification(number, change)


def render_modification(number: int, change: dict[str, Any]) -> None:
    when = pd.to_datetime(change.get("at"), utc=True, errors="coerce")
    at = "" if pd.isna(when) else f"{when:%Y-%m-%d %H:%M} UTC"
    with st.container(border=True):
        st.caption(escape_markdown(" · ".join(p for p in (f"#{number}", at, f"by {change.get('by') or '?'}") if p),
                                   line_breaks=False))
        if change.get("instruction"):
            st.text(f"Instruction: {change['instruction']}")
        diff = [str(line) for line in (change.get("diff") or [])]
        st.code("\n".join(diff) or "(no change in the steps)", language="diff", wrap_lines=True)
