"""The recruiter's approval cards under the chat: one card for the interrupt the run waits at — the plan preview
with its step editor, the shortlist, the email batch, the interview slots, the pipeline cleanup and a status change.

A card's buttons record which question they answer (the interrupt id) and what they do; the next run of the page
builds the answer from the card's widgets and resumes the run, so a click on a question another tab has already
answered is refused with a note instead of being lost. Everything that comes from outside (names, goals, subjects,
bodies, reasons) is shown as text: escaped Markdown, st.text/st.code, or dataframes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import ValidationError

from dashboard import services
from dashboard.studio.chat import Chat, answer_and_run_on
from dashboard.workflows.recruiter.card_buttons import PREFIX, REQUEST, button
from dashboard.workflows.recruiter.batch_cards import (
    render_cleanup_card, render_drafts_card, render_shortlist_card, render_slot_card, render_status_card,
)
from dashboard.workflows.recruiter.stores import recruiting_store
from pipelines.core.guardrails.pii import PiiVault
from pipelines.core.markup import escape_markdown
from pipelines.core.runtime.outcomes import PendingInterrupt
from pipelines.core.runtime.session import Session
from pipelines.recruiter.labels import agent_label, mode_label, workflow_label
from pipelines.recruiter.plan_edit import apply_decision, diff_lines
from pipelines.recruiter.schemas import AGENTS, Plan, PlanDecision
from pipelines.recruiter.state import (
    CLEANUP_APPROVAL, FINAL_APPROVAL, PLAN_APPROVAL, SHORTLIST_APPROVAL, SLOT_CHOICE, STATUS_APPROVAL,
)

MODES = ("sequential", "parallel", "interrupt")
STALE = ("The session has moved on (answered in another tab, or the run went on): your answer was not applied. "
         "Read the current question and answer again if it still fits.")

Card = Callable[[PendingInterrupt, "str | None"], Any]


# --- the plan card -------------------------------------------------------------------------------------------------
def _steps_frame(steps: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{"step": int(s.get("step") or i), "agent": s.get("agent"), "mode": s.get("mode") or "sequential",
                          "action": str(s.get("action") or "")} for i, s in enumerate(steps, 1)],
                        columns=["step", "agent", "mode", "action"])


def edited_steps(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The editor's rows as plan steps: blank rows dropped, ordered by their step number (rows without one keep
    their place at the end), numbered 1..n."""
    rows = []
    for position, row in enumerate(frame.to_dict("records")):
        action = str(row.get("action") or "").strip() if not _missing(row.get("action")) else ""
        agent = None if _missing(row.get("agent")) else row.get("agent")
        if not action and agent is None:
            continue
        number = row.get("step")
        order = float(number) if not _missing(number) else float("inf")
        mode = "sequential" if _missing(row.get("mode")) else row.get("mode")
        rows.append((order, position, {"agent": agent, "mode": mode, "action": action}))
    rows.sort(key=lambda r: (r[0], r[1]))
    return [{"step": i, **r[2]} for i, r in enumerate(rows, 1)]


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value) or value is pd.NA or value == ""


