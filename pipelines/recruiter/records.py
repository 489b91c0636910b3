"""Plain records of the recruiting data (a job, a candidate, a match) shared by the store, the matcher and the nodes."""

from __future__ import annotations

from dataclasses import dataclass, field

APPLICATION_STATUSES = ("new", "screening", "interview", "offer", "hired", "rejected", "withdrawn")


@dataclass(frozen=True)
class Job:
    id: str
    title: str
    description: str
    location: str | None = None
    skills: tuple[str, ...] = ()
    min_years: float | None = None


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    resume_text: str
    email: str | None = None
    phone: str | None = None
    skills: tuple[str, ...] = ()
    years_experience: float | None = None
    location: str | None = None
    source_file: str | None = None


@dataclass(frozen=True)
class Match:
    """One candidate ranked for one job: the score, its parts, and the reasons a recruiter reads."""

    candidate_id: str
    name: str
    score: float
    parts: dict[str, float] = field(default_factory=dict)
    matched_skills: tuple[str, ...] = ()
    missing_skills: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    filter_notes: tuple[str, ...] = ()
    passes_filters: bool = True
