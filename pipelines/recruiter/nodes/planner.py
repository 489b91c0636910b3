"""The planner's own nodes (seed §4): generate_plan → validate_plan → present_plan → INTERRUPT plan approval
(approve, modify with a diff and a new validation, cancel; bounded by a revision counter), and finalize."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import ValidationError

from pipelines.core.errors import InvalidInput
from pipelines.core.models.failures import answer_or
from pipelines.recruiter.answers import t
from pipelines.recruiter.labels import step_line
from pipelines.recruiter.nodes.chat import findings_as_state, language_of
from pipelines.recruiter.nodes.router import save_turn, thread_id
from pipelines.recruiter.plan import offline_plan, validate_plan
from pipelines.recruiter.plan_edit import _count_in, apply_decision, diff_lines, requested_count, without_emails
from pipelines.recruiter.plan_store import PlanStore
from pipelines.recruiter.prompts import GENERATE_PLAN
from pipelines.recruiter.refusals import as_findings, request_refusals
from pipelines.recruiter.resolve import find_mentions
from pipelines.recruiter.schemas import Plan, PlanDecision
from pipelines.recruiter.state import PLAN_APPROVAL, PlannerState, RecruiterContext

def _fresh(services: Any, state: PlannerState) -> dict[str, Any]:
    """Who and what the message names: the job, and candidates (a candidate review's subject)."""
    store = services.store
    mentions = find_mentions(state.get("message") or "", store.jobs(), store.candidates())
    return {"job_id": mentions.jobs[0].id if mentions.jobs else "",
            "candidate_id": mentions.candidates[0].id if mentions.candidates else ""}


def generate_plan(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The plan (seed §4's JSON): from the model with a provider, or the offline planner; stored as pending."""
    ctx, message = runtime.context, state.get("message") or ""
    lang = language_of(message, ctx.services.store.names())
    found = _fresh(ctx.services, state)
    workflow_type = state.get("workflow_type") if state.get("workflow_type") not in ("", None, "status_change") else None

    def offline() -> Plan:
        return offline_plan(message, workflow_type, lang, job_id=found["job_id"] or None,
                            candidate_ids=[found["candidate_id"]] if found["candidate_id"] else [],
                            top=requested_count(message) or 10)

    plan = offline()
    if not ctx.gateway.is_offline:
        plan = answer_or(lambda: ctx.gateway.structured(
            "recruiter_plan", Plan, GENERATE_PLAN.format_messages(message=message, job_id=found["job_id"] or "none",
                                                                  language="Chinese" if lang == "zh" else "English"),
            offline=offline), lambda failure: offline())
    plan, findings = _refuse(plan.renumbered(), state, ctx, lang)
    plan_id = PlanStore(ctx.services.store.engine).save(plan, state.get("session_id") or "", state.get("user_id") or "")
    workflow_id = ctx.services.store.start_workflow(
        state.get("session_id") or "", user_id=state.get("user_id") or "recruiter", workflow_type=plan.workflow_type,
        graph_name="planner", thread_id=thread_id(), status="paused", summary=plan.goal, plan_id=plan_id)
    return {**found, "plan": plan.model_dump(mode="json"), "plan_id": plan_id, "workflow_id": workflow_id,
            "workflow_type": plan.workflow_type, "plan_revisions": 0,
            "max_plan_revisions": ctx.policy.plan_revisions, "plan_diff": [], "language": lang, "cursor": 0,
            "last_agent": "", "top": _count_in(plan), "batch_id": plan_id, "drafts": [], "candidate_ids": [],
            "guardrail_findings": findings_as_state(findings), "blocked": False, "action": None, "plan_status": "pending"}


def _refuse(plan: Plan, state: PlannerState, ctx: RecruiterContext, lang: str) -> tuple[Plan, list[Any]]:
    """The plan with the refusals its request needs (the planner's own check, whoever wrote the plan): an address
    that is no candidate's or the team's, personal identifiers sent out. The e-mails asked for would go there or
    carry that data, so the plan's e-mail steps go too, rather than turning into e-mails nobody asked for. Each
    refusal is written to the guardrail log."""
    session_id = state.get("session_id") or ""
    refusals = request_refusals(state.get("message") or "", ctx.services, ctx.policy, session_id=session_id,
                                user_id=state.get("user_id") or "", lang=lang)
    if refusals:
        plan = without_emails(plan)
    findings = as_findings(refusals)
    ctx.services.log.write(findings, workflow_id=thread_id(), session_id=session_id, user_id=state.get("user_id"),
                           context={"node": "generate_plan"})
    return plan.model_copy(update={"refusals": refusals}), findings


def check_plan(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """validate_plan: known agents, the role, the email quota and batch cap, the model-call budget (seed §6)."""
    services, policy = runtime.context.services, runtime.context.policy
    plan = Plan.model_validate(state["plan"])
    left = max(0, policy.emails_per_day - services.limiter.used("emails"))
    checked = validate_plan(plan, role=state.get("role") or "recruiter", emails_left_today=left,
                            batch_cap=policy.batch_cap, model_call_budget=policy.model_calls_per_operation,
                            emails_per_day=policy.emails_per_day)
    services.log.write(checked.findings, workflow_id=thread_id(), session_id=state.get("session_id"),
                       user_id=state.get("user_id"), context={"node": "validate_plan", "plan_id": state.get("plan_id")})
    findings = list(state.get("guardrail_findings") or []) + findings_as_state(checked.findings)
    # A plan cut to what the limits allow still runs; one with nothing left, or refused for the role, does not.
    refused = not checked.plan.steps or any(f.check == "action_role" and f.blocked for f in checked.findings)
    return {"plan": checked.plan.model_dump(mode="json"), "plan_reasons": checked.reasons, "guardrail_findings": findings,
            "top": _count_in(checked.plan), "blocked": refused, "plan_status": "rejected" if refused else "pending"}


def present_plan(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The plan preview (the seed's `plan_preview` event): its steps, agents, estimates, what validation cut."""
    lang, plan = state.get("language") or "en", Plan.model_validate(state["plan"])
    first = not state.get("plan_revisions") and state.get("plan_decision") is None
    refused = [t(lang, f"Refused: {r.reason}", f"已拒绝：{r.reason}") for r in plan.refusals]
    if state.get("plan_status") == "rejected":
        reply = "\n".join([t(lang, "This plan cannot run: ", "这个计划无法执行：") + " ".join(state.get("plan_reasons") or []),
                           *refused])
        save_turn(runtime.context.services, state, reply, user=first)
        return {"reply": reply}
    emails, calls = plan.estimated_actions.emails, plan.estimated_actions.api_calls
    lines = [t(lang, f"Plan: {plan.goal}", f"计划：{plan.goal}"), *(step_line(step, lang) for step in plan.steps),
             t(lang, f"Estimated: {emails} email(s), {calls} model call(s).", f"预计：{emails} 封邮件，{calls} 次模型调用。")]
    lines += [*refused, *(state.get("plan_reasons") or []), *(state.get("plan_notes") or [])]
    if state.get("plan_diff"):
        lines += [t(lang, "Changes:", "改动："), *state["plan_diff"]]
    lines.append(t(lang, "Approve, modify or cancel the plan.", "请批准、修改或取消这个计划。"))
    get_stream_writer()({"plan_preview": plan.model_dump(mode="json")})
    reply = "\n".join(lines)
    save_turn(runtime.context.services, state, reply, user=first)  # the chat shows the plan while it waits
    return {"reply": reply}


def route_after_present(state: PlannerState) -> str:
    return "finalize_plan" if state.get("plan_status") == "rejected" else "approve_plan"


def approve_plan(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """INTERRUPT: approve, modify (edited steps and/or an instruction; shown as a diff and validated again), or
    cancel. Past the revision limit, a modify keeps the plan as it is and asks again."""
    lang, revisions = state.get("language") or "en", int(state.get("plan_revisions") or 0)
    limit = int(state.get("max_plan_revisions") or 0)
    answer = interrupt({"kind": PLAN_APPROVAL, "plan": state["plan"], "plan_id": state.get("plan_id"),
                        "revisions": revisions, "max_revisions": limit,
                        "question": t(lang, "Approve, modify or cancel the plan?", "批准、修改还是取消这个计划？")})
    try:
        decision = PlanDecision.parse(answer)
    except (ValidationError, ValueError) as exc:
        raise InvalidInput(f"invalid answer to the plan approval: {exc}") from exc
    store = PlanStore(runtime.context.services.store.engine)
    plan_id = state.get("plan_id") or ""
    if decision.action == "approve":
        store.set_status(plan_id, "approved")
        return {"plan_decision": decision.model_dump(mode="json"), "plan_status": "approved"}
    if decision.action == "cancel":
        store.set_status(plan_id, "cancelled")
        return {"plan_decision": decision.model_dump(mode="json"), "plan_status": "cancelled"}
    if revisions >= limit:
        note = t(lang, f"The plan has been revised {revisions} times, the limit: approve or cancel it as it is.",
                 f"计划已修改 {revisions} 次，达到上限：请按现状批准或取消。")
        return {"plan_decision": decision.model_dump(mode="json"), "plan_notes": [note], "plan_diff": []}
    old = Plan.model_validate(state["plan"])
    new, notes = apply_decision(old, decision, lang)
    diff = diff_lines(old, new)
    store.add_modification(plan_id, new, diff, by=state.get("user_id") or "recruiter", instruction=decision.instruction)
    return {"plan_decision": decision.model_dump(mode="json"), "plan": new.model_dump(mode="json"), "plan_diff": diff,
            "plan_revisions": revisions + 1, "plan_notes": notes, "top": _count_in(new)}


def route_after_approval(state: PlannerState) -> str:
    status = state.get("plan_status")
    if status == "approved":
        return "dispatch"
    if status == "cancelled":
        return "finalize_plan"
    return "validate_plan"


def finalize_plan(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Close the plan and the workflows row, and say what happened in the conversation."""
    services, lang = runtime.context.services, state.get("language") or "en"
    status = state.get("plan_status") or "completed"
    if status == "approved":
        status = "completed"
    if state.get("plan_id"):
        PlanStore(services.store.engine).set_status(state["plan_id"], "rejected" if status == "rejected" else status)
    if status == "cancelled":
        reply = t(lang, "The plan was cancelled; nothing was done.", "计划已取消，没有执行任何操作。")
    elif status == "rejected":  # present_plan said why, in the conversation too
        return {"reply": state.get("reply") or "", "plan_status": status, "blocked": True}
    else:
        reply = "\n".join(state.get("summary") or [t(lang, "The plan is done.", "计划已完成。")])
    if state.get("workflow_id"):
        services.store.set_workflow_status(state["workflow_id"], "completed" if status == "completed" else "cancelled",
                                           reply[:500])
    save_turn(services, state, reply, user=False)
    return {"reply": reply, "plan_status": status}
