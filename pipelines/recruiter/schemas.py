"""The recruiter's pydantic schemas: its run input, the model's intent and chat answers, and the actions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["recruiter", "job_seeker"]
Intent = Literal["chat", "plan", "workflow"]
WORKFLOW_TYPES = ("status_change", "job_launch", "bulk_outreach", "candidate_review", "interview_scheduling",
                  "pipeline_cleanup")
ACTION_TYPES = ("search_candidates", "search_jobs", "show_job", "show_candidate", "candidate_status",
                "list_stage", "update_status", "draft_email")
READ_ACTIONS = frozenset({"search_candidates", "search_jobs", "show_job", "show_candidate", "candidate_status",
                          "list_stage"})
RECRUITER_ONLY_ACTIONS = frozenset({"search_candidates", "show_candidate", "candidate_status", "list_stage",
                                    "update_status", "draft_email"})


class RunInput(BaseModel):
    """One chat message to the recruiter (`python -m pipelines run recruiter --input FILE`)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    message: str = Field(min_length=1, description="What the recruiter or job seeker writes.")
    role: Role = "recruiter"
    session_id: str | None = Field(default=None, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$",
                                   description="The same id continues a conversation.")
    user_id: str | None = Field(default=None, max_length=120)


class IntentDecision(BaseModel):
    """classify_intent's answer (seed §2)."""

    intent: Intent = Field(description="chat: a question or single action; plan: a task of several steps; "
                                       "workflow: one of the named recruiting workflows")
    workflow_type: str | None = Field(default=None, description=f"for workflow or plan: one of {WORKFLOW_TYPES}")
    reasoning: str = Field(default="", max_length=600)


class Action(BaseModel):
    """An action a chat reply asks for; its fields depend on the type."""

    model_config = ConfigDict(extra="ignore")
    type: Literal["search_candidates", "search_jobs", "show_job", "show_candidate", "candidate_status", "list_stage",
                  "update_status", "draft_email"]
    job_id: str | None = None
    candidate_id: str | None = None
    query: str | None = Field(default=None, max_length=500)
    status: Literal["new", "screening", "interview", "offer", "hired", "rejected", "withdrawn"] | None = None
    top: int = Field(default=5, ge=1, le=50)


class ChatAnswer(BaseModel):
    """What the chat model answers: the reply text and at most one action."""

    reply: str = Field(description="The answer to the user, in their language.")
    action: Action | None = None


class StatusDecision(BaseModel):
    """The recruiter's answer to a proposed status change (seed §7: candidate status change)."""

    model_config = ConfigDict(extra="forbid")
    approve: bool = Field(description="Apply the change (true) or drop it (false).")
    note: str = Field(default="", max_length=500, description="Why, kept in the application's history.")



class CleanupDecision(BaseModel):
    """The recruiter's answer to the Pipeline agent's proposals (seed §7: pipeline cleanup): which to carry out."""

    model_config = ConfigDict(extra="forbid")
    approved_ids: list[str] = Field(default_factory=list, max_length=500,
                                    description="The ids of the proposals to carry out; the others are left as they are.")
