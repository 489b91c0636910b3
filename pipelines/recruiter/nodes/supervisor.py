"""The supervisor's dispatch over an approved plan (seed §4, §5.2): sequential agents, parallel fan-out with Send
(one Communication agent per candidate), the Resume agent's handoff to Matching, approvals where the plan puts
them, then aggregate_results (output guardrails over every agent's output) → INTERRUPT final approval → send."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Command, Send, interrupt

from pipelines.core.errors import validate_input
from pipelines.core.guardrails.findings import Finding
from pipelines.core.guardrails.pii import PiiVault
from pipelines.core.guardrails.output_validator import validate_output_text
from pipelines.recruiter.answers import stage_name, t
from pipelines.recruiter.calendar_events import InterviewCalendar
from pipelines.recruiter.nodes.chat import findings_as_state
from pipelines.recruiter.nodes.router import thread_id
from pipelines.recruiter.outbox import Outbox, smtp_sender
from pipelines.recruiter.schemas import DraftApproval, Plan, ShortlistDecision
from pipelines.recruiter.state import FINAL_APPROVAL, SHORTLIST_APPROVAL, PlannerState, RecruiterContext

ALL = {"*", "all", "全部"}
SCHEDULE_AT_MOST = 5  # interviews proposed in one round when the plan did not narrow the shortlist down


def _go(node: str, cursor: int, **update: Any) -> Command:
    return Command(goto=node, update={"cursor": cursor, **update})


def _pending(state: PlannerState) -> list[dict[str, Any]]:
    decided = set(state.get("decided_ids") or [])
    return [d for d in state.get("drafts") or [] if d.get("ok") and d.get("outbox_id") not in decided]


def _people(state: PlannerState) -> list[str]:
    """The candidates the next agent works on: the approved ones, else the shortlist's, within the plan's number."""
    chosen = state.get("candidate_ids") or [item["candidate_id"] for item in state.get("shortlist") or []]
    return list(dict.fromkeys(chosen))[:max(1, int(state.get("top") or 10))]


def dispatch(state: PlannerState) -> Command:
    """The next step of the plan, by its agent and mode; the end of the plan goes to aggregate_results."""
    steps = Plan.model_validate(state["plan"]).steps
    i, last = int(state.get("cursor") or 0), state.get("last_agent") or ""
    while i < len(steps):
        step = steps[i]
        if step.agent == "jd":
            return _go("jd_agent", i + 1, last_agent="jd")
        if step.agent == "resume":
            handoff = i + 1 < len(steps) and steps[i + 1].agent == "matching"
            return _go("resume_agent", i + 2 if handoff else i + 1, last_agent="matching" if handoff else "resume",
                       handoff_to="matching_agent" if handoff else "dispatch")
        if step.agent == "matching":
            only = [state["candidate_id"]] if state.get("workflow_type") == "interview_scheduling" and \
                state.get("candidate_id") else []
            return _go("matching_agent", i + 1, last_agent="matching", candidate_ids=only)
        if step.agent == "communication" and step.mode == "parallel":
            sends = [Send("communication_agent", {"candidate_id": c, "job_id": state.get("job_id") or "",
                                                  "batch_id": state.get("batch_id") or "", "language": state.get("language"),
                                                  "session_id": state.get("session_id") or ""}) for c in _people(state)]
            if sends:
                return Command(goto=sends, update={"cursor": i + 1, "last_agent": "communication"})
        elif step.agent == "communication" or (step.mode == "interrupt" and last == "communication"):
            # the batch is reviewed and sent together: skip a "send" step that follows its approval
            skip = i + 1 < len(steps) and steps[i + 1].agent == "communication" and steps[i + 1].mode != "parallel"
            return _go("aggregate_results", i + (2 if skip and step.mode == "interrupt" else 1), last_agent="sent")
        elif step.mode == "interrupt" and last == "matching":
            return _go("review_shortlist", i + 1, last_agent="reviewed")
        elif step.agent == "scheduling":
            return _go("scheduling_agent", i + 1, last_agent="scheduling", candidate_ids=_people(state)[:SCHEDULE_AT_MOST])
        elif step.agent == "pipeline":
            j = i
            while j < len(steps) and (steps[j].agent == "pipeline" or steps[j].mode == "interrupt"):
                j += 1
            if state.get("workflow_type") == "candidate_review":
                return _go("apply_review", j, last_agent="pipeline")
            return _go("pipeline_agent", j, last_agent="pipeline")
        i += 1  # a supervisor step whose check or approval belongs to an agent (pipeline, scheduling) or to aggregate
    return _go("aggregate_results", i, last_agent="done")


def review_shortlist(state: PlannerState) -> dict[str, Any]:
    """INTERRUPT: the recruiter keeps the candidates to go on with (`{"approved_ids": [...]}`)."""
    lang = state.get("language") or "en"
    shortlist = state.get("shortlist") or []
    answer = interrupt({"kind": SHORTLIST_APPROVAL, "shortlist": shortlist,
                        "question": t(lang, "Which candidates should the plan go on with?", "计划继续处理哪些候选人？")})
    decision = validate_input(ShortlistDecision, answer if isinstance(answer, dict) else {"approved_ids": answer},
                              "the shortlist approval")
    known = [item["candidate_id"] for item in shortlist]
    if any(i.lower() in ALL for i in decision.approved_ids):
        return {"candidate_ids": known}
    return {"candidate_ids": [c for c in decision.approved_ids if c in set(known)]}


def apply_review(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """A candidate review's last step (the Pipeline agent's status update): the confirmed candidates move to
    screening for the job, with the history written and the daily limit counted."""
    services, lang = runtime.context.services, state.get("language") or "en"
    people, job_id = state.get("candidate_ids") or [], state.get("job_id") or ""
    if not people or not job_id:
        return {"applied": [], "pipeline_notes": [t(lang, "No status was changed.", "没有变更状态。")]}
    decision = services.limiter.take("status_changes", len(people))
    if not decision.allowed:
        return {"applied": [], "pipeline_notes": [decision.message]}
    applied = [{"candidate_id": c, **services.store.set_status(c, job_id, "screening", actor=state.get("user_id") or
                                                               "recruiter", note="candidate review")} for c in people]
    return {"applied": applied, "pipeline_notes": []}


def aggregate_results(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Every agent's output in one summary, with the output guardrails over the drafts: a draft for a candidate or
    an address that is not in the data, or with unsafe text, is discarded and flagged before anyone approves it."""
    services, lang = runtime.context.services, state.get("language") or "en"
    store, outbox = services.store, Outbox(services.store.engine)
    ids, names, emails = store.known_entities()
    known_addresses = {e.lower() for e in emails}
    findings: list[Finding] = []
    dropped: list[int] = []
    for draft in _pending(state):
        message = outbox.get(draft["outbox_id"])
        person = store.candidate(draft["candidate_id"])
        verdict = validate_output_text(f"{message.subject}\n{message.body}", known_emails=emails, known_names=names,
                                       known_ids=ids) if message else None
        invented = person is None or message is None or message.to_address.lower() not in known_addresses
        if invented or (verdict and (verdict.blocked or any(f.check == "output_hallucination" for f in verdict.findings))):
            findings.append(Finding("output_hallucination", "blocked", f"A draft to a candidate or address that is not in "
                                    f"the data (or with invented names) was discarded: {draft['candidate_id']}."))
            dropped.append(draft["outbox_id"])
    if dropped:
        outbox.discard(dropped)
    released = release_bookings(state, [d for d in _pending(state) if d["outbox_id"] in dropped], services.store.engine,
                                t(lang, "a check refused it", "未通过检查"))
    services.log.write(findings, workflow_id=thread_id(), session_id=state.get("session_id"), user_id=state.get("user_id"),
                       context={"node": "aggregate_results"})
    summary = _summary({**state, **released}, lang)
    return {"decided_ids": [*(state.get("decided_ids") or []), *dropped], "summary": summary, **released,
            "guardrail_findings": list(state.get("guardrail_findings") or []) + findings_as_state(findings)}


