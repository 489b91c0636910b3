"""The JD agent (seed §5.1): extract → validate → finalize — a job's requirements: must-have vs nice-to-have
skills, minimum years and place; a description with instructions to an AI is read as data and flagged."""

from __future__ import annotations

from typing import Any, TypedDict

from langgraph.graph import StateGraph
from langgraph.runtime import Runtime

from pipelines.recruiter.agents.profiles import job_profile
from pipelines.recruiter.agents.wiring import linear_agent
from pipelines.recruiter.answers import t
from pipelines.recruiter.skills import vocabulary
from pipelines.recruiter.state import RecruiterContext


class JdAgentInput(TypedDict, total=False):
    job_id: str
    language: str


class JdAgentOutput(TypedDict, total=False):
    job_profile: dict[str, Any] | None
    jd_notes: list[str]


class JdAgentState(JdAgentInput, JdAgentOutput, total=False):
    extracted: dict[str, Any] | None


def extract(state: JdAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    job = runtime.context.services.store.job(state.get("job_id") or "")
    return {"extracted": job_profile(job, vocabulary(), state.get("language") or "en") if job else None}


def validate(state: JdAgentState) -> dict[str, Any]:
    profile, lang = state.get("extracted"), state.get("language") or "en"
    if profile is None:
        job_id = state.get("job_id")
        return {"jd_notes": [t(lang, f"No job {job_id!s} is stored.", f"没有编号为 {job_id!s} 的职位。")]}
    notes = []
    if not profile["must_have"]:
        notes.append(t(lang, "The job names no skill the vocabulary knows; matching relies on its text.",
                       "职位没有列出已知技能，匹配将依赖职位描述文本。"))
    if profile["unknown_skills"]:
        notes.append(t(lang, "Skills not in the vocabulary (matched as text only): ", "词表中没有的技能（仅按文本匹配）：")
                     + ", ".join(profile["unknown_skills"]))
    if profile["flagged"]:
        notes.append(t(lang, "The description contains text addressed to an AI system; it was treated as data.",
                       "职位描述中包含写给 AI 系统的文字，已作为数据处理。"))
    return {"jd_notes": notes}


def finalize(state: JdAgentState) -> dict[str, Any]:
    return {"job_profile": state.get("extracted"), "jd_notes": state.get("jd_notes") or []}


def build_jd_agent() -> StateGraph:
    return linear_agent(JdAgentState, JdAgentInput, JdAgentOutput,
                        ("extract", extract),
                        ("validate", validate),
                        ("finalize", finalize))
