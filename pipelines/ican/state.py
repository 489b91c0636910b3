"""iCan's two states, as seed 003 separates them: the outer workflow state and the guide subgraph's own."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, TypedDict

from pipelines.core.models.gateway import ModelGateway


CLIENT_MESSAGE = "client_message"  # the kind of the interrupt that waits for the client's next message
MAX_CLIENT_TURNS = 3  # the seed's route forces the analysis once the client has sent three messages


class GuideStage(StrEnum):
    GREETING = "greeting"
    NEED_ASSESSMENT = "need_assessment"
    BASIC_INFO = "basic_info"
    DEEP_MINING = "deep_mining"
    SUFFICIENCY_CHECK = "sufficiency_check"
    AWAITING_CLIENT = "awaiting_client"
    HANDOFF = "handoff"


class Agent(StrEnum):
    GUIDE = "guide"
    RESUME_PARSER = "resume_parser"
    PROFILE_ANALYZER = "profile_analyzer"
    CAREER_MATCHER = "career_matcher"
    REPORTER = "reporter"


class ChatTurn(TypedDict):
    role: str  # "user" (the client) or "assistant" (the guide)
    content: str


class GuideState(TypedDict, total=False):
    """The guide subgraph's state: dialogue stages, what was collected, and the dig_deeper loop."""

    conversation_history: list[ChatTurn]
    collected_info: dict[str, Any]
    is_info_sufficient: bool
    # Every reply an inner node produces; the facade carries all of them out, not only the last.
    messages: Annotated[list[str], operator.add]
    current_stage: str
    missing_fields: list[str]
    emotion_state: str
    loop_count: int
    max_loops: int
    language: str


class GuideOutput(TypedDict, total=False):
    collected_info: dict[str, Any]
    is_info_sufficient: bool
    messages: list[str]
    current_stage: str
    missing_fields: list[str]
    emotion_state: str
    loop_count: int


class ICanInput(TypedDict, total=False):
    session_id: str
    raw_input: str
    conversation_history: list[ChatTurn]
    resume_text: str
    resume_name: str
    resume_issue: str
    resume_flagged: list[dict[str, Any]]
    language: str
    progress: int
    client_turns: int


class ICanWorkflowState(TypedDict, total=False):
    """The outer workflow (the seed's iCanWorkflowState) plus the counters the studio shows."""

    session_id: str
    conversation_history: list[ChatTurn]
    raw_input: str
    needs_more_info: bool
    current_agent: str
    progress: int
    resume_text: str
    resume_name: str
    resume_issue: str
    # Passages of the resume that read like instructions to an AI ({"text", "reasons"}): left out of resume_text,
    # shown to the counselor as flagged text, never used as evidence.
    resume_flagged: list[dict[str, Any]]
    structured_profile: dict[str, Any]
    riasec_scores: dict[str, int]
    riasec_evidence: dict[str, list[str]]
    holland_code: str
    career_matches: list[dict[str, Any]]
    target_match: dict[str, Any] | None  # the occupation the client named, and its rank among all
    final_report: str
    language: str
    # What the guide knows so far, and the guide's loop counters mapped out of the subgraph.
    collected_info: dict[str, Any]
    missing_fields: list[str]
    emotion_state: str
    client_turns: int
    guide_loop_count: int
    max_guide_loops: int
    forced_analysis: bool


class ICanOutput(TypedDict, total=False):
    session_id: str
    conversation_history: list[ChatTurn]
    progress: int
    structured_profile: dict[str, Any]
    riasec_scores: dict[str, int]
    holland_code: str
    career_matches: list[dict[str, Any]]
    final_report: str


@dataclass(frozen=True)
class ICanContext:
    """Run-time dependencies of iCan's nodes (LangGraph's context_schema)."""

    gateway: ModelGateway
    max_guide_loops: int = 8
