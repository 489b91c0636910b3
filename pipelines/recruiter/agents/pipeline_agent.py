"""The Pipeline agent (seed §5.1): scan → categorize → INTERRUPT approve the changes → execute → finalize — stale,
stuck and duplicated applications, each with its reason; approved changes write the application's history
within the daily limit of status changes."""

from __future__ import annotations

from datetime import datetime, UTC
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from pipelines.core.errors import validate_input
from pipelines.recruiter.agents.pipeline_rules import categorize, scan
from pipelines.recruiter.answers import t
from pipelines.recruiter.schemas import CleanupDecision
from pipelines.recruiter.state import CLEANUP_APPROVAL, RecruiterContext


class PipelineAgentInput(TypedDict, total=False):
    job_id: str      # one job's pipeline; empty: every job
    as_of: str       # ISO time the ages are counted to (default: now)
    language: str
    user_id: str


class PipelineAgentOutput(TypedDict, total=False):
    proposals: list[dict[str, Any]]
    applied: list[dict[str, Any]]
    pipeline_notes: list[str]


class PipelineAgentState(PipelineAgentInput, PipelineAgentOutput, total=False):
    scanned: list[dict[str, Any]]
    approved_ids: list[str]


def _now(state: PipelineAgentState) -> datetime:
    raw = state.get("as_of")
    when = datetime.fromisoformat(raw) if raw else datetime.now(UTC)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def scan_pipeline(state: PipelineAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    store = runtime.context.services.store
    rows = store.applications(job_id=state.get("job_id") or None)
    return {"scanned": scan(rows, store.candidates(), _now(state))}


def categorize_items(state: PipelineAgentState) -> dict[str, Any]:
    return {"proposals": categorize(state.get("scanned") or [], state.get("language") or "en")}


def route_after_categorize(state: PipelineAgentState) -> str:
    return "approve_changes" if state.get("proposals") else "finalize"


def approve_changes(state: PipelineAgentState) -> dict[str, Any]:
    """INTERRUPT: the recruiter ticks the proposals to carry out (`{"approved_ids": [...]}`)."""
    proposals = state.get("proposals") or []
    lang = state.get("language") or "en"
    answer = interrupt({"kind": CLEANUP_APPROVAL, "proposals": proposals,
                        "question": t(lang, f"{len(proposals)} cleanup proposal(s): which should be carried out?",
                                      f"共 {len(proposals)} 条清理建议：执行哪些？")})
    decision = validate_input(CleanupDecision, answer if isinstance(answer, dict) else {"approved_ids": answer},
                              "the pipeline cleanup answer")
    known = {p["id"] for p in proposals}
    return {"approved_ids": [i for i in decision.approved_ids if i in known]}


def execute(state: PipelineAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Carry out the approved status changes in batches the limiter allows; a follow-up changes nothing."""
    services, lang = runtime.context.services, state.get("language") or "en"
    approved = set(state.get("approved_ids") or [])
    changes = [p for p in state.get("proposals") or [] if p["id"] in approved and p["proposed_status"]]
    applied: list[dict[str, Any]] = []
    notes: list[str] = []
    cap = services.policy.batch_cap
    for start in range(0, len(changes), cap):
        batch = changes[start:start + cap]
        decision = services.limiter.take("status_changes", len(batch))
        if not decision.allowed:
            notes.append(decision.message + t(lang, f" {len(changes) - start} change(s) were not made.",
                                              f" 有 {len(changes) - start} 项变更未执行。"))
            break
        for proposal in batch:
            result = services.store.set_status(proposal["candidate_id"], proposal["job_id"], proposal["proposed_status"],
                                               actor=state.get("user_id") or "pipeline_agent", note=proposal["reason"])
            applied.append({**proposal, **result})
    return {"applied": applied, "pipeline_notes": notes}


def finalize(state: PipelineAgentState) -> dict[str, Any]:
    lang = state.get("language") or "en"
    notes = list(state.get("pipeline_notes") or [])
    if not state.get("proposals"):
        notes.append(t(lang, "The pipeline is clean: nothing stale, stuck or duplicated.",
                       "招聘管道很干净：没有停滞、卡住或重复的申请。"))
    return {"proposals": state.get("proposals") or [], "applied": state.get("applied") or [], "pipeline_notes": notes}


def build_pipeline_agent() -> StateGraph:
    graph = StateGraph(PipelineAgentState, context_schema=RecruiterContext, input_schema=PipelineAgentInput,
                       output_schema=PipelineAgentOutput)
    graph.add_node("scan", scan_pipeline)
    graph.add_node("categorize", categorize_items)
    graph.add_node("approve_changes", approve_changes)
    graph.add_node("execute", execute)
    graph.add_node("finalize", finalize)
    graph.add_edge(START, "scan")
    graph.add_edge("scan", "categorize")
    graph.add_conditional_edges("categorize", route_after_categorize, ["approve_changes", "finalize"])
    graph.add_edge("approve_changes", "execute")
    graph.add_edge("execute", "finalize")
    graph.add_edge("finalize", END)
    return graph
