"""The recruiter's pydantic schemas: its run input, the model's intent and chat answers, and the actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from pipelines.core.text import own_words_language

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



class SlotChoice(BaseModel):
    """The recruiter's answer to proposed interview slots (seed §7: interview time): one slot (the candidates take it
    and the proposed slots after it, in order), a slot per candidate, or none (cancel)."""

    model_config = ConfigDict(extra="forbid")
    selected_slot: str | None = Field(default=None, max_length=40, description="The ISO start time of a proposed slot.")
    selected_slots: dict[str, str] | None = Field(default=None, description="candidate id -> ISO start time")
    cancel: bool = False


class EmailDraft(BaseModel):
    """The Communication agent's model answer: one outreach email."""

    subject: str = Field(min_length=1, max_length=300)
    body: str = Field(min_length=1, max_length=8000)


class ShortlistDecision(BaseModel):
    """The recruiter's answer to a shortlist (the chain's first approval, a candidate review's confirmation)."""

    model_config = ConfigDict(extra="forbid")
    approved_ids: list[str] = Field(default_factory=list, max_length=200, description="The candidate ids to go on with.")


class DraftEdit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: str | None = Field(default=None, max_length=300)
    body: str | None = Field(default=None, max_length=20000)


class DraftApproval(BaseModel):
    """The final approval of an email batch (seed §7: bulk send): which drafts go out, each one editable first."""

    model_config = ConfigDict(extra="forbid")
    approved_ids: list[str] = Field(default_factory=list, max_length=200, description="Outbox ids of the drafts to send.")
    edits: dict[str, DraftEdit] = Field(default_factory=dict, description="outbox id -> a new subject and/or body")


class CleanupDecision(BaseModel):
    """The recruiter's answer to the Pipeline agent's proposals (seed §7: pipeline cleanup): which to carry out."""

    model_config = ConfigDict(extra="forbid")
    approved_ids: list[str] = Field(default_factory=list, max_length=500,
                                    description="The ids of the proposals to carry out; the others are left as they are.")


# --- the planner: the Plan JSON (seed §4) and the plan-approval decision (seed §7) ---------------------------
AgentName = Literal["supervisor", "matching", "communication", "scheduling", "resume", "jd", "pipeline"]
Mode = Literal["sequential", "parallel", "interrupt"]
PlanWorkflowType = Literal["job_launch", "bulk_outreach", "candidate_review", "interview_scheduling", "pipeline_cleanup",
                           "chain"]
PLAN_WORKFLOW_TYPES: tuple[str, ...] = tuple(w for w in WORKFLOW_TYPES if w != "status_change") + ("chain",)
AGENTS: tuple[str, ...] = ("supervisor", "matching", "communication", "scheduling", "resume", "jd", "pipeline")


def _lang(lang: str | None, text: str = "") -> str:
    if lang in ("en", "zh"):
        return lang
    return own_words_language(text)


class PlanStep(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)
    step: int = Field(ge=1)
    agent: AgentName
    action: str = Field(min_length=1, max_length=300)
    mode: Mode = "sequential"


class EstimatedActions(BaseModel):
    model_config = ConfigDict(extra="ignore")
    emails: int = Field(default=0, ge=0)
    api_calls: int = Field(default=0, ge=0)


class Refusal(BaseModel):
    """A part of the request the guardrails refused (an outside recipient, personal data sent out) and why."""

    model_config = ConfigDict(extra="ignore")
    check: str = Field(max_length=40)
    reason: str = Field(max_length=500)


class Plan(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)
    goal: str = Field(min_length=1, max_length=2000)
    workflow_type: PlanWorkflowType
    agents_required: list[AgentName] = Field(default_factory=list)
    steps: list[PlanStep] = Field(default_factory=list)
    estimated_actions: EstimatedActions = Field(default_factory=EstimatedActions)
    requires_approval: bool = True
    # Set by the planner's own checks, never by the model: hidden from the schema the model is given.
    refusals: SkipJsonSchema[list[Refusal]] = Field(default_factory=list, exclude_if=lambda refusals: not refusals)

    @property
    def lang(self) -> str:
        """"zh" when the goal or the steps are written in Chinese."""
        return _lang(None, self.goal + " ".join(s.action for s in self.steps))

    def renumbered(self) -> Plan:
        """The steps numbered 1..n in their list order, and agents_required from the steps (supervisor aside)."""
        steps = [s.model_copy(update={"step": i}) for i, s in enumerate(self.steps, 1)]
        return self.model_copy(update={"steps": steps, "agents_required": agents_of(steps)})

    def with_steps(self, steps: Sequence[PlanStep]) -> Plan:
        return self.model_copy(update={"steps": list(steps)}).renumbered()

    def interrupts(self) -> list[PlanStep]:
        return [s for s in self.steps if s.mode == "interrupt"]


def agents_of(steps: Sequence[PlanStep]) -> list[str]:
    seen: list[str] = []
    for s in steps:
        if s.agent != "supervisor" and s.agent not in seen:
            seen.append(s.agent)
    return seen


# --- the plan-approval interrupt's resume value (seed §7) ----------------------------------------------------
class PlanDecision(BaseModel):
    """approve: run the plan; cancel: drop it; modify: edited steps (added, removed, reordered, changed: the list
    order is the new order) and/or a free-text instruction that regenerates the plan."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)
    action: Literal["approve", "modify", "cancel"]
    steps: list[PlanStep] | None = None
    instruction: str | None = Field(default=None, max_length=2000)

    @model_validator(mode="after")
    def _modify_needs_something(self) -> PlanDecision:
        if self.instruction is not None and not self.instruction:
            self.instruction = None
        if self.action == "modify" and not self.steps and not self.instruction:
            raise ValueError("modify needs the edited steps or an instruction")
        return self

    @classmethod
    def parse(cls, value: Any) -> PlanDecision:
        """The resume value as it comes: a PlanDecision, a dict, or a bare "approve" / "cancel"."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls(action=value.strip().lower())  # type: ignore[arg-type]
        return cls.model_validate(value)


