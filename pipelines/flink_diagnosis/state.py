"""Flink diagnosis state as seed 001 defines it (§2.1), its input and output, and the nodes' Context."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Optional, TypedDict

from pipelines.core.models.gateway import ModelGateway


MAX_DIAGNOSE_RETRIES = 3  # seed §3.3


class DiagnosisStatus(StrEnum):
    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    FAILED = "failed"


class JobInfo(TypedDict, total=False):
    exception_id: int
    job_id: str
    job_name: Optional[str]
    error_type: Optional[str]
    error_message: str
    job_config: Optional[dict[str, Any]]
    attempts: int
    claimed_by: str


class DiagnosisRequest(TypedDict, total=False):
    """What the run should diagnose: one exception of the queue, a new one to enqueue, or the next pending."""

    exception_id: Optional[int]
    submit: Optional[dict[str, Any]]
    worker_id: str


class FlinkDiagnosisInput(TypedDict):
    request: DiagnosisRequest
    retry_count: int
    start_time: str


class DiagnosisState(TypedDict, total=False):
    request: DiagnosisRequest
    job_info: Optional[JobInfo]
    status: DiagnosisStatus
    retrieved_context: Optional[dict]
    diagnosis_result: Optional[dict]
    start_time: str
    end_time: Optional[str]
    error: Optional[str]
    retry_count: int
    accumulated_case: Optional[dict]


class FlinkDiagnosisOutput(TypedDict, total=False):
    job_info: Optional[JobInfo]
    status: DiagnosisStatus
    diagnosis_result: Optional[dict]
    error: Optional[str]
    end_time: Optional[str]


@dataclass
class FlinkContext:
    """Run-time dependencies of the diagnosis nodes (LangGraph `context_schema`)."""

    gateway: ModelGateway
    store: Any  # ExceptionStore
    knowledge: Any  # FlinkKnowledge
    backoff_s: float = 0.5
    accumulate_threshold: float = 0.8
    top_k: int = 3
    sleep: Callable[[float], None] = time.sleep
