"""A thread as one JSON document: status, steps with their changes, the evolution matrix, counters, final state."""

from __future__ import annotations

from typing import Any, Literal

from pipelines.core.jsonable import state_to_jsonable
from pipelines.core.runtime.session import Session
from pipelines.core.trace.records import evolution_matrix

RunStatus = Literal["completed", "interrupted", "failed"]


def run_status(session: Session) -> RunStatus:
    status = session.status()
    if status == "completed":
        return "completed"
    if status == "failed":
        return "failed"
    return "interrupted"


def trace_document(session: Session) -> dict[str, Any]:
    records = session.records()
    info = session.thread
    pending = session.pending_interrupts()
    return {
        "pipeline": session.spec.id,
        "thread_id": session.thread_id,
        "status": run_status(session),
        "provider": info.provider if info else session.settings.provider_label,
        "scenario": info.scenario if info else None,
        "steps": [{
            "step": r.step,
            "nodes": r.nodes,
            "status": r.status,
            "started_at": r.started_at,
            "duration_ms": round(r.duration_ms, 3),
            "changes": r.changes,
            "tasks": [{"node": t.node, "task_id": t.task_id, "duration_ms": round(t.duration_ms, 3), "status": t.status,
                       "model_calls": len(t.model_calls), "input_tokens": t.input_tokens,
                       "output_tokens": t.output_tokens, "error": t.error} for t in r.tasks],
            "error": r.error,
        } for r in records],
        "evolution": evolution_matrix(records, session.spec.field_order).to_dict(),
        "counters": session.counters(),
        "pending_interrupt": {"kind": pending[0].kind, "value": pending[0].value} if pending else None,
        "next": list(session.snapshot().next),
        "final_state": state_to_jsonable(session.values()),
    }
