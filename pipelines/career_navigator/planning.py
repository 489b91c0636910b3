"""CareerNavigator's feedback interrupts and planning nodes: collect_feedback, goal_decomposer, scheduler, confirm_plan."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from pipelines.career_navigator import offline_plan, prompts
from pipelines.career_navigator.nodes import (current_focus, feedback_adjustments, language, prompt_vars,
                                              request_text)
from pipelines.career_navigator.offline import read_profile
from pipelines.career_navigator.offline_text import SAY
from pipelines.career_navigator.schemas import CareerGoals, FeedbackAnswer, FinalPlan
from pipelines.career_navigator.state import (PLAN_CONFIRMATION, REPORT_FEEDBACK, SATISFACTION_SCORE, SATISFIED_LEVELS,
                                              CareerContext, UserFeedback, WorkflowStage)
from pipelines.core.jsonable import as_prompt_json
from pipelines.career_navigator.tracking import integrity_errors, tracked
from pipelines.core.clock import now_iso



def _ask(state: Mapping[str, Any], kind: str, counter: str) -> tuple[UserFeedback, bool]:
    """Pause for the client's verdict; returns the feedback record and whether they are satisfied."""
    questions = state.get("pending_questions") or []
    answer: FeedbackAnswer = interrupt(
        {"kind": kind, "question": questions[0] if questions else "", "stage": state.get("current_stage"),
         counter: int(state.get(counter) or 0), "max_iterations": int(state.get("max_iterations") or 3)},
        response_schema=FeedbackAnswer)
    history = state.get("user_feedback_history") or []
    feedback = UserFeedback(
        feedback_id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{state.get('session_id', '')}/feedback/{len(history)}")),
        stage=str(state.get("current_stage")), satisfaction_level=answer.satisfaction_level.value,
        feedback_text=answer.feedback_text, timestamp=now_iso())
    return feedback, answer.satisfaction_level.value in SATISFIED_LEVELS


def _satisfaction_avg(state: Mapping[str, Any], feedback: UserFeedback) -> float:
    levels = [f["satisfaction_level"] for f in (state.get("user_feedback_history") or [])] + [feedback["satisfaction_level"]]
    return round(sum(SATISFACTION_SCORE[level] for level in levels) / len(levels), 3)


def _feedback_round(state: Mapping[str, Any], kind: str, counter: str, satisfied_stage: WorkflowStage,
                    retry_stage: WorkflowStage, limit_stage: WorkflowStage, limit_note: str) -> dict[str, Any]:
    """Ask for the client's verdict and decide the next stage: satisfied goes on; otherwise `counter` + 1,
    and another round unless that reaches max_iterations, in which case move on with a note saying so."""
    feedback, satisfied = _ask(state, kind, counter)
    rounds, limit = int(state.get(counter) or 0), int(state.get("max_iterations") or 3)
    update: dict[str, Any] = {"user_feedback_history": [feedback], "current_satisfaction": feedback["satisfaction_level"],
                              "requires_user_input": False, "pending_questions": [],
                              "system_metrics": {"user_satisfaction_avg": _satisfaction_avg(state, feedback)}}
    if satisfied:
        return {**update, "current_stage": satisfied_stage.value}
    update[counter] = rounds + 1
    if rounds + 1 >= limit:
        return {**update, "current_stage": limit_stage.value,
                "workflow_notes": [SAY(limit_note, language(state), limit=limit)]}
    return {**update, "current_stage": retry_stage.value}


