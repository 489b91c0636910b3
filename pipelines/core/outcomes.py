"""What driving a session returns: its status, step outcomes, pending interrupts and checkpoint entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ValidationError

from pipelines.core.registry import InterruptSpec
from pipelines.core.trace import StepRecord

SessionStatus = Literal["new", "ready", "waiting", "completed", "failed"]


@dataclass
class PendingInterrupt:
    """An `interrupt()` waiting for an answer: its kind, what it shows, and the schema of the answer."""

    id: str
    kind: str
    value: dict[str, Any]
    spec: InterruptSpec | None


@dataclass
class StepOutcome:
    record: StepRecord | None
    status: SessionStatus
    next: tuple[str, ...] = ()
    error: str | None = None


@dataclass
class CheckpointInfo:
    checkpoint_id: str
    parent_id: str | None
    step: int
    source: str
    next: tuple[str, ...]
    created_at: str
    on_branch: bool
    produced_by: list[str] = field(default_factory=list)


def format_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()))
        message = str(err.get("msg", "")).removeprefix("Value error, ")  # our own validators speak for themselves
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)
