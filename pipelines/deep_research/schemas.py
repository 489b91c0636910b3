"""Schemas of deep research: what the models answer (plan, decisions, findings), the interrupts' answers, the input."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

MAX_QUERY_CHARS = 4000


class StepType(StrEnum):
    RESEARCH = "research"
    PROCESSING = "processing"
    ANALYSIS = "analysis"


class Step(BaseModel):
    """DeerFlow's plan step; `execution_res` is filled by the agent the step was delegated to."""

    need_search: bool = True
    title: str = Field(min_length=1, max_length=300)
    description: str = Field("", max_length=2000)
    step_type: StepType = StepType.RESEARCH
    execution_res: str | None = None


class Plan(BaseModel):
    locale: str = "en-US"
    has_enough_context: bool = False
    thought: str = ""
    title: str = Field("", max_length=300)
    steps: list[Step] = Field(default_factory=list)


class PlanDraft(BaseModel):
    """What the planner model answers: the plan and its decomposition as a DAG of step dependencies."""

    plan: Plan
    depends_on: list[list[int]] = Field(
        default_factory=list, description="for each step, the 0-based indexes of the steps it needs first")


class Route(StrEnum):
    SMALL_TALK = "small_talk"
    DECLINE = "decline"
    RESEARCH = "research"


class CoordinatorVerdict(BaseModel):
    route: Route
    reply: str = Field("", description="the answer to small talk, why a request is declined, or for research, "
                                       "which part of the message was left out and why (empty when none was)")
    locale: str = "en-US"
    research_topic: str = ""


class DstQuestion(BaseModel):
    slot: Literal["sources", "language", "depth", "format"]
    question: str


class DstQuestions(BaseModel):
    """Perception: what the stage needs to know about the user's constraints, and what it already knows."""

    known: dict[str, str] = Field(default_factory=dict)
    questions: list[DstQuestion] = Field(default_factory=list)


class DstAnswers(BaseModel):
    """The DST form's answer: fill in what matters, or skip."""

    skip: bool = False
    sources: str = Field("", max_length=500, description="which collections or documents to rely on")
    language: str = Field("", max_length=100, description="the report's language")
    depth: Literal["", "brief", "standard", "thorough"] = ""
    format: str = Field("", max_length=300, description="what the report should look like (tables, length)")


class DstSummary(BaseModel):
    user_dst: str


class StepEdit(BaseModel):
    title: str = Field(min_length=1, max_length=300)
    description: str = Field("", max_length=2000)
    step_type: StepType = StepType.RESEARCH
    need_search: bool = True


_EDIT_PLAN = re.compile(r"^\s*\[EDIT_PLAN\]\s*", re.I)
_ACCEPTED = re.compile(r"^\s*\[ACCEPTED\]\s*$", re.I)


class PlanReview(BaseModel):
    """human_feedback's answer: accept the plan, or edit it — the whole new list of steps (changed, added, removed,
    reordered) and/or an instruction in words. DeerFlow's strings are taken too: "[ACCEPTED]", "[EDIT_PLAN] …"."""

    action: Literal["accept", "edit"] = "accept"
    steps: list[StepEdit] | None = None
    instruction: str = Field("", max_length=2000)

    @model_validator(mode="before")
    @classmethod
    def _from_deerflow_string(cls, value: Any) -> Any:
        if isinstance(value, str):
            if _ACCEPTED.match(value) or not value.strip():
                return {"action": "accept"}
            if _EDIT_PLAN.match(value):
                return {"action": "edit", "instruction": _EDIT_PLAN.sub("", value).strip()}
            return {"action": "edit", "instruction": value.strip()}
        return value

    @model_validator(mode="after")
    def _edit_says_what(self) -> PlanReview:
        if self.action == "edit" and self.steps is None and not self.instruction.strip():
            raise ValueError("an edit needs the new steps or an instruction")
        if self.steps is not None and not self.steps:
            raise ValueError("a plan needs at least one step")
        return self


class Decision(BaseModel):
    """The central agent's decision for one turn (Stack-Planner)."""

    action: Literal["think", "reflect", "summarize", "delegate", "finish"]
    thought: str = ""
    pop_count: int = Field(0, ge=0, le=50, description="reflect: how many entries to pop off the memory stack")
    step_index: int | None = Field(None, description="delegate: the 0-based plan step to carry out")
    agent: Literal["researcher", "coder", "analyst"] | None = None
    task_description: str = ""


class Finding(BaseModel):
    text: str = Field(description="a sentence stated by the passage, quoted or closely paraphrased")
    ref: str = Field(description="the passage's reference, e.g. P3")


class Findings(BaseModel):
    """The researcher's extraction: what the passages say about the step, each claim with its passage."""

    findings: list[Finding] = Field(default_factory=list)
    conclusion: str = ""


class Analysis(BaseModel):
    points: list[Finding] = Field(default_factory=list)
    conclusion: str = ""


class CodeDraft(BaseModel):
    code: str
    explanation: str = ""


class ResourceInput(BaseModel):
    type: Literal["rag"] = "rag"
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{1,38}[a-z0-9]$")
    title: str = Field("", max_length=200)
    documents: list[str] = Field(default_factory=list, max_length=500)


class RunInput(BaseModel):
    """`python -m pipelines run deep_research --input FILE` and the page's start form."""

    user_query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    locale: Literal["en-US", "zh-CN"] | None = None
    auto_accepted_plan: bool = False
    enable_background_investigation: bool = True
    documents: list[str] = Field(default_factory=list, max_length=200)
    collections: list[str] = Field(default_factory=list, max_length=20)
    # What the documents and collections became once admitted (the uploads' ids): the run's `resources`.
    resources: list[ResourceInput] = Field(default_factory=list, max_length=40)
    # What the start page said about the uploads (skipped files, flagged or hidden passages), kept with the run's
    # input so that a reload or a second tab shows it too; the run itself never reads it.
    upload_notes: list[str] = Field(default_factory=list, max_length=200)

    @field_validator("user_query")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is empty")
        return value.strip()
