"""The recruiter's states: the router's, and the chat subgraph's input, internal and output states, plus the
run-time Context its nodes receive. Every text kept in state is PII-masked (the vault lives in the database)."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

if TYPE_CHECKING:
    from pipelines.core.models.gateway import ModelGateway
    from pipelines.recruiter.services import RecruiterServices
    from pipelines.recruiter.settings import RecruiterSettings

STATUS_APPROVAL = "status_change_approval"
CLEANUP_APPROVAL = "pipeline_cleanup_approval"
SLOT_CHOICE = "interview_slot_choice"
PLAN_APPROVAL = "plan_approval"
SHORTLIST_APPROVAL = "shortlist_approval"
FINAL_APPROVAL = "final_approval"


class ChatInput(TypedDict, total=False):
    message: str  # PII already masked when the message came in (spec.admit_input)
    role: str
    session_id: str
    user_id: str
    pii_types: list[str]  # what was masked in it


class ChatOutput(TypedDict, total=False):
    reply: str
    guardrail_findings: list[dict[str, Any]]
    action: dict[str, Any] | None
    blocked: bool
    language: str


class ChatState(ChatInput, ChatOutput, total=False):
    """The chat subgraph's working state (seed §3)."""

    history: list[dict[str, str]]
    context_jobs: list[dict[str, Any]]
    context_candidates: list[dict[str, Any]]
    masked_message: str
    input_verdict: str
    pii_types: list[str]
    llm_output: str
    model_calls: int
    refused: list[str]  # what the guardrails refused of the request, said at the end of the reply


class PlannerInput(ChatInput, total=False):
    workflow_type: str  # what classify_intent found (a direct workflow), or empty for a free-form plan


class PlannerOutput(ChatOutput, total=False):
    plan_id: str
    plan_status: str
    # The plan's revisions stay in the router's state after the planner ends: the finished run counts them too.
    plan_revisions: int
    max_plan_revisions: int


class PlannerState(PlannerInput, PlannerOutput, total=False):
    """The planner/supervisor's state (seed §4): the plan and its revisions, the dispatch cursor, and the keys its
    agents read and write (each agent subgraph has its own state; these are the ones it shares with the planner)."""

    plan: dict[str, Any] | None
    plan_diff: list[str]
    plan_reasons: list[str]   # what validation cut or refused
    plan_notes: list[str]     # what the last modification could not do, or the revision limit
    plan_decision: dict[str, Any] | None
    workflow_id: str
    cursor: int
    last_agent: str
    job_id: str
    candidate_id: str
    candidate_ids: list[str]
    top: int
    batch_id: str
    job_profile: dict[str, Any] | None
    jd_notes: list[str]
    resume_profile: dict[str, Any] | None
    resume_notes: list[str]
    shortlist: list[dict[str, Any]]
    matching_notes: list[str]
    drafts: Annotated[list[dict[str, Any]], operator.add]
    sent: dict[str, Any] | None
    decided_ids: list[int]   # outbox ids a final approval has decided on (sent, not sent or discarded)
    final_decision: dict[str, Any] | None
    handoff_to: str
    interviews: list[dict[str, Any]]
    scheduling_notes: list[str]
    released_events: list[str]  # bookings cancelled because their invitation did not go out
    release_notes: list[str]
    proposals: list[dict[str, Any]]
    applied: list[dict[str, Any]]
    pipeline_notes: list[str]
    summary: list[str]


class RouterState(ChatInput, PlannerOutput, total=False):
    """The router's state (seed §2): the message, where it went and why, and what came back."""

    intent: str
    workflow_type: str
    intent_source: str
    intent_reasoning: str
    paused_workflow: dict[str, Any] | None
    proposal: dict[str, Any] | None
    decision: dict[str, Any] | None
    workflow_id: str


@dataclass(frozen=True)
class RecruiterContext:
    """Run-time dependencies of the recruiter's nodes (LangGraph's context_schema)."""

    gateway: ModelGateway
    services: RecruiterServices
    policy: RecruiterSettings
