"""CareerNavigator (seed 000): its PipelineSpec for the runtime, the CLI and the dashboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.career_navigator.schemas import FeedbackAnswer, RunInput
from pipelines.career_navigator.state import PLAN_CONFIRMATION, REPORT_FEEDBACK, CareerContext, WorkflowStage
from pipelines.core.errors import validate_input
from pipelines.core.runtime.state_edit import input_field_rules
from pipelines.core.spec import Counter, InterruptSpec, PipelineSpec, RuntimeDeps, lazy
from pipelines.core.text import clip


def make_input(raw: Mapping[str, Any], thread_id: str) -> dict[str, Any]:
    """The seed's initial state (§2.1) from `{"user_profile": {...}, "messages": [...]}`, defaults of §7.3.2."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    message_types = {"human": HumanMessage, "ai": AIMessage, "system": SystemMessage}
    data = validate_input(RunInput, raw, "CareerNavigator")
    profile = {k: v for k, v in data.user_profile.model_dump().items() if v not in (None, "", [])}
    return {
        "session_id": data.session_id or thread_id,
        "current_stage": WorkflowStage.INITIAL.value,
        "user_profile": profile,
        "messages": [message_types[m.type](content=m.content) for m in data.messages],
        "iteration_count": 0,
        "max_iterations": data.max_iterations,
        "plan_revision_count": 0,
        "requires_user_input": False,
        "cached_data": None,
        "agent_tasks": [],
        "agent_outputs": [],
        "user_feedback_history": [],
        "error_log": [],
        "system_metrics": {},
    }


def run_title(raw: Mapping[str, Any]) -> str | None:
    """Who the session is for and where they want to go: "Li Wei · product manager → AI product manager"."""
    profile = raw.get("user_profile") if isinstance(raw.get("user_profile"), Mapping) else {}
    now, goal = profile.get("current_position"), profile.get("target_role") or profile.get("career_goals")
    parts = [str(profile["name"]) if profile.get("name") else None,
             " → ".join(clip(str(p), 50) for p in (now, goal) if p) or None]
    return " · ".join(p for p in parts if p) or None


def make_context(deps: RuntimeDeps) -> CareerContext:
    from pipelines.career_navigator.market import default_market

    return CareerContext(gateway=deps.gateway, market=default_market())


SPEC = PipelineSpec(
    id="career_navigator",
    build=lazy("pipelines.career_navigator.graph", "build_graph"),
    make_context=make_context,
    make_input=make_input,
    report=lazy("pipelines.career_navigator.report", "build_report"),
    counters=(
        Counter("iteration_count", "Report iterations", limit_field="max_iterations", limit=3,
                loop_edge=("collect_feedback", "supervisor")),
        Counter("plan_revision_count", "Plan revisions", limit_field="max_iterations", limit=3,
                loop_edge=("confirm_plan", "goal_decomposer")),
    ),
    interrupts=(
        InterruptSpec(REPORT_FEEDBACK, "Feedback on the integrated report", FeedbackAnswer,
                      "Satisfied or very satisfied moves on to goals; anything else sends the analysts round again."),
        InterruptSpec(PLAN_CONFIRMATION, "Confirm the final plan", FeedbackAnswer,
                      "Satisfied completes the session; anything else revises the goals and the schedule."),
    ),
    field_rules=input_field_rules(RunInput, "session_id", "user_profile", "max_iterations"),
    personal_fields=("user_profile", "messages"),
    field_order=("session_id", "current_stage", "user_profile", "messages", "planning_strategy", "agent_tasks",
                 "self_insight_result", "industry_research_result", "career_analysis_result", "agent_outputs",
                 "integrated_report", "user_feedback_history", "current_satisfaction", "career_goals", "final_plan",
                 "iteration_count", "plan_revision_count", "requires_user_input", "pending_questions"),
    done_message="The run is complete: the Report tab has the integrated report and the final plan.",
    run_title=run_title,
)