def _same_steps(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    def norm(steps):
        return [(s.get("agent"), s.get("mode") or "sequential", str(s.get("action") or "").strip()) for s in steps]
    return norm(a) == norm(b)


def _plan_summary(plan: dict[str, Any], value: dict[str, Any]) -> None:
    st.markdown(f"**Goal:** {escape_markdown(plan.get('goal'))}")
    st.markdown(f"**Workflow:** {escape_markdown(workflow_label(plan.get('workflow_type')))}")
    estimated = plan.get("estimated_actions") or {}
    cols = st.columns(3)
    cols[0].metric("Emails", int(estimated.get("emails") or 0))
    cols[1].metric("API calls", int(estimated.get("api_calls") or 0))
    cols[2].metric("Revisions", f"{int(value.get('revisions') or 0)} of {int(value.get('max_revisions') or 0)}")
    agents = ", ".join(agent_label(a) for a in plan.get("agents_required") or []) or "—"
    st.markdown(f"**Agents:** {escape_markdown(agents)}")
    steps = _steps_frame(plan.get("steps") or [])
    steps = steps.assign(agent=steps["agent"].map(agent_label), mode=steps["mode"].map(mode_label))
    st.dataframe(steps, hide_index=True, width="stretch",
                 column_config={"step": st.column_config.NumberColumn("Step", width="small"),
                                "agent": "Agent", "mode": "Mode", "action": st.column_config.TextColumn("Action")})


def _refusals(pending: PendingInterrupt, plan: dict[str, Any]) -> None:
    """What the guardrails refused of the request and why, as plain text (the reasons quote the request's address)."""
    refusals = [r for r in plan.get("refusals") or [] if isinstance(r, dict) and r.get("reason")]
    if not refusals:
        return
    with st.container(border=True, key=f"{PREFIX}_{pending.id}_refusals"):
        st.markdown(":material/block: **Refused by the guardrails**")
        for refusal in refusals:
            st.text(str(refusal["reason"]))


def _proposed_change(pending: PendingInterrupt) -> tuple[dict[str, Any] | None, str]:
    """The modify answer the editor holds (None when it changes nothing), or why it cannot be sent."""
    original = list((pending.value.get("plan") or {}).get("steps") or [])
    frame = st.session_state.get(f"{PREFIX}_{pending.id}_steps_frame")
    steps = edited_steps(frame) if isinstance(frame, pd.DataFrame) else original
    instruction = str(st.session_state.get(f"{PREFIX}_{pending.id}_instruction") or "").strip()
    answer: dict[str, Any] = {"action": "modify"}
    if not _same_steps(steps, original):
        if not steps:
            return None, "A plan needs at least one step."
        answer["steps"] = steps
    if instruction:
        answer["instruction"] = instruction
    if len(answer) == 1:
        return None, ""
    try:
        PlanDecision.model_validate(answer)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        return None, f"The edited plan is not valid: {problems}"
    return answer, ""


def _step_editor(pending: PendingInterrupt, value: dict[str, Any]) -> None:
    plan = value.get("plan") or {}
    st.markdown("##### Edit the plan")
    st.caption("Change a step's agent, mode or action; add a row at the bottom, delete rows, or renumber the steps "
               "to reorder them. Or say what to change in the box below (e.g. *only 3 candidates*).")
    frame = st.data_editor(
        _steps_frame(plan.get("steps") or []), num_rows="dynamic", hide_index=True, width="stretch",
        key=f"{PREFIX}_{pending.id}_editor",
        column_config={
            "step": st.column_config.NumberColumn("Step", min_value=1, step=1, width="small"),
            "agent": st.column_config.SelectboxColumn("Agent", options=list(AGENTS), required=True,
                                                      format_func=agent_label),
            "mode": st.column_config.SelectboxColumn("Mode", options=list(MODES), default="sequential",
                                                     format_func=mode_label),
            "action": st.column_config.TextColumn("Action", max_chars=300, required=True),
        })
    st.session_state[f"{PREFIX}_{pending.id}_steps_frame"] = frame
    st.text_area("Instruction (optional)", key=f"{PREFIX}_{pending.id}_instruction", height=80, max_chars=2000,
                 placeholder="e.g. only 3 candidates / skip the emails / 只要 3 位候选人")
    answer, problem = _proposed_change(pending)
    if problem:
        st.error(escape_markdown(problem))
    elif answer is None:
        st.caption("No change yet.")
    else:
        old = Plan.model_validate(plan)
        try:
            new, notes = apply_decision(old, PlanDecision.model_validate(answer))
        except (ValidationError, ValueError) as exc:
            st.error(escape_markdown(f"The change cannot be previewed: {exc}"))
        else:
            st.markdown("**Preview of the changes**")
            st.code("\n".join(diff_lines(old, new)) or "(the steps stay as they are)", language=None, wrap_lines=True)
            for note in notes:
                st.caption(escape_markdown(note))
    cols = st.columns([1, 1, 3])
    button(pending, "Submit changes", "modify", primary=True, disabled=answer is None, container=cols[0])
    button(pending, "Close the editor", "close", container=cols[1])


def render_plan_card(pending: PendingInterrupt, action: str | None) -> Any:
    value = pending.value or {}
    editing = f"{PREFIX}_{pending.id}_editing"
    if action == "approve":
        return {"action": "approve"}
    if action == "cancel":
        return {"action": "cancel"}
    if action == "edit":
        st.session_state[editing] = True
    elif action == "close":
        st.session_state[editing] = False
    st.markdown("#### :material/checklist: Plan for your approval")
    st.caption(escape_markdown(value.get("question") or "Approve, modify or cancel the plan?"))
    _plan_summary(value.get("plan") or {}, value)
    _refusals(pending, value.get("plan") or {})
    at_limit = int(value.get("revisions") or 0) >= int(value.get("max_revisions") or 0) > 0
    if at_limit:
        st.caption("The plan has reached its revision limit: approve or cancel it as it is.")
    if not st.session_state.get(editing):
        cols = st.columns([1, 1, 1, 3])
        button(pending, "Approve", "approve", primary=True, container=cols[0])
        button(pending, "Modify", "edit", disabled=at_limit, container=cols[1])
        button(pending, "Cancel", "cancel", container=cols[2])
        return None
    _step_editor(pending, value)
    cols = st.columns([1, 1, 3])
    button(pending, "Approve as it is", "approve", container=cols[0])
    button(pending, "Cancel the plan", "cancel", container=cols[1])
    if action == "modify":
        answer, problem = _proposed_change(pending)
        if answer is None:
            st.error(escape_markdown(problem or "Change a step or write an instruction first."))
        return answer
    return None


CARDS: dict[str, Card] = {
    PLAN_APPROVAL: render_plan_card,
    SHORTLIST_APPROVAL: render_shortlist_card,
    FINAL_APPROVAL: render_drafts_card,
    SLOT_CHOICE: render_slot_card,
    CLEANUP_APPROVAL: render_cleanup_card,
    STATUS_APPROVAL: render_status_card,
}
KINDS: tuple[str, ...] = tuple(CARDS)


def _restored(value: Any, vault: PiiVault) -> Any:
    """The interrupt's value with the session's personal data put back: the run holds `[EMAIL_1]`, the recruiter
    reads the address."""
    if isinstance(value, str):
        return vault.restore(value)
    if isinstance(value, dict):
        return {key: _restored(item, vault) for key, item in value.items()}
    if isinstance(value, list):
        return [_restored(item, vault) for item in value]
    return value


def _masked_edits(answer: Any, session_id: str) -> Any:
    """Edited drafts masked again before they go into the run (its checkpoints never hold personal data in clear);
    sending restores them from the vault."""
    edits = answer.get("edits") if isinstance(answer, dict) else None
    if not edits:
        return answer
    fields = [(key, name) for key, edit in edits.items() for name in edit]
    texts = recruiting_store().mask_pii(session_id, *(edits[key][name] for key, name in fields))
    masked: dict[str, dict[str, str]] = {}
    for (key, name), text in zip(fields, texts, strict=True):
        masked.setdefault(key, {})[name] = text
    return {**answer, "edits": masked}


def _submit(session: Session, pending: PendingInterrupt, answer: Any, chat: Chat) -> None:
    # on in the background, as the chat's own answers go
    if answer_and_run_on(session, pending.id, answer, STALE, chat.answered, chat.finished):
        st.rerun()


def render_cards(session: Session, chat: Chat, values: Mapping[str, Any]) -> None:
    """The card of the interrupt the run waits at (none while a background run goes on), with the session's
    personal data restored for the recruiter to read."""
    request = st.session_state.pop(REQUEST, None)
    if services.background_runs().active(session.thread_id) is not None:
        return
    pending = [p for p in session.pending_interrupts() if p.kind in CARDS]
    if request and not any(p.id == request[0] for p in pending):
        st.warning(STALE, icon=":material/sync_problem:")
        request = None
    if not pending:
        return
    current = pending[0]
    action = request[1] if request and request[0] == current.id else None
    session_id = str(values.get("session_id") or "")
    vault = PiiVault.from_entries(recruiting_store().vault_entries(session_id))
    shown = dataclasses.replace(current, value=_restored(current.value, vault))
    with st.container(border=True, key=f"{PREFIX}_{current.kind}"):
        answer = CARDS[current.kind](shown, action)
    if answer is not None:
        _submit(session, current, _masked_edits(answer, session_id), chat)
