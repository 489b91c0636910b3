"""The recruiter's states: the router's, and the chat subgraph's input, internal and output states, plus the
run-time Context its nodes receive. Every text kept in state is PII-masked (the vault lives in the database)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from pipelines.core.models.gateway import ModelGateway
    from pipelines.recruiter.services import RecruiterServices
    from pipelines.recruiter.settings import RecruiterSettings

STATUS_APPROVAL = "status_change_approval"
CLEANUP_APPROVAL = "pipeline_cleanup_approval"
SLOT_CHOICE = "interview_slot_choice"


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


class RouterState(ChatInput, ChatOutput, total=False):
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
