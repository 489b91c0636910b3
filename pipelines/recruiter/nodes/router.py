"""The router's nodes (seed §2): check_paused → resume_workflow, or classify_intent → chat | planner | workflow."""

from __future__ import annotations

import re
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from pipelines.core.guardrails.injection import detect_injection
from pipelines.core.models.failures import answer_or
from pipelines.recruiter.answers import t
from pipelines.recruiter.intent import keyword_intent
from pipelines.recruiter.nodes.chat import language_of
from pipelines.recruiter.prompts import CLASSIFY_INTENT
from pipelines.recruiter.refusals import PERSONAL_DATA, request_refusals
from pipelines.recruiter.schemas import WORKFLOW_TYPES, IntentDecision
from pipelines.recruiter.state import RecruiterContext, RouterState

_YES = re.compile(r"^\s*(?:y|yes|yep|ok|okay|approve[sd]?|confirm(?:ed)?|go ahead|do it|sure|是|是的|好|好的|确认|同意|"
                  r"批准|可以|执行)\s*[.!。！]?\s*$", re.I)
_NO = re.compile(r"^\s*(?:n|no|nope|cancel|reject|don'?t|stop|abort|否|不|不要|取消|拒绝|算了|不同意)\s*[.!。！]?\s*$", re.I)


def thread_id() -> str:
    return str(get_config().get("configurable", {}).get("thread_id", ""))


def save_turn(services: Any, state: RouterState, reply: str, *, user: bool = True) -> None:
    """The turn in the session's messages (the store keeps them masked, as the state does)."""
    session_id = state.get("session_id") or ""
    if user:
        services.store.add_message(session_id, "user", state.get("message") or "", thread_id())
    services.store.add_message(session_id, "assistant", reply, thread_id())


def answer_to_pause(message: str) -> bool | None:
    """True or False for a clear yes or no, None for anything else (which is a new request instead)."""
    if _YES.match(message or ""):
        return True
    if _NO.match(message or ""):
        return False
    return None


def check_paused(state: RouterState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The session's paused workflow, looked up in the workflows table and confirmed by the checkpointer (a row
    whose thread no longer waits is closed). A clear yes or no is turned here into the typed answer of the
    interrupt it waits on, addressed by that interrupt's id."""
    services = runtime.context.services
    for row in services.store.paused_workflows(state.get("session_id") or ""):
        if row["langgraph_thread_id"] == thread_id():
            continue
        pending = services.pending_interrupt(row["langgraph_thread_id"])
        if pending is None:
            services.store.set_workflow_status(row["id"], "cancelled", "its run no longer waits for an answer")
            continue
        interrupt_id, waiting = pending
        answer = answer_to_pause(state.get("message") or "")
        kind = waiting.get("kind", "")
        return {"paused_workflow": {
            "id": row["id"], "workflow_type": row["workflow_type"], "kind": kind, "thread_id": row["langgraph_thread_id"],
            "question": waiting.get("question", ""), "answer": answer, "interrupt_id": interrupt_id,
            "resume_value": None if answer is None else answer_for(kind, answer, waiting)}}
    return {"paused_workflow": None}


def route_after_check_paused(state: RouterState) -> str:
    paused = state.get("paused_workflow")
    return "resume_workflow" if paused and paused.get("answer") is not None else "classify_intent"


def answer_for(kind: str, yes: bool, waiting: dict[str, Any]) -> dict[str, Any]:
    """A chat's yes or no as the typed answer of the interrupt it resumes: yes approves everything proposed, no
    approves nothing (or cancels)."""
    if kind == "plan_approval":
        return {"action": "approve" if yes else "cancel"}
    if kind in ("shortlist_approval", "final_approval"):
        return {"approved_ids": ["all"] if yes else []}
    if kind == "interview_slot_choice":
        return {} if yes else {"cancel": True}
    if kind == "pipeline_cleanup_approval":
        return {"approved_ids": [p["id"] for p in waiting.get("proposals") or []] if yes else []}
    return {"approve": yes, "note": ""}


def resume_workflow(state: RouterState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Answer the paused workflow's interrupt with this message's yes or no and run it on, in its own thread; the
    reply is what that run said in the conversation (its nodes write it there)."""
    services, paused = runtime.context.services, state["paused_workflow"]
    lang = language_of(state.get("message") or "", services.store.names())
    session_id = state.get("session_id") or ""
    services.store.add_message(session_id, "user", state.get("message") or "", thread_id())
    before = len(services.store.recent_messages(session_id, 10_000))
    after = services.resume_paused(paused["thread_id"], paused["interrupt_id"], paused["resume_value"], runtime.context)
    said = [m["content"] for m in services.store.recent_messages(session_id, 10_000)[before:] if m["role"] == "assistant"]
    waiting_next = services.waiting_interrupt(paused["thread_id"]) if not said else None
    reply = "\n\n".join(said) or (waiting_next or {}).get("question") or t(lang, "Done.", "完成。")
    if not said:
        services.store.add_message(session_id, "assistant", reply, thread_id())
    [masked] = services.store.mask_pii(session_id, reply)
    return {"intent": "resume", "workflow_type": paused["workflow_type"], "reply": masked, "language": lang,
            "action": after.get("action"), "guardrail_findings": [], "blocked": False}


def classify_intent(state: RouterState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The fast keyword path, then the model, defaulting to chat. A message with an injection goes to the chat,
    whose input guard blocks it: nothing in it is acted on here."""
    ctx, message = runtime.context, state.get("message") or ""
    if detect_injection(message[:ctx.policy.max_input_chars]) or len(message) > ctx.policy.max_input_chars:
        return {"intent": "chat", "intent_source": "guard", "intent_reasoning": "the input guard decides on this"}
    refusals = request_refusals(message, ctx.services, ctx.policy, session_id=state.get("session_id") or "",
                                user_id=state.get("user_id") or "")
    if any(r.check == PERSONAL_DATA for r in refusals):
        # Personal data to be sent out: the planner refuses it visibly, on its plan card, in the chat and in the
        # guardrail log (the chat would draft around it). An outside address alone the chat refuses itself.
        return {"intent": "plan", "workflow_type": "", "intent_source": "guard",
                "intent_reasoning": "a request to send where the guardrails refuse: the planner says what and why"}
    decision = keyword_intent(message)
    source = "keywords"
    if decision is None and not ctx.gateway.is_offline:
        default = IntentDecision(intent="chat", reasoning="the model did not answer: chat by default")
        decision = answer_or(lambda: ctx.gateway.structured(
            "recruiter_intent", IntentDecision,
            CLASSIFY_INTENT.format_messages(message=message, workflow_types=", ".join(WORKFLOW_TYPES)),
            offline=lambda: default), lambda failure: default)
        source = "model"
    if decision is None:
        decision, source = IntentDecision(intent="chat", reasoning="no workflow or plan words: chat"), "default"
    if decision.intent == "workflow" and decision.workflow_type not in WORKFLOW_TYPES:
        decision = IntentDecision(intent="chat", reasoning=f"unknown workflow {decision.workflow_type!r}: chat")
    return {"intent": decision.intent, "workflow_type": decision.workflow_type or "", "intent_source": source,
            "intent_reasoning": decision.reasoning}


def route_after_classify(state: RouterState) -> str:
    intent = state.get("intent")
    if intent == "plan":
        return "planner"
    if intent == "workflow":
        return "propose_status_change" if state.get("workflow_type") == "status_change" else "planner"
    return "chat"
