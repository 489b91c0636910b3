"""The Resume agent (seed §5.1): extract → validate → finalize — skills with their evidence, experience, education
and masked contact from a candidate's resume; a resume with instructions to an AI is read as data and flagged."""

from __future__ import annotations

from typing import Any, TypedDict

from langgraph.graph import StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command

from pipelines.recruiter.agents.profiles import resume_profile
from pipelines.recruiter.agents.wiring import linear_agent
from pipelines.recruiter.answers import t
from pipelines.recruiter.skills import vocabulary
from pipelines.recruiter.state import RecruiterContext


class ResumeAgentInput(TypedDict, total=False):
    candidate_id: str
    session_id: str
    language: str
    handoff_to: str  # in the planner: the node to hand the profile to (the Matching agent), not back to the supervisor


class ResumeAgentOutput(TypedDict, total=False):
    resume_profile: dict[str, Any] | None
    resume_notes: list[str]


class ResumeAgentState(ResumeAgentInput, ResumeAgentOutput, total=False):
    extracted: dict[str, Any] | None


def extract(state: ResumeAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    store, lang = runtime.context.services.store, state.get("language") or "en"
    person = store.candidate(state.get("candidate_id") or "")
    if person is None:
        return {"extracted": None}
    session_id = state.get("session_id") or ""
    profile = resume_profile(person, vocabulary(), lambda texts: store.mask_pii(session_id, *texts), lang)
    return {"extracted": profile}


def validate(state: ResumeAgentState) -> dict[str, Any]:
    """What a recruiter should know before trusting the profile: a missing candidate, no skills, unknown years, a
    resume that talks to AI readers."""
    profile, lang = state.get("extracted"), state.get("language") or "en"
    if profile is None:
        return {"resume_notes": [t(lang, f"No candidate {state.get('candidate_id')!s} is stored.",
                                   f"没有编号为 {state.get('candidate_id')!s} 的候选人。")]}
    notes = []
    if not profile["skills"]:
        notes.append(t(lang, "No known skill was found in the resume.", "简历中没有识别出已知技能。"))
    if profile["years"] is None:
        notes.append(t(lang, "Years of experience are unknown (no dated roles).", "工作年限未知（没有带日期的经历）。"))
    if profile["flagged"]:
        notes.append(t(lang, "The resume contains text addressed to an AI system; it was treated as data, not followed.",
                       "简历中包含写给 AI 系统的文字，已作为数据处理，没有执行。"))
    return {"resume_notes": notes}


def finalize(state: ResumeAgentState) -> dict[str, Any] | Command:
    """The profile; inside the planner, a handoff (seed §5.2, mode 3): straight to the next agent, with the
    candidate to match, without going back to the supervisor."""
    out = {"resume_profile": state.get("extracted"), "resume_notes": state.get("resume_notes") or []}
    if state.get("handoff_to"):
        found = [state["candidate_id"]] if state.get("extracted") else []
        return Command(graph=Command.PARENT, goto=state["handoff_to"], update={**out, "candidate_ids": found})
    return out


def build_resume_agent() -> StateGraph:
    return linear_agent(ResumeAgentState, ResumeAgentInput, ResumeAgentOutput,
                        ("extract", extract),
                        ("validate", validate),
                        ("finalize", finalize))
