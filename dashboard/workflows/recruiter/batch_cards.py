"""The recruiter's cards for the plan's later approvals: the shortlist, the email batch review, the interview slot
picker, the pipeline cleanup list and a status change. Each card draws the question as text and returns the answer
when the button recorded for this interrupt (`action`) asks for one, else None."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.workflows.recruiter.card_buttons import button, card_key
from pipelines.core.markup import escape_markdown
from pipelines.core.runtime.outcomes import PendingInterrupt
from pipelines.recruiter.labels import cleanup_line


def _question(pending: PendingInterrupt, title: str, default: str) -> None:
    st.markdown(f"#### {title}")
    st.caption(escape_markdown((pending.value or {}).get("question") or default))


def _joined(items: Any) -> str:
    return "; ".join(str(i) for i in items or [])


def _checked(pending: PendingInterrupt, ids: list[str]) -> list[str]:
    return [i for i in ids if st.session_state.get(card_key(pending, "pick", i))]


# --- the shortlist ----------------------------------------------------------------------------------------------
def render_shortlist_card(pending: PendingInterrupt, action: str | None) -> Any:
    shortlist = list((pending.value or {}).get("shortlist") or [])
    _question(pending, ":material/group: Shortlist", "Which candidates go on?")
    st.dataframe(pd.DataFrame([{"rank": c.get("rank"), "candidate": c.get("candidate_id"), "name": c.get("name"),
                                "score": c.get("score"), "reasons": _joined(c.get("reasons")),
                                "missing skills": _joined(c.get("missing_skills")),
                                "filter notes": _joined(c.get("filter_notes")), "flagged": bool(c.get("flagged"))}
                               for c in shortlist]), hide_index=True, width="stretch")
    st.markdown("**Go on with**")
    ids = [str(c.get("candidate_id")) for c in shortlist]
    for item, candidate_id in zip(shortlist, ids, strict=True):
        flag = " · flagged" if item.get("flagged") else ""
        st.checkbox(escape_markdown(f"{item.get('rank')}. {item.get('name')} ({candidate_id}){flag}"),
                    value=not item.get("flagged"), key=card_key(pending, "pick", candidate_id))
    chosen = _checked(pending, ids)
    cols = st.columns([1, 1, 3])
    button(pending, f"Go on with {len(chosen)} selected", "selected", primary=True, container=cols[0])
    button(pending, "Go on with all", "all", container=cols[1])
    if action == "all":
        return {"approved_ids": ["all"]}
    if action == "selected":
        if chosen:
            return {"approved_ids": chosen}
        st.error("Select at least one candidate (or cancel the plan by answering *no* in the chat).")
    return None


# --- the email batch --------------------------------------------------------------------------------------------
def _limits(pending: PendingInterrupt, count: int) -> None:
    value = pending.value or {}
    left, cap = value.get("emails_left_today"), value.get("batch_cap")
    cols = st.columns(3)
    cols[0].metric("Selected", count)
    cols[1].metric("Emails left today", "—" if left is None else int(left))
    cols[2].metric("Batch cap", "—" if cap is None else int(cap))
    if left is not None and count > int(left):
        st.warning(f"You selected {count} emails but only {int(left)} can be sent today: the ones over the limit "
                   "will not be sent.", icon=":material/warning:")
    elif cap and count > int(cap):
        st.warning(f"You selected {count} emails, more than the batch cap of {int(cap)}: they go out in batches of "
                   f"{int(cap)}.", icon=":material/warning:")


def render_drafts_card(pending: PendingInterrupt, action: str | None) -> Any:
    value = pending.value or {}
    drafts = list(value.get("drafts") or [])
    _question(pending, ":material/outgoing_mail: Review the emails", "Send which of these emails?")
    for line in value.get("summary") or []:
        st.text(str(line))
    ids = [str(d.get("outbox_id")) for d in drafts]
    edits: dict[str, dict[str, str]] = {}
    for draft, outbox_id in zip(drafts, ids, strict=True):
        with st.container(border=True):
            st.checkbox(escape_markdown(f"Send to {draft.get('name')} ({draft.get('candidate_id')})"),
                        value=draft.get("ok", True) is not False, key=card_key(pending, "pick", outbox_id))
            st.text(f"To: {draft.get('to') or ''}")
            subject = st.text_input("Subject", value=str(draft.get("subject") or ""), max_chars=300,
                                    key=card_key(pending, "subject", outbox_id))
            body = st.text_area("Body", value=str(draft.get("body") or ""), height=160, max_chars=20000,
                                key=card_key(pending, "body", outbox_id))
            for finding in draft.get("findings") or []:
                text = finding.get("message") if isinstance(finding, dict) else finding
                st.caption(f":material/warning: {escape_markdown(text)}")
            if draft.get("event_id") and not st.session_state.get(card_key(pending, "pick", outbox_id)):
                st.text("Not sending this invitation releases the interview it belongs to.")
            change = {k: v for k, v, old in (("subject", subject, draft.get("subject")), ("body", body, draft.get("body")))
                      if v != str(old or "")}
            if change:
                edits[outbox_id] = change
                st.caption("Edited: " + ", ".join(change))
    chosen = _checked(pending, ids)
    _limits(pending, len(chosen))
    cols = st.columns([1, 1, 3])
    button(pending, f"Send {len(chosen)} selected", "send", primary=True, container=cols[0])
    button(pending, "Send none", "none", container=cols[1])
    if action == "none":
        return {"approved_ids": [], "edits": {}}
    if action == "send":
        if chosen:
            return {"approved_ids": chosen, "edits": {i: e for i, e in edits.items() if i in chosen}}
        st.error("Select at least one email, or click Send none.")
    return None


# --- the interview slots ----------------------------------------------------------------------------------------
def slot_label(slot: dict[str, Any]) -> str:
    """'Tue 3 Nov 2026, 09:00–10:00 (UTC+08:00)' from ISO times with offsets (the raw text when they do not parse)."""
    try:
        start, end = datetime.fromisoformat(str(slot["start"])), datetime.fromisoformat(str(slot["end"]))
    except (KeyError, TypeError, ValueError):
        return f"{slot.get('start')} – {slot.get('end')}"
    zone = start.strftime("%z")
    zone = f"UTC{zone[:3]}:{zone[3:]}" if zone else "no time zone"
    return f"{start:%a} {start.day} {start:%b %Y}, {start:%H:%M}–{end:%H:%M} ({zone})"


def render_slot_card(pending: PendingInterrupt, action: str | None) -> Any:
    value = pending.value or {}
    slots = [s for s in value.get("slots") or [] if isinstance(s, dict) and s.get("start")]
    _question(pending, ":material/event: Pick an interview time", "Which interview time?")
    names = {str(c.get("id")): c.get("name") for c in value.get("candidates") or [] if isinstance(c, dict)}
    people = ", ".join(f"{names[c]} ({c})" if names.get(c) else c for c in map(str, value.get("candidate_ids") or []))
    st.markdown(f"**Candidates:** {escape_markdown(people or '—')}")
    if value.get("interviewer"):
        st.markdown(f"**Interviewer:** {escape_markdown(value['interviewer'])}")
    st.caption("The first candidate takes the chosen slot, the next ones the proposed slots after it, in order.")
    starts: dict[str, str] = {}  # the label shown -> the slot's ISO start
    for slot in slots:
        label = escape_markdown(slot_label(slot))
        starts[label if label not in starts else f"{label} #{len(starts) + 1}"] = str(slot["start"])
    label = st.radio("Interview slot", list(starts), key=card_key(pending, "slot")) if starts else None
    chosen = starts.get(label or "")
    cols = st.columns([1, 1, 3])
    if starts:
        button(pending, "Book this time", "book", primary=True, container=cols[0])
    button(pending, "Cancel scheduling", "cancel", container=cols[1])
    if action == "cancel":
        return {"cancel": True}
    if action == "book" and chosen:
        return {"selected_slot": chosen}
    return None


# --- the pipeline cleanup ---------------------------------------------------------------------------------------
def render_cleanup_card(pending: PendingInterrupt, action: str | None) -> Any:
    proposals = list((pending.value or {}).get("proposals") or [])
    _question(pending, ":material/cleaning_services: Pipeline cleanup", "Which changes should be carried out?")
    ids = [str(p.get("id")) for p in proposals]
    for proposal, proposal_id in zip(proposals, ids, strict=True):
        st.checkbox(escape_markdown(cleanup_line(proposal, str(proposal.get("job_title") or ""))), value=False,
                    key=card_key(pending, "pick", proposal_id))
        st.caption(escape_markdown(proposal.get("reason") or ""))
    chosen = _checked(pending, ids)
    cols = st.columns([1, 1, 1, 2])
    button(pending, f"Carry out {len(chosen)} selected", "selected", primary=True, container=cols[0])
    button(pending, "Carry out all", "all", container=cols[1])
    button(pending, "Change nothing", "none", container=cols[2])
    if action == "all":
        return {"approved_ids": ids}
    if action == "none":
        return {"approved_ids": []}
    if action == "selected":
        return {"approved_ids": chosen}
    return None


# --- a status change --------------------------------------------------------------------------------------------
def render_status_card(pending: PendingInterrupt, action: str | None) -> Any:
    value = pending.value or {}
    proposal = value.get("proposal") or {}
    _question(pending, ":material/swap_horiz: Status change", "Apply this status change?")
    st.dataframe(pd.DataFrame([{"Candidate": proposal.get("candidate_id"), "Name": proposal.get("candidate_name"),
                                "Job": proposal.get("job_id"), "Title": proposal.get("job_title"),
                                "From": proposal.get("from_status") or "no application",
                                "To": proposal.get("to_status")}]),
                 hide_index=True, width="stretch")
    note = st.text_input("Note (kept in the application's history)", max_chars=500, key=card_key(pending, "note"))
    cols = st.columns([1, 1, 3])
    button(pending, "Approve", "approve", primary=True, container=cols[0])
    button(pending, "Drop", "drop", container=cols[1])
    if action in ("approve", "drop"):
        return {"approve": action == "approve", "note": note or ""}
    return None
