"""The Matching agent (seed §5.1): load context → rank (BM25, skills, embeddings) → score and explain → finalize,
a shortlist for a job with each candidate's reasons, missing skills and filter notes."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, TypedDict

from langgraph.graph import StateGraph
from langgraph.runtime import Runtime

from pipelines.core.guardrails.document_scan import scan_document
from pipelines.recruiter.agents.wiring import linear_agent
from pipelines.recruiter.answers import t
from pipelines.recruiter.state import RecruiterContext

CLOSED = ("rejected", "withdrawn", "hired")  # no outreach to someone already decided for this job


class MatchingAgentInput(TypedDict, total=False):
    job_id: str
    candidate_ids: list[str]  # rank only these (a candidate review); empty: everyone stored
    top: int
    language: str


class MatchingAgentOutput(TypedDict, total=False):
    shortlist: list[dict[str, Any]]
    matching_notes: list[str]


class MatchingAgentState(MatchingAgentInput, MatchingAgentOutput, total=False):
    excluded: list[str]
    ranked: list[dict[str, Any]]


def load_context(state: MatchingAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    store, lang = runtime.context.services.store, state.get("language") or "en"
    job = store.job(state.get("job_id") or "")
    if job is None:
        return {"excluded": [], "matching_notes": [t(lang, f"No job {state.get('job_id')!s} is stored.",
                                                     f"没有编号为 {state.get('job_id')!s} 的职位。")]}
    closed = [row["candidate_id"] for row in store.applications(job_id=job.id) if row["status"] in CLOSED]
    return {"excluded": closed, "matching_notes": []}


def rank(state: MatchingAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    services = runtime.context.services
    job = services.store.job(state.get("job_id") or "")
    if job is None:
        return {"ranked": []}
    wanted, excluded = set(state.get("candidate_ids") or []), set(state.get("excluded") or [])
    top = max(1, min(int(state.get("top") or 10), 50))
    lang = state.get("language") or "en"
    matches = services.index().rank(job, top=len(services.store.candidates()), lang=lang)
    kept = [m for m in matches if (not wanted or m.candidate_id in wanted) and m.candidate_id not in excluded]
    return {"ranked": [asdict(m) for m in kept[:top]]}


def score_and_explain(state: MatchingAgentState, runtime: Runtime[RecruiterContext]) -> dict[str, Any]:
    """Each match as the recruiter reads it; a resume that talks to AI readers is kept but marked, its score is
    the matcher's, never what the resume asks for."""
    store, lang = runtime.context.services.store, state.get("language") or "en"
    shortlist, notes = [], list(state.get("matching_notes") or [])
    for rank_no, match in enumerate(state.get("ranked") or [], 1):
        person = store.candidate(match["candidate_id"])
        flagged = bool(person and scan_document(person.resume_text))
        shortlist.append({"rank": rank_no, "candidate_id": match["candidate_id"], "name": match["name"],
                          "score": round(match["score"], 3), "parts": {k: round(v, 3) for k, v in match["parts"].items()},
                          "reasons": list(match["reasons"]), "missing_skills": list(match["missing_skills"]),
                          "filter_notes": list(match["filter_notes"]), "passes_filters": match["passes_filters"],
                          "flagged": flagged})
        if flagged:
            notes.append(t(lang, f"{match['name']} ({match['candidate_id']}): the resume contains text addressed to an "
                                 "AI; it was ranked on its content only.",
                           f"{match['name']}（{match['candidate_id']}）：简历包含写给 AI 的文字，仅按内容排名。"))
    if not shortlist and not notes:
        notes.append(t(lang, "No candidate is left to rank for this job.", "这个职位没有可排名的候选人。"))
    return {"shortlist": shortlist, "matching_notes": notes}


def finalize(state: MatchingAgentState) -> dict[str, Any]:
    return {"shortlist": state.get("shortlist") or [], "matching_notes": state.get("matching_notes") or []}


def build_matching_agent() -> StateGraph:
    return linear_agent(MatchingAgentState, MatchingAgentInput, MatchingAgentOutput,
                        ("load_context", load_context),
                        ("rank", rank),
                        ("score_and_explain", score_and_explain),
                        ("finalize", finalize))
