"""iCan's schemas: the run input, the guide's answer form, and every model output (the offline engine returns the same)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, StringConstraints
from pydantic_core import PydanticCustomError

MAX_MESSAGE_CHARS = 4000
RIASEC = ("R", "I", "A", "S", "E", "C")


def too_long_message(length: int) -> str:
    return (f"The message is {length:,} characters; the limit is {MAX_MESSAGE_CHARS:,}: shorten it, or send the "
            "rest as the next message")


def _within_limit(text: str) -> str:
    if len(text) > MAX_MESSAGE_CHARS:
        raise PydanticCustomError("message_too_long", "{reason}", {"reason": too_long_message(len(text))})
    return text


ClientText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1), AfterValidator(_within_limit)]


class RunInput(BaseModel):
    """`{"raw_input": "<the client's first message>"}`, optionally with a resume (text, or a file to read)."""

    model_config = ConfigDict(extra="forbid")
    raw_input: ClientText
    session_id: str | None = None
    language: Literal["en", "zh"] | None = Field(default=None, description="else set by the first message")
    resume_text: str | None = Field(default=None, max_length=200_000)
    resume_name: str | None = Field(default=None, max_length=200)
    resume_file: str | None = Field(default=None, description="path of a PDF, DOCX, TXT or Markdown resume")


class ClientMessage(RootModel[ClientText]):
    """The answer to the guide's question: the client's next message, as a plain string."""


class NeedAssessment(BaseModel):
    need: Literal["career_change", "job_search", "direction", "promotion", "further_study", "other"] = "other"
    emotion: Literal["anxious", "confused", "frustrated", "hopeful", "neutral"] = "neutral"
    acknowledgement: str = Field(default="", description="one or two empathetic sentences in the client's language")


class BasicInfo(BaseModel):
    """What the client has told the guide so far."""

    education: str | None = None
    major: str | None = None
    current_role: str | None = None
    industry: str | None = None
    years_experience: float | None = Field(default=None, ge=0, le=60)
    skills: list[str] = Field(default_factory=list)
    interests: list[str] = Field(default_factory=list)
    values: list[str] = Field(default_factory=list)
    target: str | None = None


class FollowUpQuestion(BaseModel):
    field: str
    question: str = Field(description="one warm, specific question in the client's language")


class SufficiencyJudgement(BaseModel):
    is_sufficient: bool
    missing_fields: list[str] = Field(default_factory=list)
    reason: str = ""


class EducationEntry(BaseModel):
    degree: str | None = None
    field: str | None = None
    school: str | None = None
    year: str | None = None


class ExperienceEntry(BaseModel):
    title: str | None = None
    organization: str | None = None
    period: str | None = None
    summary: str | None = None


class StructuredProfile(BaseModel):
    """The client's profile as the resume parser extracts it (from the resume, else from the conversation)."""

    source: Literal["resume", "conversation", "resume+conversation"] = "conversation"
    name: str | None = None
    education: list[EducationEntry] = Field(default_factory=list)
    experience: list[ExperienceEntry] = Field(default_factory=list)
    years_experience: float | None = Field(default=None, ge=0, le=60)
    skills: list[str] = Field(default_factory=list)
    target: str | None = None
    summary: str = ""


Score = Annotated[int, Field(ge=0, le=100)]


class RiasecScores(BaseModel):
    R: Score
    I: Score  # noqa: E741 - the Holland letter
    A: Score
    S: Score
    E: Score
    C: Score


class RiasecProfile(BaseModel):
    scores: RiasecScores = Field(description="0–100 for each Holland type")
    holland_code: str = Field(pattern=r"^[RIASEC]{3}$")
    evidence: dict[str, list[str]] = Field(default_factory=dict, description="quoted phrases behind each score")


class CareerMatch(BaseModel):
    onet_soc_code: str
    title: str
    title_zh: str | None = None
    score: float = Field(ge=0, le=1)
    interest_fit: float = Field(ge=-1, le=1)
    skill_overlap: list[str] = Field(default_factory=list)
    high_point_code: str = ""
    reason: str
