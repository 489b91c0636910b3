"""CareerNavigator state as seed 000 defines it: stages, profile, tasks, outputs, feedback, metrics."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from pipelines.core.models.gateway import ModelGateway
from pipelines.career_navigator.market import MarketDataProvider


# The kinds of the two interrupts (PipelineSpec.interrupts): the report feedback and the plan confirmation.
REPORT_FEEDBACK = "report_feedback"
PLAN_CONFIRMATION = "plan_confirmation"


class WorkflowStage(StrEnum):
    INITIAL = "initial"
    PLANNING = "planning"
    PARALLEL_ANALYSIS = "parallel_analysis"
    RESULT_INTEGRATION = "result_integration"
    USER_FEEDBACK = "user_feedback"
    GOAL_DECOMPOSITION = "goal_decomposition"
    SCHEDULE_PLANNING = "schedule_planning"
    FINAL_CONFIRMATION = "final_confirmation"
    COMPLETED = "completed"


class UserSatisfactionLevel(StrEnum):
    VERY_DISSATISFIED = "very_dissatisfied"
    DISSATISFIED = "dissatisfied"
    NEUTRAL = "neutral"
    SATISFIED = "satisfied"
    VERY_SATISFIED = "very_satisfied"


SATISFIED_LEVELS = frozenset({UserSatisfactionLevel.SATISFIED.value, UserSatisfactionLevel.VERY_SATISFIED.value})
SATISFACTION_SCORE = {"very_dissatisfied": 0.0, "dissatisfied": 0.25, "neutral": 0.5, "satisfied": 0.75,
                      "very_satisfied": 1.0}


class AgentStatus(StrEnum):
    IDLE = "idle"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


class UserProfile(TypedDict, total=False):
    user_id: str
    name: str
    age: int
    education: str
    major: str
    current_position: str
    current_industry: str
    years_of_experience: float
    skills: list[str]
    interests: list[str]
    career_goals: str
    target_role: str
    timeframe: str
    constraints: list[str]
    location: str
    weekly_hours: int


class AgentTask(TypedDict):
    task_id: str
    agent_name: str
    task_type: str
    priority: int
    description: str
    input_data: dict[str, Any]  # user_profile, feedback_adjustments, iteration_count
    status: str
    created_at: str


class AgentOutput(TypedDict):
    task_id: str
    agent_name: str
    status: str
    summary: str
    iteration_count: int
    execution_time_ms: float
    provider: str
    created_at: str


class UserFeedback(TypedDict):
    feedback_id: str
    stage: str
    satisfaction_level: str
    feedback_text: str
    timestamp: str


class ErrorEntry(TypedDict):
    error: str
    timestamp: str
    session_id: str
    stage: str
    node: str


def merge_system_metrics(current: dict[str, Any] | None, update: dict[str, Any] | None) -> dict[str, Any]:
    """Fold one node's metrics into the running totals; parallel analysts write in the same step."""
    merged = dict(current or {})
    update = update or {}
    merged["response_time"] = {**merged.get("response_time", {}), **update.get("response_time", {})}
    runs = {k: dict(v) for k, v in merged.get("agent_runs", {}).items()}
    for agent, counts in update.get("agent_runs", {}).items():
        slot = runs.setdefault(agent, {"ok": 0, "failed": 0})
        slot["ok"] += counts.get("ok", 0)
        slot["failed"] += counts.get("failed", 0)
    merged["agent_runs"] = runs
    merged["agent_success_rate"] = {a: round(c["ok"] / max(1, c["ok"] + c["failed"]), 3) for a, c in runs.items()}
    calls = {k: merged.get("market_calls", {}).get(k, 0) + update.get("market_calls", {}).get(k, 0)
             for k in ("ok", "failed")}
    merged["market_calls"] = calls
    merged["mcp_call_success_rate"] = round(calls["ok"] / (calls["ok"] + calls["failed"]), 3) if any(calls.values()) else None
    merged["error_count"] = int(merged.get("error_count", 0)) + int(update.get("error_count", 0))
    for key in ("user_satisfaction_avg", "iteration_count", "max_iterations", "last_updated"):
        if key in update:
            merged[key] = update[key]
    return merged


class CareerNavigatorInput(TypedDict, total=False):
    """What a run starts from (seed §2.1 and the defaults of §7.3.2)."""

    session_id: str
    current_stage: str
    user_profile: UserProfile
    messages: Annotated[list[AnyMessage], add_messages]
    iteration_count: int
    max_iterations: int
    plan_revision_count: int
    requires_user_input: bool
    cached_data: dict[str, Any] | None
    agent_tasks: Annotated[list[AgentTask], operator.add]
    agent_outputs: Annotated[list[AgentOutput], operator.add]
    user_feedback_history: Annotated[list[UserFeedback], operator.add]
    error_log: Annotated[list[ErrorEntry], operator.add]
    system_metrics: Annotated[dict[str, Any], merge_system_metrics]


class CareerNavigatorState(CareerNavigatorInput, total=False):
    """The whole working state: the input plus everything the nodes write."""

    next_node: str | None
    planning_strategy: str | None
    pending_questions: list[str]
    self_insight_result: dict[str, Any] | None
    industry_research_result: dict[str, Any] | None
    career_analysis_result: dict[str, Any] | None
    integrated_report: dict[str, Any] | None
    current_satisfaction: str | None
    career_goals: dict[str, Any] | None
    final_plan: dict[str, Any] | None
    workflow_notes: Annotated[list[str], operator.add]


class CareerNavigatorOutput(TypedDict, total=False):
    """What a finished run hands back to its caller."""

    session_id: str
    current_stage: str
    integrated_report: dict[str, Any] | None
    career_goals: dict[str, Any] | None
    final_plan: dict[str, Any] | None
    user_feedback_history: list[UserFeedback]
    iteration_count: int
    workflow_notes: list[str]
    error_log: list[ErrorEntry]
    system_metrics: dict[str, Any]


@dataclass
class CareerContext:
    """Run-time dependencies of the nodes (LangGraph `context_schema`): never stored in state."""

    gateway: ModelGateway
    market: MarketDataProvider
