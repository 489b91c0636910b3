"""The Communication agent (seed §5.1): load context → draft email → validate → finalize, one candidate per run
(the planner fans it out with Send, one per candidate). The draft goes to the outbox with the real address; the
state keeps it masked. Sending is a separate, visible node of the planner, after approval."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from langgraph.graph import StateGraph
from langgraph.runtime import Runtime

from pipelines.core.guardrails.output_validator import validate_output_text
from pipelines.core.models.failures import answer_or
from pipelines.core.text import LANGUAGE_NAMES
from pipelines.recruiter.agents.wiring import linear_agent
from pipelines.recruiter.answers import outreach_draft, t
from pipelines.recruiter.outbox import Outbox
from pipelines.recruiter.prompts import DRAFT_EMAIL
from pipelines.recruiter.schemas import EmailDraft
from pipelines.recruiter.state import RecruiterContext


class CommunicationAgentInput(TypedDict, total=False):
    candidate_id: str
    job_id: str
    batch_id: str
    session_id: str
    language: str


class CommunicationAgentOutput(TypedDict, total=False):
    drafts: Annotated[list[dict[str, Any]], operator.add]  # one per candidate: the fan-out's branches add theirs


class CommunicationAgentState(CommunicationAgentInput, CommunicationAgentOutput, total=False):
    context: dict[str, Any] | None
    draft: dict[str, Any] | None
    findings: list[dict[str, Any]]


def load_context(state: CommunicationAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    services = runtime.context.services
    person = services.store.candidate(state.get("candidate_id") or "")
    job = services.store.job(state.get("job_id") or "")
    if person is None or job is None:
        return {"context": None}
    explained = services.index().explain(job, person.id, lang=state.get("language") or "en")
    return {"context": {"matched": list(explained.matched_skills[:3]) if explained else [], "has_email": bool(person.email)}}


def draft_email(state: CommunicationAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """A personalised draft from the resume's matched skills and the job: the model's with a provider (validated
    next), or the offline bilingual template."""
    if state.get("context") is None:
        return {"draft": None}
    ctx, lang = runtime.context, state.get("language") or "en"
    person, job = ctx.services.store.candidate(state["candidate_id"]), ctx.services.store.job(state["job_id"])
    template = outreach_draft(person, job, lang, state["context"]["matched"])
    if ctx.gateway.is_offline:
        return {"draft": template}

    def offline() -> EmailDraft:
        return EmailDraft(subject=template["subject"], body=template["body"])

    written = answer_or(lambda: ctx.gateway.structured(
        "recruiter_draft_email", EmailDraft, DRAFT_EMAIL.format_messages(
            language=LANGUAGE_NAMES[lang], name=person.name, job_title=job.title,
            skills=", ".join(state["context"]["matched"]) or "-"), offline=offline), lambda failure: offline())
    return {"draft": {"to": template["to"], "subject": written.subject, "body": written.body}}


def validate(state: CommunicationAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """The output guardrails over the draft: invented names, ids or addresses, unsafe text, format."""
    draft = state.get("draft")
    if draft is None:
        return {"findings": []}
    ids, names, emails = runtime.context.services.store.known_entities()
    verdict = validate_output_text(draft["subject"] + "\n" + draft["body"], known_emails=emails, known_names=names,
                                   known_ids=ids)
    return {"findings": [{"check": f.check, "severity": f.severity, "message": f.message} for f in verdict.findings]}


def finalize(state: CommunicationAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Write the draft to the outbox (the real address) and report it masked; a draft that failed a check or a
    candidate without an email address is reported, not written."""
    lang, store = state.get("language") or "en", runtime.context.services.store
    candidate_id = state.get("candidate_id") or ""
    person = store.candidate(candidate_id)
    name = person.name if person else candidate_id
    draft, findings = state.get("draft"), state.get("findings") or []
    # Unsafe text is not written; anything else is, with its findings, for aggregate_results to judge the batch.
    blocked = any(f["severity"] == "blocked" for f in findings)
    if draft is None or blocked or not draft["to"]:
        why = (t(lang, "no email address on file", "没有邮箱") if draft and not draft["to"]
               else t(lang, "the draft failed a guardrail check", "草稿未通过安全检查") if blocked
               else t(lang, "unknown candidate or job", "候选人或职位不存在"))
        return {"drafts": [{"candidate_id": candidate_id, "name": name, "outbox_id": None, "ok": False, "reason": why,
                            "findings": findings}]}
    outbox_id = Outbox(store.engine).draft(draft["to"], draft["subject"], draft["body"], batch_id=state.get("batch_id"),
                                           session_id=state.get("session_id"), candidate_id=candidate_id,
                                           job_id=state.get("job_id"))
    to, body = store.mask_pii(state.get("session_id") or "", draft["to"], draft["body"])
    shown = {"to": to, "subject": draft["subject"], "body": body}
    return {"drafts": [{"candidate_id": candidate_id, "name": name, "outbox_id": outbox_id, "ok": True, **shown,
                        "findings": findings}]}


def build_communication_agent() -> StateGraph:
    return linear_agent(CommunicationAgentState, CommunicationAgentInput, CommunicationAgentOutput,
                        ("load_context", load_context),
                        ("draft_email", draft_email),
                        ("validate", validate),
                        ("finalize", finalize))
