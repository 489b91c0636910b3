"""iCan's outer nodes: the guide facade, the client's turn, and the four analysis stages (seed 003 §3, §6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from pipelines.core.jsonable import as_prompt_json
from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.core.runtime.stepping import subgraph_step_options
from pipelines.ican import prompts, report, resume
from pipelines.ican.guide_graph import GUIDE_GRAPH
from pipelines.ican.guide_nodes import LANGUAGE_NAMES, ask_model, conversation_text, user_text
from pipelines.ican.education import degree_in
from pipelines.ican.language import first_language, language_after
from pipelines.ican.offline import years_of_experience
from pipelines.ican.occupations import career_matches, client_skills
from pipelines.ican.riasec import score_riasec
from pipelines.ican.schemas import RIASEC, RiasecProfile, StructuredProfile
from pipelines.ican.state import CLIENT_MESSAGE, MAX_CLIENT_TURNS, Agent, ChatTurn, GuideStage, ICanContext

PROGRESS = {"handoff": 30, Agent.RESUME_PARSER: 50, Agent.PROFILE_ANALYZER: 70, Agent.CAREER_MATCHER: 90,
            Agent.REPORTER: 100}


def client_turns(history: list[ChatTurn]) -> int:
    return sum(1 for turn in history if turn.get("role") == "user")


def analysis_ready(state: Mapping[str, Any]) -> bool:
    """The seed's route_after_guide: the guide has enough (or handed off), or the client sent 3 messages."""
    return not state.get("needs_more_info", True) or \
        client_turns(state.get("conversation_history") or []) >= MAX_CLIENT_TURNS


def _screened(state: Mapping[str, Any]) -> dict[str, Any]:
    """The resume scanned again where the workflow reads it (a resume edited into the state came past the upload's
    scan): an update that leaves out what reads like instructions to an AI, or {} when there is nothing new."""
    text = state.get("resume_text") or ""
    update = resume.screen(text, state.get("resume_flagged") or []) if text else {}
    return update if update and update["resume_text"] != text else {}


