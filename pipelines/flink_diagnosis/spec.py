"""Flink job exception diagnosis (seed 001): its PipelineSpec for the runtime, the CLI and the dashboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from pipelines.core.clock import now_iso
from pipelines.core.errors import validate_input
from pipelines.core.spec import Counter, PipelineSpec, RuntimeDeps, lazy
from pipelines.flink_diagnosis.display import run_title
from pipelines.flink_diagnosis.schemas import DiagnosisOutput, RunInput
from pipelines.flink_diagnosis.settings import FlinkSettings, flink_settings
from pipelines.flink_diagnosis.state import MAX_DIAGNOSE_RETRIES, FlinkContext


def make_input(raw: Mapping[str, Any], thread_id: str) -> dict[str, Any]:
    """`{"exception_id": N}`, `{"exception": {job_id, error_message, ...}}` (or those fields at the top), or `{}`
    for the next pending exception of the queue."""
    data = dict(raw)
    if "error_message" in data or "job_id" in data:
        data = {"exception": data}
    parsed = validate_input(RunInput, data, "Flink diagnosis")
    request = {"exception_id": parsed.exception_id, "worker_id": parsed.worker_id or f"studio:{thread_id}",
               "submit": parsed.exception.model_dump() if parsed.exception else None}
    return {"request": request, "retry_count": 0, "start_time": now_iso("milliseconds")}


def make_context(deps: RuntimeDeps) -> FlinkContext:
    from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store

    settings = deps.settings
    return FlinkContext(gateway=deps.gateway, store=open_store(settings), knowledge=open_flink_knowledge(settings),
                        backoff_s=settings.backoff_s, accumulate_threshold=flink_settings(settings).accumulate_threshold)


def storage_errors() -> tuple[type[Exception], ...]:
    from pipelines.flink_diagnosis.store import ExceptionStoreError

    return (ExceptionStoreError,)


SPEC = PipelineSpec(
    id="flink_diagnosis",
    build=lazy("pipelines.flink_diagnosis.graph", "build_graph"),
    make_context=make_context,
    make_input=make_input,
    report=lazy("pipelines.flink_diagnosis.report", "build_report"),
    run_title=run_title,
    # A forked diagnosis must be one the model could have given: a known priority, confidence from 0 to 1.
    field_rules={"diagnosis_result": Optional[DiagnosisOutput]},
    counters=(Counter("retry_count", "Diagnose retries", limit=MAX_DIAGNOSE_RETRIES,
                      loop_edge=("diagnose", "diagnose")),),
    field_order=("request", "job_info", "status", "retrieved_context", "diagnosis_result", "accumulated_case",
                 "start_time", "end_time", "error", "retry_count"),
    done_message="The run is complete: the Diagnosis tab has the result, the Report tab the full report.",
    settings_model=FlinkSettings,
    cli=lazy("pipelines.flink_diagnosis.cli", "add_parser"),
    storage_errors=storage_errors,
)
