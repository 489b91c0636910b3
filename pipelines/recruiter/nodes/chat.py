"""The chat subgraph's nodes (seed §3): build_context → input_guard → call_llm → parse_response → output_guard →
process_action → finalize, with a blocked input or output going straight to finalize."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.config import get_config, get_stream_writer
from langgraph.runtime import Runtime
from pydantic import ValidationError

from pipelines.core.guardrails.findings import Finding
from pipelines.core.guardrails.input_validator import validate_input_text
from pipelines.core.guardrails.output_validator import validate_output_text
from pipelines.core.models.failures import answer_or
from pipelines.core.text import LANGUAGE_NAMES, clip, own_words_language
from pipelines.recruiter import offline
from pipelines.recruiter.actions import keyword_action, run_action
from pipelines.recruiter.answers import t
from pipelines.recruiter.prompts import CHAT
from pipelines.recruiter.refusals import as_findings, request_refusals
from pipelines.recruiter.resolve import find_mentions
from pipelines.recruiter.schemas import Action
from pipelines.recruiter.state import ChatState, RecruiterContext

_ACTION_LINE = re.compile(r"^\s*ACTION:\s*(\{.*\})\s*$", re.M)
ID_PATTERN = re.compile(r"\b[A-Z]{1,3}\d{2,6}\b")


def findings_as_state(findings: Any) -> list[dict[str, Any]]:
    return [{"check": f.check, "severity": f.severity, "message": f.message} for f in findings]


def language_of(text: str, names: Iterable[str] = ()) -> str:
    """The reply's language: the message's own words decide, not the people and jobs it names (`names`), so an
    English question about 张伟 is answered in English and a Chinese one about Kevin Zhou in Chinese."""
    return own_words_language(text, names)


def canary_for(thread_id: str) -> str:
    """The run's canary: in the system prompt, and a reply that carries it has leaked the prompt."""
    return "CANARY-" + hashlib.sha256(f"stepwise-recruiter:{thread_id}".encode()).hexdigest()[:16]


def _thread_id() -> str:
    return str(get_config().get("configurable", {}).get("thread_id", ""))


