"""Pydantic schemas of CareerNavigator: model outputs per task, interrupt answers, and the run input."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from pipelines.career_navigator.state import SATISFIED_LEVELS, UserSatisfactionLevel

Text = Field(default="", max_length=4000)


class GoalAnalysis(BaseModel):
    """coordinator: how clear the client's career goal is."""

    is_goal_clear: bool
    clarity_score: int = Field(ge=0, le=100)
    target_role: str | None = None
    missing_information: list[str] = []
    reasoning: str = ""


class PlanningStrategy(BaseModel):
    """planner: how the analysis should proceed."""

    strategy: str
    analysis_priorities: list[str] = []
    open_questions: list[str] = []


class FeedbackAdjustments(BaseModel):
    """supervisor: what the latest feedback asks the analysts to change."""

    focus_areas: list[str] = []
    keywords: list[str] = []
    pace: Literal["faster", "slower", "same"] = "same"
    weekly_hours: int | None = Field(default=None, ge=1, le=80)
    notes: str = ""


class SelfInsight(BaseModel):
    """user_profiler: strengths and gaps against the target role."""

    summary: str
    strengths: list[str]
    improvement_areas: list[str]
    transferable_skills: list[str] = []
    skill_match_pct: int = Field(ge=0, le=100)
    focus_notes: list[str] = []


class IndustryBrief(BaseModel):
    name: str
    demand_index: int = Field(ge=0, le=100)
    growth_rate_pct: float
    outlook: str


class SegmentBrief(BaseModel):
    name: str
    demand_index: int = Field(ge=0, le=100)
    note: str = ""


class IndustryResearch(BaseModel):
    """industry_researcher: demand, growth and trends where the client wants to go."""

    summary: str
    industries: list[IndustryBrief]
    trends: list[str]
    focus_segments: list[SegmentBrief] = []
    outlook: str = ""


class RoleOption(BaseModel):
    title: str
    fit_pct: int = Field(ge=0, le=100)
    reason: str = ""


class CareerAnalysis(BaseModel):
    """job_analyzer: the target role's requirements, pay, demand and the way in."""

    summary: str
    target_role: str
    match_score: float = Field(ge=0, le=1)
    salary_band: str
    demand: str
    required_skills: list[str]
    missing_skills: list[str]
    entry_path: list[str]
    alternative_roles: list[RoleOption] = []
    focus_specializations: list[SegmentBrief] = []


class CareerMatch(BaseModel):
    recommended_career: str
    match_score: float = Field(ge=0, le=1)


class IntegratedReport(BaseModel):
    """reporter: one report from the three analyses (and the feedback, on later iterations)."""

    executive_summary: str
    career_match: CareerMatch
    key_findings: list[str]
    recommendations: list[str]
    iteration_summary: str | None = None


class CareerGoal(BaseModel):
    title: str
    description: str
    timeframe: str
    success_criteria: list[str] = []
    related_skills: list[str] = []


class CareerGoals(BaseModel):
    """goal_decomposer: long-, medium- and short-term goals."""

    long_term_goals: list[CareerGoal] = Field(min_length=1)
    medium_term_goals: list[CareerGoal] = Field(min_length=1)
    short_term_goals: list[CareerGoal] = Field(min_length=1)


class ScheduleItem(BaseModel):
    week: int = Field(ge=1, le=12)
    title: str
    description: str
    skill: str | None = None
    hours: int = Field(ge=1, le=80)
    deliverable: str = ""


class FinalPlan(BaseModel):
    """scheduler: the 8-to-12-week action plan."""

    schedule_overview: str
    total_weeks: int = Field(ge=8, le=12)
    action_items: list[ScheduleItem] = Field(min_length=1)
    timeline: dict[str, list[str]]
    resources: list[str]


class FeedbackAnswer(BaseModel):
    """The answer to both feedback interrupts (the report and the final plan)."""

    model_config = ConfigDict(extra="forbid")
    satisfaction_level: UserSatisfactionLevel
    feedback_text: str = Text

    @field_validator("feedback_text")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @model_validator(mode="after")
    def _reason_when_not_satisfied(self) -> FeedbackAnswer:
        # Anything short of satisfied sends the work round again; without a reason it cannot change anything.
        if self.satisfaction_level.value not in SATISFIED_LEVELS and not self.feedback_text:
            raise ValueError(f"say what should change: a '{self.satisfaction_level.value.replace('_', ' ')}' "
                             "answer needs feedback text, which the next round works from")
        return self


class ProfileInput(BaseModel):
    """A client's profile as a run accepts it; unknown keys are kept, lengths are bounded."""

    model_config = ConfigDict(extra="allow")
    user_id: str = Field(default="anonymous", max_length=128)
    name: str = Field(default="", max_length=128)
    age: int | None = Field(default=None, ge=14, le=100)
    education: str = Field(default="", max_length=500)
    major: str = Field(default="", max_length=200)
    current_position: str = Field(default="", max_length=200)
    current_industry: str = Field(default="", max_length=200)
    years_of_experience: float | None = Field(default=None, ge=0, le=60)
    skills: list[str] = Field(default=[], max_length=60)
    interests: list[str] = Field(default=[], max_length=30)
    career_goals: str = Field(default="", max_length=4000)
    target_role: str = Field(default="", max_length=200)
    timeframe: str = Field(default="", max_length=200)
    constraints: list[str] = Field(default=[], max_length=20)
    location: str = Field(default="", max_length=200)
    weekly_hours: int | None = Field(default=None, ge=1, le=80)


class MessageInput(BaseModel):
    type: Literal["human", "ai", "system"] = "human"
    content: str = Field(max_length=8000)


class RunInput(BaseModel):
    """`run --input` and the page's input editor: the seed's initial state (§2.1, §7.1)."""

    model_config = ConfigDict(extra="forbid")
    session_id: str | None = Field(default=None, max_length=128)
    user_profile: ProfileInput
    messages: list[MessageInput] = Field(default=[], max_length=50)
    max_iterations: int = Field(default=3, ge=1, le=10)