def release_bookings(state: PlannerState, unsent: list[dict[str, Any]], engine: Any, why: str) -> dict[str, Any]:
    """An interview and its invitation stand or fall together: the bookings of invitations that will not go out
    (discarded by a check, or left out at the final approval) are cancelled, and a note names each one. A kept
    booking nobody was told of would hold the interviewer's time for a candidate who does not know of it; the
    recruiter books again in one step once the cause is fixed."""
    lang = state.get("language") or "en"
    calendar, notes, events = InterviewCalendar(engine), list(state.get("release_notes") or []), []
    for draft in unsent:
        if not draft.get("event_id") or not calendar.cancel(draft["event_id"]):
            continue
        events.append(draft["event_id"])
        when, who = _when(draft.get("start") or "", draft.get("timezone") or ""), draft.get("name") or draft["candidate_id"]
        notes.append(t(lang, f"The interview with {who} on {when} was released and no invitation was sent ({why}): "
                             "schedule it again if it should stay.",
                       f"与 {who} 在 {when} 的面试已释放，未发送邀请（{why}）：如需保留，请重新安排。"))
    if not events:
        return {}
    return {"released_events": [*(state.get("released_events") or []), *events], "release_notes": notes}


def _summary(state: PlannerState, lang: str) -> list[str]:
    lines = []
    if state.get("shortlist"):
        names = ", ".join(f"{i['name']} ({i['candidate_id']})" for i in state["shortlist"][:10])
        lines.append(t(lang, f"Shortlist: {names}", f"候选名单：{names}"))
    if state.get("drafts"):
        ok = sum(1 for d in state["drafts"] if d.get("ok"))
        total = len(state["drafts"])
        lines.append(t(lang, f"Drafts: {ok} of {total} written.", f"邮件草稿：{total} 封中完成 {ok} 封。"))
    if state.get("sent"):
        lines.append(state["sent"]["summary"])
    released = set(state.get("released_events") or [])
    for item in [i for i in state.get("interviews") or [] if i.get("event_id") not in released]:
        when = _when(item["start"], item.get("timezone") or "")
        lines.append(t(lang, f"Interview: {item['name']} with {item['interviewer']} on {when}",
                       f"面试：{item['name']}，面试官 {item['interviewer']}，时间 {when}"))
    if state.get("proposals"):
        n, done = len(state["proposals"]), len(state.get("applied") or [])
        lines.append(t(lang, f"Pipeline: {n} proposal(s), {done} carried out.", f"管道：{n} 条建议，执行 {done} 条。"))
    names = {i["candidate_id"]: i.get("name") for i in [*(state.get("shortlist") or []), *(state.get("proposals") or [])]}
    for item in state.get("applied") or []:
        who = item.get("name") or names.get(item["candidate_id"])
        change = (f"{who} ({item['candidate_id']})" if who else item["candidate_id"]) + \
            f" → {stage_name(item['to_status'], lang)}"
        lines.append(t(lang, f"Status: {change}", f"状态：{change}"))
    for key in ("jd_notes", "resume_notes", "matching_notes", "scheduling_notes", "pipeline_notes", "release_notes"):
        lines.extend(state.get(key) or [])
    return lines or [t(lang, "The plan is done.", "计划已完成。")]


