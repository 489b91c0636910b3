"""The Scheduling agent (seed §5.1): load context → propose slots → INTERRUPT choose a slot → create the event →
finalize — free slots from the interviewer's calendar, the interview booked without overlaps, and an invitation
with its .ics drafted into the outbox."""

from __future__ import annotations

from datetime import date, datetime, timedelta
import operator
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from pipelines.core.errors import validate_input
from pipelines.recruiter.answers import t
from pipelines.recruiter.calendar_events import InterviewCalendar, SlotTaken, ics_filename, ics_for, interviewers_for_job
from pipelines.recruiter.outbox import Outbox
from pipelines.recruiter.schemas import SlotChoice
from pipelines.recruiter.state import SLOT_CHOICE, RecruiterContext


class SchedulingAgentInput(TypedDict, total=False):
    candidate_ids: list[str]
    job_id: str
    session_id: str
    language: str
    start_date: str  # ISO date the proposals start from (default: tomorrow)


class SchedulingAgentOutput(TypedDict, total=False):
    interviews: list[dict[str, Any]]
    scheduling_notes: list[str]
    drafts: Annotated[list[dict[str, Any]], operator.add]  # the invitations, for the final approval to send


class SchedulingAgentState(SchedulingAgentInput, SchedulingAgentOutput, total=False):
    interviewer_id: str | None
    slots: list[dict[str, str]]
    choice: dict[str, str]


