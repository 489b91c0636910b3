"""The recruiter's chat above the studio: the session's conversation (each message is one run of the router, the
same session id carrying it on), the guardrail banners of the current turn, and the start form."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import streamlit as st

from dashboard import services
from dashboard.state_keys import FLASH
from dashboard.studio.chat import Chat, Turn, render_chat as render_generic_chat, render_counter, run_when_opened, too_long
from dashboard.studio.run_sidebar import start_run
from dashboard.workflows.recruiter.cards import render_cards
from dashboard.workflows.recruiter.stores import recruiting_store
from pipelines.core.guardrails.findings import check_label
from pipelines.core.markup import escape_markdown
from pipelines.core.registry import get_spec
from pipelines.core.runtime.session import Session
from pipelines.core.spec import PipelineSpec
from pipelines.recruiter.settings import recruiter_settings

KEY = "recruiter"
ROLES = {"recruiter": "Recruiter", "job_seeker": "Job seeker"}
SEVERITY_ICONS = {"blocked": ":material/block:", "warning": ":material/warning:", "info": ":material/info:"}


def _max_chars() -> int:
    return recruiter_settings(services.current_settings()).max_input_chars


def _too_long(length: int) -> str:
    return (f"The message is {length:,} characters; the limit is {_max_chars():,}. Your text is kept in the box: "
            "shorten it or split it into several messages.")


def conversation(values: Mapping[str, Any]) -> list[Turn]:
    """The session's messages as the user wrote and saw them: the table and the run's state hold them masked, and
    the recruiter reads the values back here, in the conversation they act on."""
    session_id = values.get("session_id")
    if not session_id:
        return []
    store = recruiting_store()  # the page's cached store, no demo check
    rows = store.recent_messages(str(session_id), limit=200)
    vault = store.vault.vault(str(session_id))
    return [("user" if row["role"] == "user" else "assistant", vault.restore(str(row["content"]))) for row in rows]


def next_turn(session: Session, message: str) -> bool:
    """The next message of the conversation: a new run of the router with the same session id and role."""
    values = session.values()
    raw = {"message": message, "role": values.get("role") or "recruiter", "session_id": values.get("session_id")}
    if start_run(get_spec(KEY), raw, None):
        return True
    st.error(escape_markdown(st.session_state.pop(FLASH, ("error", "The message could not be sent."))[1]))
    return False


def guardrail_banners(values: Mapping[str, Any]) -> None:
    """The seed's `guardrail_warning`: a yellow banner per warning or block of this turn — which check fired and
    why, never the text that set it off."""
    paused = values.get("paused_workflow")
    if paused and paused.get("answer") is None:
        st.info(f"Waiting for your answer: {escape_markdown(paused.get('question') or '')} Reply yes or no.",
                icon=":material/pause_circle:")
    for finding in values.get("guardrail_findings") or []:
        if finding.get("severity") in ("warning", "blocked"):
            label = "Blocked" if finding.get("severity") == "blocked" else "Guardrail warning"
            st.warning(f"**{label}** · {escape_markdown(check_label(finding.get('check')))}: "
                       f"{escape_markdown(finding.get('message'))}",
                       icon=SEVERITY_ICONS.get(finding.get("severity"), ":material/warning:"))


# Every message is a new turn, a yes or no to a paused status change or plan too (the router's check_paused finds
# it): the chat's box answers no interrupt itself; the cards under it answer the plan's and the status change's.
CHAT = Chat(
    key=KEY, turns=conversation, kind="", max_chars=64_000, too_long=_too_long, send_label="Send",
    continue_label="Continue the turn", new_turn=next_turn,
    new_turn_label="Your message (ask about jobs, candidates and the pipeline)",
    answered="The assistant has answered.", finished="The assistant has answered.", counter_from=0.8,
    avatars={"user": ":material/person:", "assistant": ":material/work:"})


def render_chat(session: Session) -> None:
    """The conversation, then the approval card of the interrupt the turn waits at (dashboard/.../cards.py) right
    under the last reply, then the message box."""
    chat = dataclasses.replace(CHAT, max_chars=_max_chars())

    def card(session: Session, values: Mapping[str, Any]) -> bool:
        if services.background_runs().active(session.thread_id) is None:
            render_cards(session, chat, values)  # an answered card reruns the page itself
        return False

    render_generic_chat(session, chat, header=guardrail_banners, above_reply=card)


def render_start_form(spec: PipelineSpec) -> None:
    """A new conversation: who is asking, and the first message; it runs at once."""
    max_chars = _max_chars()
    with st.form(f"{KEY}_start", border=True):
        st.markdown("#### New conversation")
        role = st.radio("You are", list(ROLES), format_func=ROLES.get, horizontal=True, key=f"{KEY}_start_role")
        message = st.text_area("Message", key=f"{KEY}_first_message", height=100,
                               placeholder="e.g. Who matches J001? / 谁适合 J002？ / Summarise C010's resume")
        render_counter(message, max_chars, CHAT.counter_from)
        submitted = st.form_submit_button("Send", type="primary")
    if not submitted:
        return
    if not (message or "").strip():
        st.error("Write a message first.")
        return
    if problem := too_long(message, max_chars, _too_long):
        st.error(problem)
        return
    if start_run(spec, {"message": message, "role": role}, None):
        run_when_opened(CHAT)
        st.rerun()
    st.error(escape_markdown(st.session_state.pop(FLASH, ("error", "The conversation could not start."))[1]))