def _when(start: str, zone: str) -> str:
    """'Mon 30 Nov 2026, 09:00 (Asia/Shanghai)' from the booking's ISO start in the interviewer's time zone."""
    try:
        local = datetime.fromisoformat(start)
    except ValueError:
        return start
    return f"{local:%a} {local.day} {local:%b %Y}, {local:%H:%M}" + (f" ({zone})" if zone else "")


def route_after_aggregate(state: PlannerState) -> str:
    if _pending(state):
        return "final_approval"
    cursor, steps = int(state.get("cursor") or 0), Plan.model_validate(state["plan"]).steps
    return "dispatch" if cursor < len(steps) else "finalize_plan"


def final_approval(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """INTERRUPT: the drafts (masked), editable, and what the limits leave today; nothing is sent before this."""
    services, policy, lang = runtime.context.services, runtime.context.policy, state.get("language") or "en"
    pending = _pending(state)
    left = max(0, policy.emails_per_day - services.limiter.used("emails"))
    answer = interrupt({"kind": FINAL_APPROVAL, "drafts": pending, "emails_left_today": left,
                        "batch_cap": policy.batch_cap, "summary": state.get("summary") or [],
                        "question": t(lang, f"Send which of these {len(pending)} email(s)? {left} left today.",
                                      f"发送这 {len(pending)} 封邮件中的哪些？今天还可发送 {left} 封。")})
    decision = validate_input(DraftApproval, answer if isinstance(answer, dict) else {"approved_ids": answer},
                              "the final approval")
    return {"final_decision": decision.model_dump(mode="json")}


def send_emails(state: PlannerState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Send the approved drafts (edited first) through SMTP when one is configured, in batches within the cap and
    the daily limit; the others are discarded. Without SMTP they stay in the outbox, marked not sent."""
    services, policy = runtime.context.services, runtime.context.policy
    outbox = Outbox(services.store.engine)
    drafts = _pending(state)
    pending = [d["outbox_id"] for d in drafts]
    decision = DraftApproval.model_validate(state.get("final_decision") or {})
    # A draft is named by its outbox id or by its candidate's id; "all" approves every pending draft.
    wanted = set(decision.approved_ids)
    everything = any(i.lower() in ALL for i in wanted)
    chosen = [d for d in drafts if everything or str(d["outbox_id"]) in wanted or d["candidate_id"] in wanted]
    approved = [d["outbox_id"] for d in chosen]
    vault = PiiVault.from_entries(services.store.vault_entries(state.get("session_id") or ""))
    for key, edit in decision.edits.items():  # edits come masked, as the card showed them: the email gets the values
        if key.isdigit() and int(key) in approved:
            outbox.edit(int(key), subject=None if edit.subject is None else vault.restore(edit.subject),
                        body=None if edit.body is None else vault.restore(edit.body))
    outbox.approve(approved)
    outbox.discard([i for i in pending if i not in approved])
    sender, reports, lang = smtp_sender(policy), [], state.get("language") or "en"
    for start in range(0, len(approved), policy.batch_cap):
        reports.append(outbox.send(approved[start:start + policy.batch_cap], sender, services.limiter).summary(lang))
    summary = "; ".join(reports) if reports else t(lang, "No email was approved.", "没有批准任何邮件。")
    released = release_bookings(state, [d for d in drafts if d["outbox_id"] not in approved], services.store.engine,
                                t(lang, "you did not approve it", "您未批准"))
    # Those written to are the ones the plan goes on with (the chain schedules interviews for them).
    written_to = [d["candidate_id"] for d in chosen]
    return {"decided_ids": [*(state.get("decided_ids") or []), *pending], "candidate_ids": written_to,
            "sent": {"summary": summary, "approved": approved}, **released}