def build_context(state: ChatState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The session's last messages (masked) and the jobs and candidates the message is about (RAG over the data)."""
    services, policy = runtime.context.services, runtime.context.policy
    store, session_id = services.store, state.get("session_id") or ""
    rows = store.recent_messages(session_id, policy.history_messages) if policy.history_messages else []
    # Rows are kept masked; masking again covers rows kept before the history was masked.
    contents = store.mask_pii(session_id, *(row["content"] for row in rows))
    history = [{"role": row["role"], "content": content} for row, content in zip(rows, contents, strict=True)]
    message = state.get("message") or ""
    jobs, people = store.jobs(), store.candidates()
    mentions = find_mentions(message[:4000], jobs, people, [h["content"] for h in history if h["role"] == "user"][-4:])
    context_jobs = [offline.job_brief(job) for job in mentions.jobs[:3]]
    if not context_jobs:
        from pipelines.recruiter.job_search import rank_jobs

        context_jobs = [offline.job_brief(job) for job in rank_jobs(jobs, message[:4000], top=3)]
    context_candidates = [offline.candidate_brief(c) for c in mentions.candidates[:5]]
    if mentions.jobs and state.get("role") == "recruiter":
        for match in services.index().rank(mentions.jobs[0], top=5):
            if match.candidate_id not in {c["id"] for c in context_candidates}:
                context_candidates.append({"id": match.candidate_id, "name": match.name, "score": round(match.score, 3)})
    return {"history": history, "context_jobs": context_jobs, "context_candidates": context_candidates,
            "language": language_of(message, [*(p.name for p in people), *(j.title for j in jobs)]),
            "guardrail_findings": [], "blocked": False, "action": None,
            "model_calls": 0}


def input_guard(state: ChatState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Injection, PII and length (seed §6). PII was masked when the message came in; an injection or an over-long
    message is blocked with a reply that does not repeat it."""
    services, policy = runtime.context.services, runtime.context.policy
    message, lang = state.get("message") or "", state.get("language") or "en"
    verdict = validate_input_text(message, max_chars=policy.max_input_chars)
    logged = list(verdict.findings)
    if state.get("pii_types"):  # masked on the way in (spec.admit_input): said here, where the checks are
        logged.append(Finding(check="input_pii", severity="warning",
                              message=f"Personal data was masked before any model or log saw it: "
                                      f"{', '.join(state['pii_types'])}."))
    refusals = request_refusals(message, services, policy, session_id=state.get("session_id") or "",
                                user_id=state.get("user_id") or "", lang=lang)
    logged.extend(as_findings(refusals))  # an outside address: refused in the reply too (finalize)
    findings = findings_as_state(logged)
    services.log.write(logged, workflow_id=_thread_id(), session_id=state.get("session_id"),
                       user_id=state.get("user_id"), context={"node": "input_guard"})
    update: dict[str, Any] = {"input_verdict": verdict.verdict, "guardrail_findings": findings,
                              "refused": [t(lang, f"Refused: {r.reason}", f"已拒绝：{r.reason}") for r in refusals],
                              "masked_message": verdict.redacted if verdict.verdict != "block" else ""}
    if verdict.verdict == "block":
        over_long = any(f.check == "input_length" for f in verdict.findings)
        update.update(blocked=True, reply=offline.blocked_reply(lang, over_long, verdict.findings))
    return update


def route_after_input_guard(state: ChatState) -> str:
    return "finalize" if state.get("blocked") else "call_llm"


def call_llm(state: ChatState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The model's reply (tokens streamed to the page as they come), or the offline engine's, drawn from the data."""
    ctx = runtime.context
    lang, role = state.get("language") or "en", state.get("role") or "recruiter"
    calls = int(state.get("model_calls") or 0)
    if calls >= ctx.policy.model_calls_per_operation:
        return {"llm_output": t(lang, "This request has used its model-call budget; ask again in a new message.",
                                "本次请求已用完模型调用预算，请重新发送消息。")}

    def offline_reply() -> str:
        return offline.chat_reply(state.get("masked_message") or "", role, lang, ctx.services,
                                  [h["content"] for h in state.get("history") or [] if h["role"] == "user"])

    messages = CHAT.format_messages(
        role_label="recruiters" if role == "recruiter" else "job seekers", language=LANGUAGE_NAMES[lang],
        canary=canary_for(_thread_id()), jobs=json.dumps(state.get("context_jobs") or [], ensure_ascii=False),
        candidates=json.dumps(state.get("context_candidates") or [], ensure_ascii=False),
        history=[HumanMessage(h["content"]) if h["role"] == "user" else AIMessage(h["content"])
                 for h in state.get("history") or []],
        message=state.get("masked_message") or "")
    writer = get_stream_writer()
    text = answer_or(lambda: ctx.gateway.text("recruiter_chat", messages, offline_reply,
                                              on_token=lambda token: writer({"token": token})),
                     lambda failure: offline_reply())
    return {"llm_output": text, "model_calls": calls + 1}


def parse_response(state: ChatState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The reply text and its action: the `ACTION: {...}` line, or else what the message's words ask for."""
    output = state.get("llm_output") or ""
    action, found = None, _ACTION_LINE.search(output)
    if found:
        try:
            action = Action.model_validate_json(found.group(1))
        except ValidationError:
            action = None
        output = _ACTION_LINE.sub("", output).strip()
    if action is None:
        services = runtime.context.services
        user_history = [h["content"] for h in state.get("history") or [] if h["role"] == "user"][-4:]
        mentions = find_mentions(state.get("masked_message") or "", services.store.jobs(), services.store.candidates(),
                                 user_history)
        action = keyword_action(state.get("masked_message") or "", mentions, state.get("role") or "recruiter")
    return {"reply": output, "action": action.model_dump(exclude_none=True) if action else None}


def output_guard(state: ChatState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Content safety, invented entities, format and the canary (seed §6) over the reply text."""
    services, lang = runtime.context.services, state.get("language") or "en"
    ids, names, emails = services.store.known_entities()
    verdict = validate_output_text(state.get("reply") or "", known_emails=emails, known_names=names, known_ids=ids,
                                   id_pattern=ID_PATTERN, canary=canary_for(_thread_id()))
    services.log.write(verdict.findings, workflow_id=_thread_id(), session_id=state.get("session_id"),
                       user_id=state.get("user_id"), context={"node": "output_guard"})
    findings = list(state.get("guardrail_findings") or []) + findings_as_state(verdict.findings)
    if verdict.blocked:
        return {"blocked": True, "guardrail_findings": findings, "action": None,
                "reply": offline.withheld_reply(lang)}
    return {"guardrail_findings": findings, "reply": verdict.corrected}


def route_after_output_guard(state: ChatState) -> str:
    return "finalize" if state.get("blocked") or not state.get("action") else "process_action"


def process_action(state: ChatState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Read actions run directly; write actions check the role and the action limits first."""
    services, lang = runtime.context.services, state.get("language") or "en"
    action = Action.model_validate(state["action"])
    result = run_action(action, services=services, role=state.get("role") or "recruiter", lang=lang,
                        actor=state.get("user_id") or "recruiter")
    if result.status == "limited":
        services.log.write([offline.limit_finding(result.text)], workflow_id=_thread_id(),
                           session_id=state.get("session_id"), user_id=state.get("user_id"),
                           context={"node": "process_action", "action": action.type})
    # A draft holds the candidate's real address: the state keeps a placeholder.
    [text] = services.store.mask_pii(state.get("session_id") or "", result.text)
    reply = "\n\n".join(part for part in (state.get("reply") or "", text) if part.strip())
    findings = list(state.get("guardrail_findings") or [])
    if result.status == "limited":
        findings.append({"check": "action_rate_limit", "severity": "blocked", "message": clip(result.text, 300)})
    return {"reply": reply, "action": result.as_state(), "guardrail_findings": findings}


def finalize(state: ChatState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Save the turn to the session's messages (the store keeps them masked, as the state does) and close the turn."""
    services = runtime.context.services
    session_id = state.get("session_id") or ""
    reply = "\n\n".join(part for part in (state.get("reply") or "", "\n".join(state.get("refused") or [])) if part)
    services.store.add_message(session_id, "user", state.get("message") or "", _thread_id())
    services.store.add_message(session_id, "assistant", reply, _thread_id())
    return {"reply": reply, "blocked": bool(state.get("blocked"))}
