"""The diagnosis nodes of seed §3 and the routes of §4; each node catches its own errors into `state.error` (§5)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from langgraph.graph import END
from langgraph.runtime import Runtime
from langsmith import traceable

from pipelines.core.models.failures import answer_or
from pipelines.core.clock import now_iso
from pipelines.core.text import clip
from pipelines.flink_diagnosis.categories import UNKNOWN
from pipelines.flink_diagnosis.display import threshold_verdict
from pipelines.flink_diagnosis.offline import diagnose_offline
from pipelines.flink_diagnosis.prompts import DIAGNOSE
from pipelines.flink_diagnosis.schemas import DiagnosisOutput
from pipelines.flink_diagnosis.state import MAX_DIAGNOSE_RETRIES, DiagnosisStatus, FlinkContext

log = logging.getLogger(__name__)
QUERY_CHARS = 4000
PROMPT_MESSAGE_CHARS = 12_000



def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".strip().rstrip(":")


def _find_submission(store: Any, submit: Mapping[str, Any], worker_id: str) -> int | None:
    """The exception this run already enqueued, so a rewound collect does not enqueue it twice."""
    for row in store.list_exceptions(job_id=submit["job_id"], limit=50):
        if row["error_message"] == submit["error_message"] and row.get("claimed_by") == worker_id:
            return int(row["exception_id"])
    return None


def _claim(ctx: FlinkContext, request: Mapping[str, Any]) -> dict[str, Any] | None:
    worker = str(request.get("worker_id") or "studio")
    exception_id = request.get("exception_id")
    if request.get("submit") and not exception_id:
        exception_id = _find_submission(ctx.store, request["submit"], worker) or \
            ctx.store.add_exception(**request["submit"])
    if not exception_id:
        return ctx.store.claim(worker)
    job = ctx.store.claim_by_id(int(exception_id), worker)
    if job is not None:
        return job
    row = ctx.store.get(int(exception_id))
    if row is None:
        raise LookupError(f"exception {exception_id} is not in the queue")
    if row["status"] == DiagnosisStatus.COMPLETED.value:  # diagnosing a finished one again, from the studio
        ctx.store.requeue(int(exception_id))
        job = ctx.store.claim_by_id(int(exception_id), worker)
    if job is None:
        raise RuntimeError(f"exception {exception_id} is being diagnosed by {row.get('claimed_by') or 'another worker'}")
    return job


@traceable(name="collect_job_exception")
def collect(state: dict[str, Any], runtime: Runtime[FlinkContext]) -> dict[str, Any]:
    """§3.1: claim one exception of the queue (SELECT … FOR UPDATE SKIP LOCKED, then in_progress)."""
    try:
        job = _claim(runtime.context, state.get("request") or {})
    except Exception as exc:  # noqa: BLE001 - §5.1: the route decides
        return {"error": f"collect failed: {_describe(exc)}", "status": DiagnosisStatus.FAILED.value}
    if job is None:
        return {"job_info": None, "status": DiagnosisStatus.COMPLETED.value, "end_time": now_iso("milliseconds"), "error": None}
    return {"job_info": job, "status": DiagnosisStatus.IN_PROGRESS.value, "error": None}


@traceable(name="retrieve_knowledge")
def retrieve(state: dict[str, Any], runtime: Runtime[FlinkContext]) -> dict[str, Any]:
    """§3.2: top cases (filtered by error type) and top doc snippets for `error_type + error_message`."""
    ctx, job = runtime.context, state["job_info"]
    query = clip(f"{job.get('error_type') or ''} {job.get('error_message') or ''}".strip(), QUERY_CHARS)
    try:
        ctx.knowledge.ensure_indexed()
        cases = ctx.knowledge.search_cases(query, job.get("error_type"), k=ctx.top_k)
        docs = ctx.knowledge.search_docs(query, k=ctx.top_k)
    except Exception as exc:  # noqa: BLE001 - without context the diagnosis still runs, and says so
        log.warning("retrieval failed: %s", exc)
        return {"retrieved_context": {"query": query, "cases": [], "docs": [], "error": _describe(exc)}}
    return {"retrieved_context": {"query": query, "cases": cases, "docs": docs}}


def _format_cases(cases: list[dict[str, Any]]) -> str:
    return "\n".join(f"- [{c['case_id']}, similarity {c['similarity']:.2f}, {c['category']}] root cause: "
                     f"{c['root_cause']} Fix: {c['solution']}" for c in cases) or "(none found)"


def _format_docs(docs: list[dict[str, Any]]) -> str:
    return "\n".join(f"- {d['title']} ({d['url']}): {d['excerpt']}" for d in docs) or "(none found)"


def diagnosis_messages(job: Mapping[str, Any], context: Mapping[str, Any]) -> list:
    return DIAGNOSE.format_messages(
        job_id=job.get("job_id", ""), job_name=job.get("job_name") or "-", error_type=job.get("error_type") or "-",
        error_message=clip(str(job.get("error_message") or ""), PROMPT_MESSAGE_CHARS),
        job_config=json.dumps(job.get("job_config") or {}, ensure_ascii=False, indent=1)[:4000],
        cases=_format_cases(list(context.get("cases") or [])), docs=_format_docs(list(context.get("docs") or [])))


@traceable(name="diagnose_exception")
def diagnose(state: dict[str, Any], runtime: Runtime[FlinkContext]) -> dict[str, Any]:
    """§3.3: structured diagnosis; a retry (error set) waits an exponential backoff first and counts itself."""
    ctx, job = runtime.context, state["job_info"]
    context = state.get("retrieved_context") or {}
    update: dict[str, Any] = {}
    retry = int(state.get("retry_count") or 0)
    if state.get("error"):
        retry += 1
        update["retry_count"] = retry
        ctx.sleep(ctx.backoff_s * 2 ** (retry - 1))
    def diagnosed() -> dict[str, Any]:
        output = ctx.gateway.structured(
            "diagnose", DiagnosisOutput, diagnosis_messages(job, context),
            offline=lambda: diagnose_offline(job, context),
            # The graph retries (seed §3.3); the offline engine answers only if the last retry fails too.
            max_retries=0, fallback=ctx.gateway.settings.fallback_to_offline and retry >= MAX_DIAGNOSE_RETRIES)
        return {**update, "diagnosis_result": output.model_dump(), "error": None}

    # §5.1: any failure sets `error`, and the route retries diagnose or gives up
    return answer_or(diagnosed, lambda failure: {**update, "error": f"diagnose failed: {_describe(failure.error)}",
                                                 "diagnosis_result": None}, also=(Exception,))


@traceable(name="store_diagnosis")
def store(state: dict[str, Any], runtime: Runtime[FlinkContext]) -> dict[str, Any]:
    """§3.4: write the diagnosis and mark the exception completed (only while this run holds the claim)."""
    ctx, job = runtime.context, state["job_info"]
    try:
        if not ctx.store.complete(job["exception_id"], state["diagnosis_result"], worker_id=job.get("claimed_by")):
            return {"error": f"store failed: the claim on exception {job['exception_id']} was lost (lease expired)"}
    except Exception as exc:  # noqa: BLE001 - §5.1
        return {"error": f"store failed: {_describe(exc)}"}
    return {"status": DiagnosisStatus.COMPLETED.value, "end_time": now_iso("milliseconds")}


@traceable(name="accumulate_knowledge")
def accumulate(state: dict[str, Any], runtime: Runtime[FlinkContext]) -> dict[str, Any]:
    """§3.5: a confident diagnosis becomes a case; the same error pattern again only raises its hit count."""
    ctx, job, result = runtime.context, state["job_info"], state.get("diagnosis_result") or {}
    confidence = float(result.get("confidence") or 0.0)
    if confidence < ctx.accumulate_threshold or result.get("category", UNKNOWN) == UNKNOWN:
        # Worded in the digits the pages show, so a 0.795 never reads "0.80 below 0.80".
        return {"accumulated_case": {"added": False, "reason": threshold_verdict(confidence, ctx.accumulate_threshold)
                                     if confidence < ctx.accumulate_threshold else "category unknown"}}
    try:
        case, added = ctx.knowledge.add_case(
            category=result["category"], error_type=job.get("error_type"), error_message=job["error_message"],
            root_cause=result["root_cause"], solution=result["suggested_fix"], confidence=confidence,
            created_at=now_iso("milliseconds"))
    except Exception as exc:  # noqa: BLE001 - the diagnosis is stored already; the case can wait
        return {"accumulated_case": {"added": False, "reason": f"knowledge base unavailable: {_describe(exc)}"}}
    return {"accumulated_case": {"added": added, "case_id": case["case_id"], "hit_count": case.get("hit_count", 0),
                                 "reason": f"new case ({threshold_verdict(confidence, ctx.accumulate_threshold)})"
                                 if added else "same error pattern already known"}}


@traceable(name="handle_error")
def handle_error(state: dict[str, Any], runtime: Runtime[FlinkContext]) -> dict[str, Any]:
    """§5.2: mark the exception failed (if this run holds it) and log the error."""
    job = state.get("job_info") or {}
    log.error("diagnosis of exception %s failed: %s", job.get("exception_id", "-"), state.get("error"))
    if job.get("exception_id"):
        try:
            runtime.context.store.fail(job["exception_id"], str(state.get("error") or "unknown error"),
                                       worker_id=job.get("claimed_by"))
        except Exception as exc:  # noqa: BLE001 - the queue's lease will hand it out again
            log.error("could not mark exception %s failed: %s", job["exception_id"], exc)
    return {"status": DiagnosisStatus.FAILED.value, "end_time": now_iso("milliseconds")}


def should_continue_after_collect(state: Mapping[str, Any]) -> str:
    """§4.1."""
    if state.get("error"):
        return "handle_error"
    if state.get("job_info") is None:
        return END
    return "retrieve"


def should_continue_after_diagnose(state: Mapping[str, Any]) -> str:
    """§4.2."""
    if state.get("error"):
        if state.get("retry_count", 0) < MAX_DIAGNOSE_RETRIES:
            return "diagnose"
        return "handle_error"
    return "store"


def should_continue_after_store(state: Mapping[str, Any]) -> str:
    return "handle_error" if state.get("error") else "accumulate"
