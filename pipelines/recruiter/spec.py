"""Open Recruiter (seed 002): its PipelineSpec for the runtime, the CLI and the dashboard."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from pipelines.core.errors import validate_input
from pipelines.core.settings import Settings
from pipelines.core.spec import Counter, InterruptSpec, PipelineSpec, RuntimeDeps, lazy
from pipelines.recruiter.schemas import (
    CleanupDecision, DraftApproval, PlanDecision, RunInput, ShortlistDecision, SlotChoice, StatusDecision,
)
from pipelines.recruiter.settings import RecruiterSettings
from pipelines.recruiter.state import (
    CLEANUP_APPROVAL, FINAL_APPROVAL, PLAN_APPROVAL, SHORTLIST_APPROVAL, SLOT_CHOICE, STATUS_APPROVAL, RecruiterContext,
)

def admit_input(raw: Mapping[str, Any], thread_id: str, settings: Settings) -> dict[str, Any]:
    """Mask the message's personal data before anything keeps it: the values go to the session's vault in the
    database, and the run, its title and its state see placeholders only."""
    from pipelines.core.guardrails.pii import find_pii

    data = dict(raw)
    message = data.get("message")
    if not isinstance(message, str):
        return data  # make_input says what is wrong with it
    session_id = data.get("session_id") or uuid.uuid4().hex[:16]
    from pipelines.recruiter.services import services_for

    store = services_for(settings).store
    [masked] = store.mask_pii(session_id, message)
    data.update(message=masked, session_id=session_id, pii_types=sorted({match.type for match in find_pii(message)}))
    return data


def make_input(raw: Mapping[str, Any], thread_id: str) -> dict[str, Any]:
    """`{"message": "..."}`, optionally with `role` (recruiter | job_seeker) and `session_id` (the same id continues a
    conversation)."""
    pii_types = list(raw.get("pii_types") or [])
    data = validate_input(RunInput, {k: v for k, v in raw.items() if k != "pii_types"}, "the recruiter")
    return {"message": data.message, "role": data.role, "session_id": data.session_id or thread_id,
            "user_id": data.user_id or data.role, "pii_types": pii_types}


def run_title(raw: Mapping[str, Any], limit: int = 60) -> str | None:
    text = " ".join(str(raw.get("message") or "").split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def make_context(deps: RuntimeDeps) -> RecruiterContext:
    from pipelines.recruiter.graph import build_graph
    from pipelines.recruiter.services import services_for

    services = services_for(deps.settings, deps.checkpointer, graph_factory=build_graph)
    return RecruiterContext(gateway=deps.gateway, services=services, policy=services.policy)


def storage_errors() -> tuple[type[Exception], ...]:
    from sqlalchemy.exc import SQLAlchemyError

    return (SQLAlchemyError,)


SPEC = PipelineSpec(
    id="recruiter",
    build=lazy("pipelines.recruiter.graph", "build_graph"),
    make_context=make_context,
    make_input=make_input,
    report=lazy("pipelines.recruiter.report", "build_report"),
    counters=(
        Counter("plan_revisions", "Plan revisions (modify rounds)", limit_field="max_plan_revisions", limit=3,
                loop_edge=("planner:approve_plan", "planner:validate_plan")),
    ),
    interrupts=(
        InterruptSpec(STATUS_APPROVAL, "Approve the status change", StatusDecision,
                      "Apply the proposed change of pipeline stage, or drop it. The recruiter can also answer yes or "
                      "no in the chat, now or after a restart."),
        InterruptSpec(PLAN_APPROVAL, "Approve the plan", PlanDecision,
                      "approve runs it; modify with edited steps or an instruction (shown as a diff and validated "
                      "again); cancel drops it."),
        InterruptSpec(SHORTLIST_APPROVAL, "Approve the shortlist", ShortlistDecision,
                      "The candidate ids the plan goes on with; the others are left out."),
        InterruptSpec(FINAL_APPROVAL, "Approve the emails", DraftApproval,
                      "The outbox ids of the drafts to send (each editable first); the others are discarded."),
        InterruptSpec(SLOT_CHOICE, "Choose the interview time", SlotChoice,
                      "One proposed slot (the candidates take it and the next free ones), a slot per candidate, or cancel."),
        InterruptSpec(CLEANUP_APPROVAL, "Approve the pipeline cleanup", CleanupDecision,
                      "The ids of the proposals to carry out; the others are left as they are."),
    ),
    field_order=("message", "role", "session_id", "user_id", "pii_types", "paused_workflow", "intent",
                 "workflow_type", "intent_source", "intent_reasoning", "proposal", "decision", "workflow_id",
                 "language", "reply", "guardrail_findings", "action", "blocked"),
    done_message="The turn is complete: the reply is in the chat, and the Report tab has the route, the guardrail "
                 "findings and the action.",
    run_title=run_title,
    settings_model=RecruiterSettings,
    cli=lazy("pipelines.recruiter.cli", "add_parser"),
    storage_errors=storage_errors,
    admit_input=admit_input,
)
