"""The direct status-change workflow (seed §7's "candidate status change" interrupt): propose the change, wait
for the recruiter's approval (an interrupt that survives a restart, recorded in the workflows table), apply it
within the daily limit and write the application's history."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from pipelines.core.errors import validate_input
from pipelines.recruiter.actions import update_status
from pipelines.recruiter.answers import stage_name, t
from pipelines.recruiter.nodes.chat import language_of
from pipelines.recruiter.nodes.router import save_turn, thread_id
from pipelines.recruiter.resolve import find_mentions
from pipelines.recruiter.schemas import StatusDecision
from pipelines.recruiter.state import STATUS_APPROVAL, RecruiterContext, RouterState


def _stop(services: Any, state: RouterState, reply: str, lang: str) -> dict[str, Any]:
    save_turn(services, state, reply)
    return {"proposal": None, "reply": reply, "language": lang, "action": None, "guardrail_findings": [],
            "blocked": False}


def propose_status_change(state: RouterState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Who, for which job, to which stage: from the message (and the conversation); asks for what is missing."""
    services, message = runtime.context.services, state.get("message") or ""
    store = services.store
    lang = language_of(message, store.names())
    if (state.get("role") or "recruiter") != "recruiter":
        return _stop(services, state, t(lang, "Only recruiters can change a candidate's status.",
                                        "只有招聘人员可以变更候选人状态。"), lang)
    history = [m["content"] for m in store.recent_messages(state.get("session_id") or "", 8) if m["role"] == "user"]
    mentions = find_mentions(message, store.jobs(), store.candidates(), history)
    person = mentions.candidates[0] if len(mentions.candidates) == 1 else None
    stage = mentions.stage
    job = mentions.jobs[0] if mentions.jobs else None
    if person and job is None:
        applied = store.applications(candidate_id=person.id)
        job = store.job(applied[0]["job_id"]) if len(applied) == 1 else None
    missing = [name for name, value in ((t(lang, "the candidate", "候选人"), person), (t(lang, "the job", "职位"), job),
                                        (t(lang, "the stage", "阶段"), stage)) if not value]
    if missing:
        return _stop(services, state, t(lang, f"To change a status I need {', '.join(missing)}: for example \"move "
                                              "C001 to interview for J001\".",
                                        f"变更状态需要{'、'.join(missing)}，例如“把 C001 在 J001 的状态改为面试”。"), lang)
    current = next((a["status"] for a in store.applications(candidate_id=person.id, job_id=job.id)), None)
    if current == stage:
        return _stop(services, state, t(lang, f"{person.name} is already in {stage} for {job.id}.",
                                        f"{person.name} 在 {job.id} 已处于{stage_name(stage, lang)}阶段。"), lang)
    limit = services.limiter.check("status_changes", 1)
    if not limit.allowed:
        return _stop(services, state, limit.message, lang)
    before = stage_name(current, lang) or t(lang, "no application", "无申请")
    question = t(lang, f"Move {person.name} ({person.id}) from {before} to {stage} for {job.id} ({job.title})? "
                       "Answer yes or no.",
                 f"是否将 {person.name}（{person.id}）在 {job.id}（{job.title}）的状态从{before}改为"
                 f"{stage_name(stage, lang)}？请回答“是”或“否”。")
    workflow_id = store.start_workflow(state.get("session_id") or "", user_id=state.get("user_id") or "recruiter",
                                       workflow_type="status_change", graph_name="recruiter", thread_id=thread_id(),
                                       status="paused", summary=question)
    save_turn(services, state, question)
    proposal = {"candidate_id": person.id, "candidate_name": person.name, "job_id": job.id, "job_title": job.title,
                "from_status": current, "to_status": stage, "question": question}
    return {"proposal": proposal, "workflow_id": workflow_id, "reply": question, "language": lang, "action": None,
            "guardrail_findings": [], "blocked": False}


def route_after_proposal(state: RouterState) -> str:
    return "approve_status_change" if state.get("proposal") else "__end__"


def approve_status_change(state: RouterState) -> dict[str, Any]:
    """INTERRUPT: the recruiter approves or drops the change (here, in the studio's form, or by a yes/no in chat)."""
    proposal = state["proposal"]
    answer = interrupt({"kind": STATUS_APPROVAL, "question": proposal["question"], "proposal": proposal})
    decision = validate_input(StatusDecision, answer if isinstance(answer, dict) else {"approve": answer},
                              "the status change answer")
    return {"decision": decision.model_dump()}


def apply_status_change(state: RouterState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Apply an approved change within the daily limit; the workflows row is closed either way."""
    services, proposal, decision = runtime.context.services, state["proposal"], state.get("decision") or {}
    lang = state.get("language") or "en"
    store = services.store
    if not decision.get("approve"):
        reply = t(lang, f"Left {proposal['candidate_name']} as they were.", f"已保持 {proposal['candidate_name']} 的状态不变。")
        store.set_workflow_status(state.get("workflow_id") or "", "cancelled", reply)
        save_turn(services, state, reply, user=False)
        return {"reply": reply, "action": {"type": "update_status", "status": "declined"}}
    result = update_status({"type": "update_status", "candidate_id": proposal["candidate_id"],
                            "job_id": proposal["job_id"], "status": proposal["to_status"]},
                           services, store.candidate(proposal["candidate_id"]), store.job(proposal["job_id"]),
                           proposal["to_status"], lang, state.get("user_id") or "recruiter", decision.get("note", ""))
    findings = []
    if result.status == "limited":
        findings.append({"check": "action_rate_limit", "severity": "blocked", "message": result.text})
        from pipelines.recruiter.offline import limit_finding

        services.log.write([limit_finding(result.text)], workflow_id=thread_id(), session_id=state.get("session_id"),
                           user_id=state.get("user_id"), context={"node": "apply_status_change"})
    store.set_workflow_status(state.get("workflow_id") or "", "completed" if result.status == "done" else "failed",
                              result.text)
    save_turn(services, state, result.text, user=False)
    return {"reply": result.text, "action": result.as_state(), "guardrail_findings": findings}
