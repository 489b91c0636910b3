"""The planning nodes: planner (a Plan and its DAG in `replan_result`) and human_feedback (accept or edit)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import ValidationError

from pipelines.core.models.failures import answer_or
from pipelines.deep_research import prompts
from pipelines.deep_research.nodes.common import language_name, locale, masked, plan_of, query
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.offline.plan_edits import apply_instruction, clarifying_question
from pipelines.deep_research.offline.planning import (apply_edits, aspects, coerce_plan, decompose,
                                                      default_dependencies, replan_json)
from pipelines.deep_research.plan_review import diff_text, plan_diff
from pipelines.deep_research.schemas import PlanDraft, PlanReview
from pipelines.deep_research.state import PLAN_REVIEW, ResearchContext, ResearchState

EDIT_MARK = "[EDIT_PLAN]"


def _hints(state: ResearchState, ctx: ResearchContext, parts: list[str]) -> list[str]:
    """Where each aspect seems to be answered: the best passage's document and section (the collections' content)."""
    hints = []
    for part in parts:
        found = ctx.library.search(state.get("resources") or [], f"{part} {query(state)}", k=1)
        hints.append(f"{found[0].document}{(' · ' + found[0].where) if found[0].where else ''}" if found else "")
    return hints


def _tables(state: ResearchState, ctx: ResearchContext) -> list[str]:
    return [name for name, _ in ctx.library.tables(state.get("resources") or [])]


def _edited(state: ResearchState) -> bool:
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    return isinstance(last, (HumanMessage, AIMessage)) and bool(last.additional_kwargs.get("plan_edit"))


def planner(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """A plan of at most max_step_num steps, by the model or the offline decomposition; after an edit, the edited
    steps re-planned. A plan a model got wrong is repaired (or made anew), never a crash."""
    ctx = runtime.context
    text, lang = query(state), locale(state)
    max_steps = int(state.get("max_step_num") or ctx.settings.max_step_num)
    iteration = int(state.get("plan_iterations") or 0) + 1
    notes: list[str] = []
    if _edited(state):
        plan, _ = plan_of(state, ctx)
        offline = PlanDraft(plan=plan, depends_on=default_dependencies(plan.steps))
        feedback = f"The user edited the plan to:\n{plan.model_dump_json()}\nKeep their steps; fix only what is broken."
    else:
        parts = aspects(text)
        offline = decompose(text, lang, max_steps, _tables(state, ctx), _hints(state, ctx, parts))
        feedback = ""

    def failed(failure: Any) -> PlanDraft:
        notes.append(f"the planner model failed ({failure}); the offline plan is used")
        return offline

    draft = answer_or(lambda: ctx.gateway.structured("planner", PlanDraft, prompts.PLANNER.format_messages(
        language=language_name(state), query=text, user_dst=state.get("user_dst") or "none",
        background=masked(state.get("background_investigation_results") or "none"), feedback=feedback,
        max_steps=max_steps, locale=lang), offline=lambda: offline), failed)
    plan, note = coerce_plan(draft.plan if isinstance(draft, PlanDraft) else draft, lang, text, max_steps)
    if note:
        notes.append(note)
    depends = draft.depends_on if isinstance(draft, PlanDraft) and len(draft.depends_on) == len(plan.steps) \
        else default_dependencies(plan.steps)
    zh = is_zh(lang)
    summary = (f"计划（第 {iteration} 版）：" if zh else f"Plan (version {iteration}): ") + \
        "; ".join(f"{i + 1}. {s.title}" for i, s in enumerate(plan.steps))
    if notes:
        summary += ("（已修复：" if zh else " (repaired: ") + "; ".join(notes) + ("）" if zh else ")")
    has_context = plan.has_enough_context and bool(state.get("background_investigation_results"))
    next_node = "reporter" if has_context else "central_agent" if state.get("auto_accepted_plan") else "human_feedback"
    return {"current_plan": plan.model_dump(mode="json"), "replan_result": replan_json(plan, depends),
            "plan_iterations": iteration, "max_plan_iterations": int(state.get("max_plan_iterations") or
                                                                       ctx.settings.max_plan_iterations),
            "messages": [AIMessage(summary, name="planner")], "current_node": next_node}


def human_feedback(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """Accept, or edit (the steps themselves, or an instruction in words) and re-plan; past the iteration limit
    the plan is carried out as it stands."""
    ctx = runtime.context
    plan, _ = plan_of(state, ctx)
    lang = locale(state)
    zh = is_zh(lang)
    limit = int(state.get("max_plan_iterations") or ctx.settings.max_plan_iterations)
    iteration = int(state.get("plan_iterations") or 0)
    if iteration > limit:
        note = (f"已达到规划次数上限（{limit}），按当前计划执行。" if zh else
                f"The plan has been revised {limit} time(s), the limit: it is carried out as it stands.")
        return {"messages": [AIMessage(note, name="human_feedback")], "current_node": "central_agent"}
    last = next((m for m in reversed(state.get("messages") or [])
                 if isinstance(m, AIMessage) and m.additional_kwargs.get("plan_edit") is not None), None)
    last_edit = last.additional_kwargs["plan_edit"] if last is not None else None
    latest = (state.get("messages") or [None])[-1]
    clarify = last.additional_kwargs.get("plan_question") if last is not None and last is latest else None
    raw = interrupt({"kind": PLAN_REVIEW, "question": "审阅计划：接受，或修改步骤。" if zh else
                     "Review the plan: accept it, or edit its steps.", "plan": plan.model_dump(mode="json"),
                     "iteration": iteration, "max_plan_iterations": limit,
                     **({"last_edit": diff_text(last_edit)} if last_edit is not None else {}),
                     **({"clarify": clarify} if clarify else {})})
    try:
        review = raw if isinstance(raw, PlanReview) else PlanReview.model_validate(raw)
    except ValidationError:
        review = PlanReview(action="accept")  # an answer the form would refuse reached the graph: accept, say so
    if review.action == "accept":
        return {"messages": [HumanMessage("[ACCEPTED]", name="human_feedback")], "current_node": "central_agent"}
    edited = apply_edits(plan, review.steps) if review.steps is not None else plan
    unclear: list[str] = []
    if review.instruction.strip():
        edited, unclear = apply_instruction(edited, review.instruction, lang)
    diff = plan_diff(plan, edited)
    said = f"{EDIT_MARK} {review.instruction}".strip() if review.instruction else EDIT_MARK
    if unclear:  # asked about, never guessed: the plan comes back with what was understood, and the question
        question = clarifying_question(unclear, lang)
        return {"current_plan": edited.model_dump(mode="json"), "current_node": "human_feedback",
                "messages": [HumanMessage(said, name="human_feedback"), AIMessage(
                    question, name="human_feedback", additional_kwargs={"plan_edit": diff, "plan_question": question})]}
    if iteration >= limit:  # no planning pass left: the edited plan is carried out as the user made it
        note = (f"已达到规划次数上限（{limit}）：按修改后的计划执行。" if zh else
                f"That was the last of {limit} planning passes: the edited plan is carried out as it is.")
        return {"current_plan": edited.model_dump(mode="json"), "current_node": "central_agent",
                "messages": [HumanMessage(said, name="human_feedback"), AIMessage(
                    diff_text(diff) + "\n" + note, name="human_feedback", additional_kwargs={"plan_diff": diff})]}
    return {"current_plan": edited.model_dump(mode="json"), "current_node": "planner",
            "messages": [HumanMessage(said, name="human_feedback"),
                         AIMessage(diff_text(diff), name="human_feedback", additional_kwargs={"plan_edit": diff})]}


def route_by_current_node(state: ResearchState) -> str:
    """The seed's `current_node` says where the graph goes next."""
    return str(state.get("current_node") or "__end__")
