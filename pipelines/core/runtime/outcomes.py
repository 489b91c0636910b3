"""What driving a session returns: its status, step outcomes, pending interrupts and checkpoint entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pipelines.core.spec import InterruptSpec
from pipelines.core.trace.records import StepRecord

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