@tracked("collect_feedback")
def collect_feedback(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    """The seed's external feedback step (§2.6), as an interrupt the UI or the CLI answers."""
    update = _feedback_round(state, REPORT_FEEDBACK, "iteration_count", satisfied_stage=WorkflowStage.GOAL_DECOMPOSITION,
                             retry_stage=WorkflowStage.PLANNING, limit_stage=WorkflowStage.GOAL_DECOMPOSITION,
                             limit_note="report.limit_note")
    if "iteration_count" in update:
        update["system_metrics"].update(iteration_count=update["iteration_count"],
                                        max_iterations=int(state.get("max_iterations") or 3))
    return update


def route_after_feedback(state: Mapping[str, Any]) -> str:
    if state.get("current_satisfaction") in SATISFIED_LEVELS:
        return "goal_decomposer"
    if int(state.get("iteration_count") or 0) >= int(state.get("max_iterations") or 3):
        return "goal_decomposer"
    return "supervisor"


def _plan_feedback(state: Mapping[str, Any]) -> str:
    history = [f for f in state.get("user_feedback_history") or [] if f["stage"] == WorkflowStage.FINAL_CONFIRMATION.value]
    return history[-1]["feedback_text"] if history and int(state.get("plan_revision_count") or 0) > 0 else ""


def _direction(state: Mapping[str, Any]) -> str:
    report = state.get("integrated_report") or {}
    goal = (state.get("cached_data") or {}).get("goal_analysis") or {}
    return (report.get("career_match") or {}).get("recommended_career") or goal.get("target_role") or \
        str((state.get("user_profile") or {}).get("target_role") or "—")


def _adjustments(state: Mapping[str, Any], ctx: CareerContext) -> tuple[list[str], str, list[str], int | None]:
    """Focus, pace, skills and weekly hours the client asked for in the final-plan feedback (when revising)."""
    text = _plan_feedback(state)
    focus = current_focus(state)
    if not text:
        return focus, "same", [], None
    adjustments = feedback_adjustments(state, ctx, text, "goal_decomposer.feedback_adjustments")
    asked = ctx.market.skills_in(text)
    return list(dict.fromkeys(focus + adjustments.focus_areas)), adjustments.pace, asked, adjustments.weekly_hours


@tracked("goal_decomposer")
def goal_decomposer(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    ctx, profile = runtime.context, state.get("user_profile") or {}
    from_feedback = state.get("current_satisfaction") is not None
    errors = integrity_errors(state, "goal_decomposer", WorkflowStage.GOAL_DECOMPOSITION.value,
                              ["integrated_report", "current_satisfaction"] if from_feedback else ["cached_data"])
    focus, pace, asked, _ = _adjustments(state, ctx)
    direction = _direction(state)
    facts = read_profile(profile, ctx.market, request_text(state), focus)
    gaps = offline_plan.skill_gaps(profile, focus, ctx.market, first=asked)
    goals = ctx.gateway.structured(
        "goal_decomposer.goals", CareerGoals,
        prompts.GOAL_DECOMPOSITION.format_messages(
            **prompt_vars(state), direction=direction, gaps=", ".join(ctx.market.skill(g).name(facts.lang) for g in gaps),
            feedback=_plan_feedback(state) or "—"),
        offline=lambda: offline_plan.decompose_goals(profile, direction, focus, pace, asked, ctx.market))
    update = {"current_stage": WorkflowStage.SCHEDULE_PLANNING.value,
              "career_goals": {**goals.model_dump(), "direction": direction, "pace": pace},
              "requires_user_input": False, "pending_questions": []}
    if errors:
        update["error_log"] = errors
    return update


@tracked("scheduler")
def scheduler(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    ctx, profile, lang = runtime.context, state.get("user_profile") or {}, language(state)
    errors = integrity_errors(state, "scheduler", WorkflowStage.SCHEDULE_PLANNING.value, ["career_goals"])
    goals = state.get("career_goals") or {}
    focus, pace, asked, hours = _adjustments(state, ctx)
    if hours:
        profile = {**profile, "weekly_hours": hours}  # the client's latest word on their time wins
    plan = ctx.gateway.structured(
        "scheduler.final_plan", FinalPlan,
        prompts.SCHEDULE.format_messages(
            **prompt_vars(state), goals=as_prompt_json(goals), constraints=as_prompt_json(profile.get("constraints") or []),
            weekly_hours=profile.get("weekly_hours") or 8, pace=pace),
        offline=lambda: offline_plan.build_schedule(profile, goals, focus, pace, asked, ctx.market))
    update = {"current_stage": WorkflowStage.FINAL_CONFIRMATION.value, "final_plan": plan.model_dump(),
              "requires_user_input": True, "pending_questions": [prompts.PLAN_QUESTION[lang]]}
    if errors:
        update["error_log"] = errors
    return update


@tracked("confirm_plan")
def confirm_plan(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    """Final confirmation: satisfied ends the run; otherwise revise goals and schedule within max_iterations."""
    return _feedback_round(state, PLAN_CONFIRMATION, "plan_revision_count", satisfied_stage=WorkflowStage.COMPLETED,
                           retry_stage=WorkflowStage.GOAL_DECOMPOSITION, limit_stage=WorkflowStage.COMPLETED,
                           limit_note="plan.limit_note")


def route_after_confirmation(state: Mapping[str, Any]) -> str:
    return END if state.get("current_stage") == WorkflowStage.COMPLETED.value else "goal_decomposer"
