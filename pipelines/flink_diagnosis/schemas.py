"""Pydantic schemas: the model's DiagnosisOutput, a submitted exception and the run input."""

from __future__ import annotations

import json
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipelines.flink_diagnosis.categories import CATEGORY_IDS, UNKNOWN

MAX_MESSAGE_CHARS = 65_000  # an exception's error_message: longer ones are refused, never cut
MAX_CONFIG_CHARS = 65_000  # its job_config, written as JSON


def over_limit(length: int, limit: int) -> str:
    """Why an over-long field is refused (after its name): its length and the limit."""
    return f"{length:,} characters; the limit is {limit:,}"


def config_length(config: dict[str, Any]) -> int:
    return len(json.dumps(config, ensure_ascii=False, default=str))


class DiagnosisOutput(BaseModel):
    """Seed §3.3's structured output, plus the root-cause category."""

    root_cause: str = Field(description="The root cause in one or two sentences")
    detailed_analysis: str = Field(description="How the evidence in the error and the context leads to the cause")
    suggested_fix: str = Field(description="Concrete steps, naming Flink configuration keys where they apply")
    priority: Literal["high", "medium", "low"]
    confidence: float = Field(ge=0.0, le=1.0)
    related_docs: list[str] = Field(default_factory=list, description="Titles or URLs of the documents used")
    category: str = Field(default=UNKNOWN, description="One of the root-cause categories, or 'unknown'")

    @field_validator("category", mode="before")
    @classmethod
    def known_category(cls, value: Any) -> str:
        text = str(value or "").strip().lower()
        return text if text in CATEGORY_IDS else UNKNOWN

    @field_validator("related_docs", mode="before")
    @classmethod
    def distinct_docs(cls, value: Any) -> Any:
        # A model (or the engine, from two snippets of one page) may name a document twice: list it once.
        if not isinstance(value, (list, tuple)):
            return value
        texts = [v.strip() if isinstance(v, str) else v for v in value]
        return [v for i, v in enumerate(texts) if v != "" and (not isinstance(v, str) or v not in texts[:i])]

    @field_validator("priority", mode="before")
    @classmethod
    def lower_priority(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value


class SubmittedException(BaseModel):
    """One job exception as an engineer or a monitoring system hands it in (a `.jsonl` line)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    job_id: str = Field(min_length=1, max_length=128)
    error_message: str = Field(min_length=1)
    job_name: Optional[str] = Field(default=None, max_length=256)
    error_type: Optional[str] = Field(default=None, max_length=128)
    job_config: Optional[dict[str, Any]] = None

    @field_validator("job_id", mode="before")
    @classmethod
    def id_as_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) else value

    @field_validator("error_message")
    @classmethod
    def bounded_message(cls, value: str) -> str:
        # Refused, not cut: a cut trace would be diagnosed and stored as if it were the whole one.
        if len(value) > MAX_MESSAGE_CHARS:
            raise ValueError(over_limit(len(value), MAX_MESSAGE_CHARS))
        return value

    @field_validator("job_config")
    @classmethod
    def bounded_config(cls, value: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
        if value is not None and (length := config_length(value)) > MAX_CONFIG_CHARS:
            raise ValueError(over_limit(length, MAX_CONFIG_CHARS))
        return value


class RunInput(BaseModel):
    """A studio run: an exception of the queue by id, a new exception, or (neither) the next pending one."""

    model_config = ConfigDict(extra="forbid")

    exception_id: Optional[int] = Field(default=None, ge=1)
    exception: Optional[SubmittedException] = None
    worker_id: Optional[str] = Field(default=None, max_length=128)