def load_context(state: SchedulingAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    lang = state.get("language") or "en"
    people = [c for c in state.get("candidate_ids") or [] if runtime.context.services.store.candidate(c)]
    panel = interviewers_for_job(state.get("job_id") or "")
    if not panel or not people:
        why = (t(lang, "Nobody interviews for this job.", "这个职位没有面试官。") if not panel
               else t(lang, "No known candidate to schedule.", "没有可安排的候选人。"))
        return {"interviewer_id": None, "candidate_ids": people, "scheduling_notes": [why]}
    return {"interviewer_id": panel[0].id, "candidate_ids": people, "scheduling_notes": []}


def propose_slots(state: SchedulingAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    if not state.get("interviewer_id"):
        return {"slots": []}
    start = date.fromisoformat(state["start_date"]) if state.get("start_date") else date.today() + timedelta(days=1)
    calendar = InterviewCalendar(runtime.context.services.store.engine)
    wanted = 2 * len(state.get("candidate_ids") or []) + 2  # slots start every 30 min: enough for back-to-back ones
    slots = calendar.free_slots(state["interviewer_id"], start, limit=wanted)
    return {"slots": [{"start": s.start.isoformat(), "end": s.end.isoformat()} for s in slots]}


def route_after_proposals(state: SchedulingAgentState) -> str:
    return "choose_slot" if state.get("slots") else "finalize"


def choose_slot(state: SchedulingAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """INTERRUPT: the recruiter picks the time (`{"selected_slot": "..."}`), one per candidate, or cancels."""
    lang, store = state.get("language") or "en", runtime.context.services.store
    people = [store.candidate(c) for c in state.get("candidate_ids") or []]
    interviewer = InterviewCalendar(store.engine).interviewers.get(state.get("interviewer_id") or "")
    answer = interrupt({"kind": SLOT_CHOICE, "slots": state["slots"], "candidate_ids": state.get("candidate_ids") or [],
                        "candidates": [{"id": p.id, "name": p.name} for p in people if p],
                        "interviewer": interviewer.name if interviewer else "",
                        "question": t(lang, "Which interview time?", "选择哪个面试时间？")})
    choice = validate_input(SlotChoice, answer if isinstance(answer, dict) else {"selected_slot": answer},
                            "the interview time")
    if choice.cancel:
        return {"choice": {}}
    slots, people = state["slots"], state.get("candidate_ids") or []
    if choice.selected_slots:
        return {"choice": {c: s for c, s in choice.selected_slots.items() if c in people}}
    starts = [s["start"] for s in slots]
    first = starts.index(choice.selected_slot) if choice.selected_slot in starts else 0
    # The next candidates take the next proposals that do not overlap the one before (slots start every 30 min).
    chosen: list[str] = []
    free_from = ""
    for slot in slots[first:]:
        if len(chosen) == len(people):
            break
        if datetime.fromisoformat(slot["start"]) >= (datetime.fromisoformat(free_from) if free_from else
                                                     datetime.fromisoformat(slot["start"])):
            chosen.append(slot["start"])
            free_from = slot["end"]
    return {"choice": dict(zip(people, chosen, strict=False))}


def create_event(state: SchedulingAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Book each chosen interview (an overlap found now is reported, not booked) and draft its invitation."""
    services, lang = runtime.context.services, state.get("language") or "en"
    calendar, outbox = InterviewCalendar(services.store.engine), Outbox(services.store.engine)
    interviewer = calendar.interviewers[state["interviewer_id"]]
    job = services.store.job(state["job_id"])
    booked, notes, invitations = [], list(state.get("scheduling_notes") or []), []
    for candidate_id, start in (state.get("choice") or {}).items():
        person = services.store.candidate(candidate_id)
        try:
            event = calendar.book(person, job, interviewer.id, datetime.fromisoformat(start))
        except SlotTaken:
            notes.append(t(lang, f"{person.name}: {start} was taken meanwhile; choose another time.",
                           f"{person.name}：{start} 已被占用，请另选时间。"))
            continue
        outbox_id = None
        if person.email:
            when = f"{event.local_start:%Y-%m-%d %H:%M} ({event.timezone})"
            subject = t(lang, f"Interview: {job.title}", f"面试邀请：{job.title}")
            body = t(lang, f"Hi {person.name},\n\nYour interview for {job.title} with {interviewer.name} is on {when}. "
                           "The calendar invitation is attached.\n\nBest regards",
                     f"{person.name}，您好：\n\n您应聘{job.title}的面试安排在 {when}，面试官 {interviewer.name}。"
                     "日历邀请见附件。\n\n祝好")
            outbox_id = outbox.draft(person.email, subject, body, session_id=state.get("session_id"),
                                     candidate_id=person.id, job_id=job.id, attachment_name=ics_filename(event),
                                     attachment_text=ics_for(event, person, job, interviewer))
            calendar.attach_outbox(event.id, outbox_id)
            to, body = services.store.mask_pii(state.get("session_id") or "", person.email, body)
            # The booking travels with its invitation: an invitation that is not sent releases it (supervisor).
            invitations.append({"candidate_id": person.id, "name": person.name, "outbox_id": outbox_id, "ok": True,
                                "to": to, "subject": subject, "body": body, "findings": [],
                                "attachment": ics_filename(event), "event_id": event.id,
                                "start": event.local_start.isoformat(), "timezone": event.timezone})
        booked.append({"event_id": event.id, "candidate_id": person.id, "name": person.name,
                       "interviewer": interviewer.name, "start": event.local_start.isoformat(),
                       "timezone": event.timezone, "outbox_id": outbox_id})
    return {"interviews": booked, "scheduling_notes": notes, "drafts": invitations}


def finalize(state: SchedulingAgentState) -> dict[str, Any]:
    notes = list(state.get("scheduling_notes") or [])
    if state.get("slots") and not state.get("choice"):
        notes.append(t(state.get("language") or "en", "No interview was booked.", "没有安排面试。"))
    return {"interviews": state.get("interviews") or [], "scheduling_notes": notes}  # drafts: added by create_event


def build_scheduling_agent() -> StateGraph:
    graph = StateGraph(SchedulingAgentState, context_schema=RecruiterContext, input_schema=SchedulingAgentInput,
                       output_schema=SchedulingAgentOutput)
    graph.add_node("load_context", load_context)
    graph.add_node("propose_slots", propose_slots)
    graph.add_node("choose_slot", choose_slot)
    graph.add_node("create_event", create_event)
    graph.add_node("finalize", finalize)
    graph.add_edge(START, "load_context")
    graph.add_edge("load_context", "propose_slots")
    graph.add_conditional_edges("propose_slots", route_after_proposals, ["choose_slot", "finalize"])
    graph.add_edge("choose_slot", "create_event")
    graph.add_edge("create_event", "finalize")
    graph.add_edge("finalize", END)
    return graph
