"""The research assistant above the studio: the question, the cards that wait for the user, progress as observations
land, the memory stack, the delegation context, the data collected with its sources, and the cited report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import services
from dashboard.studio.chat import answer_and_run_on, run_to_next_question
from dashboard.workflows.deep_research.cards import CARDS, REQUEST
from dashboard.workflows.deep_research.report_view import render_report
from dashboard.workflows.deep_research.start import AUTORUN
from pipelines.core.markup import escape_markdown
from pipelines.core.runtime.session import Session
from pipelines.deep_research.memory import MemoryStack

KEY = "research"
ACTION_ICONS = {"think": ":material/psychology:", "reflect": ":material/undo:", "summarize": ":material/compress:",
                "delegate": ":material/send:", "result": ":material/inbox:", "finish": ":material/flag:",
                "summary": ":material/notes:"}
STALE = ("The research has moved on (answered in another tab, or the run went on): your answer was not applied. "
         "Read the current question and answer again if it still fits.")


ANSWERED, FINISHED = "The research is waiting for you.", "The research is complete."


def continue_run(session: Session) -> None:
    run_to_next_question(session, ANSWERED, FINISHED)


def _plan_steps(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    plan = values.get("current_plan")
    return [s for s in plan.get("steps") or [] if isinstance(s, Mapping)] if isinstance(plan, Mapping) else []


def _header(session: Session, values: Mapping[str, Any], running: bool) -> None:
    st.markdown(f"#### :material/travel_explore: {escape_markdown(values.get('user_query') or 'Research', line_breaks=False)}")
    steps = _plan_steps(values)
    done = sum(1 for s in steps if s.get("execution_res") is not None)
    if steps:
        text = f"{done} of {len(steps)} plan steps done" + (f" — now: {values.get('current_node')}" if running else "")
        st.progress(done / len(steps), text=escape_markdown(text, line_breaks=False))
    if values.get("user_dst"):
        st.caption("Preferences: " + escape_markdown(values["user_dst"]))
    if running:
        st.info("Researching… the studio below shows each step as it lands; this view fills in when the run pauses "
                "or ends.", icon=":material/hourglass_top:")


def _answer_card(session: Session) -> bool:
    request = st.session_state.pop(REQUEST, None)
    pending = [p for p in session.pending_interrupts() if p.kind in CARDS]
    if request and not any(p.id == request[0] for p in pending):
        # A click on a question this tab drew before another tab answered it (or the run went on).
        st.warning(STALE, icon=":material/sync_problem:")
    if not pending:
        return False
    current = pending[0]
    with st.container(border=True, key=f"{KEY}_card_{current.kind}"):
        answer = CARDS[current.kind](current)
    return answer is not None and answer_and_run_on(session, current.id, answer, STALE, ANSWERED, FINISHED)


def render_memory(values: Mapping[str, Any]) -> None:
    """The memory stack drawn as a stack: the top entry first, each with its action."""
    memory = MemoryStack.load(values.get("memory_stack"))
    st.markdown(f"**Memory stack** — {len(memory)} of {memory.limit} entries"
                + (f", {memory.dropped} pushed out at the bottom" if memory.dropped else ""))
    for position, entry in enumerate(reversed(memory.entries[-12:])):
        action = str(entry.get("action") or "")
        with st.container(border=True):
            label = "top · " if position == 0 else ""
            st.markdown(f"{ACTION_ICONS.get(action, '')} {label}**{escape_markdown(action)}**"
                        + (f" · step {int(entry['step']) + 1}" if isinstance(entry.get("step"), int) else ""))
            st.caption(escape_markdown(str(entry.get("content") or "")[:400]))
    if len(memory) > 12:
        st.caption(f"… {len(memory) - 12} older entries below")


def render_delegation(values: Mapping[str, Any]) -> None:
    context = values.get("delegation_context") or {}
    st.markdown("**Delegation context**")
    if not context:
        st.caption("Nothing delegated yet.")
        return
    rows = [{"field": k, "value": str(v)[:500]} for k, v in context.items()]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def render_collections(values: Mapping[str, Any]) -> None:
    rows = [{"ref": item.get("ref"), "step": int(item.get("step") or 0) + 1, "kind": item.get("kind") or "passage",
             "document": item.get("document") or "", "where": " · ".join(
                 str(p) for p in (f"p. {item['page']}" if item.get("page") else "", item.get("section")) if p),
             "findings": len(item.get("findings") or []), "flagged": bool(item.get("flagged"))}
            for item in values.get("data_collections") or [] if isinstance(item, Mapping) and item.get("ref")]
    st.markdown(f"**Data collected** — {len(rows)} passage(s) and results")
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def render_assistant(session: Session) -> None:
    values = session.values()
    running = services.background_runs().active(session.thread_id) is not None
    if st.session_state.pop(AUTORUN, False) and session.status() == "ready" and not running:
        continue_run(session)
        st.rerun()
    with st.container(border=True):
        thread = session.thread
        for note in ((thread.input if thread else None) or {}).get("upload_notes") or []:
            st.warning(escape_markdown(str(note)), icon=":material/description:")
        _header(session, values, running)
        if not running and _answer_card(session):
            st.rerun()
        observations = values.get("observations") or []
        if observations:
            with st.expander(f"Progress — {len(observations)} observation(s)", expanded=not values.get("final_report")):
                for line in observations:
                    st.markdown("- " + escape_markdown(line, line_breaks=False))
        if values.get("memory_stack") or values.get("delegation_context"):
            with st.expander("Central agent: memory and delegation", expanded=False):
                left, right = st.columns(2)
                with left:
                    render_memory(values)
                with right:
                    render_delegation(values)
        if values.get("data_collections"):
            with st.expander("Data collected, with sources"):
                render_collections(values)
        if values.get("final_report"):
            st.markdown("### Report")
            render_report(values, f"{KEY}_report", f"research-{session.thread_id[:8]}")
        elif session.status() == "completed":
            last = (values.get("messages") or [None])[-1]
            if last is not None:
                st.info(escape_markdown(str(getattr(last, "content", "") or "")))
