"""Flink job exception diagnosis (seed 001): its PipelineSpec for the runtime, the CLI and the dashboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from pydantic import ValidationError

from pipelines.core.registry import Counter, InvalidInput, PipelineSpec, RuntimeDeps
from pipelines.core.session import format_validation_error
from pipelines.flink_diagnosis.display import run_title
from pipelines.flink_diagnosis.graph import build_graph
from pipelines.flink_diagnosis.nodes import now_iso
from pipelines.flink_diagnosis.report import build_report
from pipelines.flink_diagnosis.schemas import DiagnosisOutput, RunInput
from pipelines.flink_diagnosis.state import MAX_DIAGNOSE_RETRIES, FlinkContext


def make_input(raw: Mapping[str, Any], thread_id: str) -> dict[str, Any]:
    """`{"exception_id": N}`, `{"exception": {job_id, error_message, ...}}` (or those fields at the top), or `{}`
    for the next pending exception of the queue."""
    data = dict(raw)
    if "error_message" in data or "job_id" in data:
        data = {"exception": data}
    try:
        parsed = RunInput.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput(f"invalid Flink diagnosis input: {format_validation_error(exc)}") from exc
    request = {"exception_id": parsed.exception_id, "worker_id": parsed.worker_id or f"studio:{thread_id}",
               "submit": parsed.exception.model_dump() if parsed.exception else None}
    return {"request": request, "retry_count": 0, "start_time": now_iso()}


def make_context(deps: RuntimeDeps) -> FlinkContext:
    from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store

    settings = deps.settings
    return FlinkContext(gateway=deps.gateway, store=open_store(settings), knowledge=open_flink_knowledge(settings),
                        backoff_s=settings.backoff_s, accumulate_threshold=settings.accumulate_threshold)


SPEC = PipelineSpec(
    id="flink_diagnosis",
    title="Flink job diagnosis",
    seed="001_a5c4e987a87d8a7b.txt",
    summary="Collect a failed job's exception from the queue, retrieve similar cases and docs, diagnose with "
            "retries, store the diagnosis and grow the knowledge base from confident ones.",
    build=build_graph,
    make_context=make_context,
    make_input=make_input,
    report=build_report,
    run_title=run_title,
    # A forked diagnosis must be one the model could have given: a known priority, confidence from 0 to 1.
    field_rules={"diagnosis_result": Optional[DiagnosisOutput]},
    counters=(Counter("retry_count", "Diagnose retries", limit=MAX_DIAGNOSE_RETRIES,
                      loop_edge=("diagnose", "diagnose")),),
    field_order=("request", "job_info", "status", "retrieved_context", "diagnosis_result", "accumulated_case",
                 "start_time", "end_time", "error", "retry_count"),
    done_message="The run is complete: the Diagnosis tab has the result, the Report tab the full report.",
)
