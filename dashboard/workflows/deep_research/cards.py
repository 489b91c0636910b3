"""The research's questions to the user, as cards above the studio: the preferences form (DST) and the plan review
with its step editor and the diff of an edit. Everything a model or a document wrote is shown as text."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from pipelines.core.markup import escape_markdown
from pipelines.core.runtime.outcomes import PendingInterrupt
from pipelines.deep_research.offline.planning import apply_edits
from pipelines.deep_research.plan_review import diff_text, plan_diff
from pipelines.deep_research.schemas import Plan, StepEdit, StepType

KEY = "research_card"
REQUEST = f"{KEY}_request"  # (interrupt id, action) of the last click on a card, for a tab that drew an old question


def _clicked(interrupt_id: str, action: str) -> None:
    st.session_state[REQUEST] = (interrupt_id, action)
DEPTHS = ["", "brief", "standard", "thorough"]
LABELS = {"sources": "Sources", "language": "Report language", "format": "Format"}


def render_dst_card(pending: PendingInterrupt) -> dict[str, Any] | None:
    """The perception stage's questions; an answer, a skip, or None while the user has not sent the form."""
    value = pending.value or {}
    st.markdown("#### :material/tune: Your research preferences")
    st.caption(escape_markdown(value.get("question") or ""))
    known = value.get("known") or {}
    if known:
        st.caption("Already clear from your question: " + escape_markdown(
            "; ".join(f"{k}: {v}" for k, v in known.items())))
    with st.form(f"{KEY}_dst_{pending.id}", border=False):
        answers: dict[str, Any] = {}
        for item in value.get("questions") or []:
            slot, question = str(item.get("slot")), str(item.get("question") or "")
            if slot == "depth":
                answers["depth"] = st.selectbox(question, DEPTHS, key=f"{KEY}_dst_depth",
                                                format_func=lambda d: d or "no preference")
            elif slot in LABELS:
                answers[slot] = st.text_input(question, key=f"{KEY}_dst_{slot}", max_chars=300)
        columns = st.columns([1, 1, 4])
        send = columns[0].form_submit_button("Send answers", type="primary", on_click=_clicked, args=(pending.id, "send"))
        skip = columns[1].form_submit_button("Skip", on_click=_clicked, args=(pending.id, "skip"))
    if skip:
        return {"skip": True}
    if send:
        return {k: v for k, v in answers.items() if v} or {"skip": True}
    return None


def _frame(plan: Plan) -> pd.DataFrame:
    return pd.DataFrame([{"order": i + 1, "title": s.title, "description": s.description, "type": s.step_type.value,
                          "search": s.need_search} for i, s in enumerate(plan.steps)],
                        columns=["order", "title", "description", "type", "search"])


def edited_steps(frame: pd.DataFrame) -> list[StepEdit]:
    """The editor's rows as steps: rows without a title dropped, ordered by their `order` (blank goes last)."""
    rows = []
    for position, row in enumerate(frame.to_dict("records")):
        title = str(row.get("title") or "").strip() if not pd.isna(row.get("title")) else ""
        if not title:
            continue
        order = row.get("order")
        kind = row.get("type") if row.get("type") in [t.value for t in StepType] else StepType.RESEARCH.value
        description = "" if pd.isna(row.get("description")) else str(row.get("description") or "")
        search = True if pd.isna(row.get("search")) else bool(row.get("search"))
        rows.append((float(order) if not pd.isna(order) else float("inf"), position,
                     StepEdit(title=title[:300], description=description[:2000], step_type=kind, need_search=search)))
    return [step for _, _, step in sorted(rows, key=lambda r: (r[0], r[1]))]


def _draw_plan(plan: Plan, value: dict[str, Any]) -> None:
    st.markdown(f"**{escape_markdown(plan.title or 'Research plan')}**")
    if plan.thought:
        st.caption(escape_markdown(plan.thought))
    st.caption(f"Planning pass {int(value.get('iteration') or 1)} of at most {int(value.get('max_plan_iterations') or 1)}"
               " — an edit is re-planned while passes are left; at the last one it is carried out as you made it.")


def render_plan_card(pending: PendingInterrupt) -> dict[str, Any] | None:
    """Accept, or edit the steps in the table (change, add, remove, reorder by `order`) and/or say what to change;
    the diff of the edit is shown before it is sent."""
    value = pending.value or {}
    try:
        plan = Plan.model_validate(value.get("plan") or {})
    except ValueError:
        plan = Plan(title="(the plan could not be read)")
    st.markdown("#### :material/checklist: Review the research plan")
    if value.get("clarify"):  # part of the last edit was not understood: asked, not guessed
        st.warning(escape_markdown(str(value["clarify"])), icon=":material/help:")
    _draw_plan(plan, value)
    if value.get("last_edit"):
        st.markdown("**Your last edit**" if value.get("clarify") else "**Your last edit, re-planned**")
        st.code(str(value["last_edit"]), language=None)
    frame = st.data_editor(
        _frame(plan), key=f"{KEY}_plan_editor_{pending.id}", num_rows="dynamic", hide_index=True,
        width="stretch", column_config={
            "order": st.column_config.NumberColumn("Order", min_value=1, step=1, help="Renumber to reorder"),
            "title": st.column_config.TextColumn("Step", max_chars=300, required=True),
            "description": st.column_config.TextColumn("What to do", max_chars=2000),
            "type": st.column_config.SelectboxColumn("Type", options=[t.value for t in StepType], required=True),
            "search": st.column_config.CheckboxColumn("Search")})
    instruction = st.text_input("Or say what to change", key=f"{KEY}_plan_instruction_{pending.id}", max_chars=2000,
                                placeholder="e.g. remove step 2; add a step about costs / 删除第2步")
    steps = edited_steps(frame)
    changed = [s.model_dump() for s in steps] != [StepEdit(title=s.title, description=s.description,
                                                           step_type=s.step_type, need_search=s.need_search).model_dump()
                                                  for s in plan.steps]
    if changed and steps:
        new = apply_edits(plan, steps)
        st.markdown("**Your changes**")
        st.code(diff_text(plan_diff(plan, new)), language=None)
    elif changed:
        st.warning("A plan needs at least one step with a title.")
    columns = st.columns([1, 1, 4])
    if columns[0].button("Accept the plan", key=f"{KEY}_accept_{pending.id}", type="primary", on_click=_clicked,
                         args=(pending.id, "accept")):
        return {"action": "accept"}
    if columns[1].button("Apply the edit", key=f"{KEY}_edit_{pending.id}", on_click=_clicked, args=(pending.id, "edit")):
        if not ((changed and steps) or instruction.strip()):
            st.warning("Change a step in the table or say what to change first.")
            return None
        return {"action": "edit", "steps": [s.model_dump(mode="json") for s in steps] if changed and steps else None,
                "instruction": instruction.strip()}
    return None


CARDS = {"dst_form": render_dst_card, "plan_review": render_plan_card}