def guide_node(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    """The facade: map the outer state into the guide subgraph, run it, and map every reply back out."""
    ctx = runtime.context
    screened = _screened(state)
    state = {**state, **screened}
    history = list(state.get("conversation_history") or [])
    said = user_text(history)
    language = language_after(state.get("language"), [t["content"] for t in history if t.get("role") == "user"])
    info = {k: v for k, v in (state.get("collected_info") or {}).items()
            if k not in ("examined", "closing_turn", "from_resume")}
    resume_text = state.get("resume_text") or ""
    if resume_text and not state.get("resume_issue") and resume.looks_like_resume(resume_text):
        info["from_resume"] = resume.resume_facts(resume_text)  # what the guide need not ask for
    loops = int(state.get("guide_loop_count") or 0)
    info["closing_turn"] = client_turns(history) >= MAX_CLIENT_TURNS or loops >= ctx.max_guide_loops
    result = GUIDE_GRAPH.invoke({
        "conversation_history": history, "collected_info": info, "messages": [], "is_info_sufficient": False,
        "current_stage": GuideStage.GREETING.value, "missing_fields": list(state.get("missing_fields") or []),
        "emotion_state": state.get("emotion_state") or "neutral", "loop_count": loops,
        "max_loops": ctx.max_guide_loops, "language": language}, context=ctx, **subgraph_step_options())
    replies = [{"role": "assistant", "content": m} for m in result.get("messages") or [] if m.strip()]
    handed_off = result.get("current_stage") == GuideStage.HANDOFF.value
    collected = dict(result.get("collected_info") or {})
    update = {
        "conversation_history": history + replies, "current_agent": Agent.GUIDE.value,
        "needs_more_info": not handed_off, "collected_info": collected,
        "missing_fields": result.get("missing_fields") or [], "emotion_state": result.get("emotion_state", "neutral"),
        "guide_loop_count": int(result.get("loop_count") or loops), "max_guide_loops": ctx.max_guide_loops,
        "client_turns": client_turns(history), "language": language,
        "raw_input": collected.get("collected_raw") or said, **screened,
    }
    if analysis_ready(update):
        update["progress"] = PROGRESS["handoff"]
        update["forced_analysis"] = not result.get("is_info_sufficient", False)
    return update


def route_after_guide(state: Mapping[str, Any]) -> str:
    return "resume_parser_node" if analysis_ready(state) else "client_turn"


def client_turn(state: dict[str, Any]) -> dict[str, Any]:
    """Wait for the client's next message (resumed with it as a plain string), then guide again."""
    history = list(state.get("conversation_history") or [])
    question = next((t["content"] for t in reversed(history) if t.get("role") == "assistant"), "")
    answer = interrupt({"kind": CLIENT_MESSAGE, "question": question, "turn": client_turns(history) + 1,
                        "of": MAX_CLIENT_TURNS})
    message = str(answer.get("message", "") if isinstance(answer, dict) else answer).strip()
    history.append({"role": "user", "content": message})
    return {"conversation_history": history, "client_turns": client_turns(history)}


def resume_parser_node(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    screened = _screened(state)
    state = {**state, **screened}
    history = state.get("conversation_history") or []
    lang = state.get("language") or first_language(user_text(history))
    text, issue = state.get("resume_text") or "", state.get("resume_issue") or ""
    if text and not resume.looks_like_resume(text):
        text, issue = "", resume.not_a_resume_message(state.get("resume_name") or "the resume text")
    profile = ask_model(
        runtime.context.gateway, "ican.resume_parser", StructuredProfile,
        prompts.RESUME_PROFILE.format_messages(resume=text[:20000] or "(no resume)", language=LANGUAGE_NAMES[lang],
                                               conversation=conversation_text(history)),
        lambda: resume.profile_from(text, user_text(history), state.get("collected_info") or {}, lang))
    # What the client said stands, whoever parsed the resume: their 8 years are not the 6 its dates add up to.
    collected = state.get("collected_info") or {}
    profile = resume.keep_client_facts(
        profile, collected.get("years_experience") or years_of_experience(user_text(history)),
        degree_in(str(collected.get("education") or "")) or degree_in(user_text(history)), text, lang)
    update = {"structured_profile": profile.model_dump(mode="json"), "current_agent": Agent.RESUME_PARSER.value,
              "progress": PROGRESS[Agent.RESUME_PARSER], **screened}
    if issue != (state.get("resume_issue") or ""):
        update["resume_issue"] = issue
    return update


def profile_analyzer_node(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    said, resume_text = user_text(state.get("conversation_history") or []), state.get("resume_text") or ""
    if state.get("resume_issue"):
        resume_text = ""  # a file that is not a resume says nothing about the client
    result = ask_model(
        runtime.context.gateway, "ican.profile_analyzer", RiasecProfile,
        prompts.RIASEC.format_messages(conversation=said[:12000], resume=resume_text[:12000] or "(none)"),
        lambda: score_riasec(said, resume_text).profile())
    scores = result.scores.model_dump()
    # The code always follows the scores, whoever produced them (a model's code may disagree with its scores).
    code = "".join(sorted(RIASEC, key=lambda t: (-scores[t], RIASEC.index(t)))[:3])
    return {"riasec_scores": scores, "holland_code": code,
            "riasec_evidence": {t: list(result.evidence.get(t, []))[:4] for t in RIASEC},
            "current_agent": Agent.PROFILE_ANALYZER.value, "progress": PROGRESS[Agent.PROFILE_ANALYZER]}


def career_matcher_node(state: dict[str, Any]) -> dict[str, Any]:
    """Data, not a model: every O*NET occupation scored against the client's RIASEC profile and skills."""
    profile = state.get("structured_profile") or {}
    said = user_text(state.get("conversation_history") or [])
    text = said + "\n" + ("" if state.get("resume_issue") else state.get("resume_text") or "")
    skills = client_skills(text + "\n" + " ".join(profile.get("skills") or []))
    target = profile.get("target") or (state.get("collected_info") or {}).get("target") or ""
    top, named = career_matches(state.get("riasec_scores") or {}, skills, state.get("language") or "en", target)
    return {"career_matches": [m.model_dump() for m in top], "target_match": named,
            "current_agent": Agent.CAREER_MATCHER.value, "progress": PROGRESS[Agent.CAREER_MATCHER]}


def reporter_node(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    lang = state.get("language") or "en"
    messages = prompts.REPORT.format_messages(
        language=LANGUAGE_NAMES[lang], profile=as_prompt_json(state.get("structured_profile") or {}),
        riasec=as_prompt_json({"scores": state.get("riasec_scores"), "evidence": state.get("riasec_evidence")}),
        matches=as_prompt_json(state.get("career_matches") or [], limit=8000),
        holland_code=state.get("holland_code") or "")
    write = lambda: report.write_report(state)  # noqa: E731 - the offline answer, and the answer on failure
    text = answer_or(lambda: runtime.context.gateway.text("ican.reporter", messages, offline=write),
                     offline_instead(write))
    return {"final_report": report.with_flagged_note(text, state), "current_agent": Agent.REPORTER.value,
            "progress": PROGRESS[Agent.REPORTER]}
