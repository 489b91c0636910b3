"""The guide subgraph's five nodes and its loop route (seed 003 §4), with the seed's pitfalls fixed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel

from pipelines.core.jsonable import as_prompt_json
from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.core.models.gateway import ModelGateway
from pipelines.core.text import LANGUAGE_NAMES
from pipelines.ican import offline, prompts
from pipelines.ican.schemas import BasicInfo, FollowUpQuestion, NeedAssessment, SufficiencyJudgement
from pipelines.ican.state import ChatTurn, GuideStage, ICanContext
from pipelines.ican.sufficiency import keyword_judgement, keyword_sufficiency

M = TypeVar("M", bound=BaseModel)


def user_text(history: Sequence[ChatTurn]) -> str:
    """Everything the client said, in order (the seed's collected_raw)."""
    return "\n".join(turn["content"] for turn in history if turn.get("role") == "user")


def conversation_text(history: Sequence[ChatTurn], limit: int = 8000) -> str:
    lines = [f"{'Client' if t.get('role') == 'user' else 'Guide'}: {t.get('content', '')}" for t in history]
    text = "\n".join(lines)
    return text if len(text) <= limit else "…" + text[-limit:]


def has_greeted(history: Sequence[ChatTurn]) -> bool:
    return any(turn.get("role") == "assistant" for turn in history)


def ask_model(gateway: ModelGateway, task: str, schema: type[M], messages: Sequence[BaseMessage],
              offline_answer: Callable[[], M]) -> M:
    """The seed's inner nodes answer with fixed phrases when the model fails, instead of failing the guide."""
    return answer_or(lambda: gateway.structured(task, schema, messages, offline=offline_answer),
                     offline_instead(offline_answer))


def _vars(state: Mapping[str, Any]) -> dict[str, str]:
    return {"language": LANGUAGE_NAMES[state.get("language") or "en"],
            "conversation": conversation_text(state.get("conversation_history") or [])}


def welcome(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    """Greets once per session: the seed greeted again on every outer turn."""
    if has_greeted(state.get("conversation_history") or []):
        return {"current_stage": GuideStage.NEED_ASSESSMENT.value}
    lang = state.get("language") or "en"
    greeting = lambda: offline.SAY("welcome", lang)  # noqa: E731 - the offline answer, and the answer on failure
    text = answer_or(lambda: runtime.context.gateway.text("ican.guide.welcome",
                                                          prompts.WELCOME.format_messages(**_vars(state)),
                                                          offline=greeting), offline_instead(greeting))
    return {"messages": [text], "current_stage": GuideStage.NEED_ASSESSMENT.value}


def assess_need(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    history = state.get("conversation_history") or []
    lang, first = state.get("language") or "en", not has_greeted(history)
    note = "This is their first message." if first else "Acknowledge their latest answer briefly."
    assessment = ask_model(runtime.context.gateway, "ican.guide.assess_need", NeedAssessment,
                           prompts.NEED_ASSESSMENT.format_messages(**_vars(state), turn_note=note),
                           lambda: offline.assess_need(user_text(history), lang, first))
    info = dict(state.get("collected_info") or {})
    if first or not info.get("need"):
        info["need"] = assessment.need
    update: dict[str, Any] = {"collected_info": info, "emotion_state": assessment.emotion,
                              "current_stage": GuideStage.BASIC_INFO.value}
    if assessment.acknowledgement.strip():
        update["messages"] = [assessment.acknowledgement.strip()]
    return update


def collect_basic_info(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    history = state.get("conversation_history") or []
    lang = state.get("language") or "en"
    found = ask_model(runtime.context.gateway, "ican.guide.basic_info", BasicInfo,
                      prompts.BASIC_INFO.format_messages(**_vars(state)),
                      lambda: offline.extract_basic_info(user_text(history), lang))
    info = offline.merge_info(state.get("collected_info") or {}, found)
    info["collected_raw"] = user_text(history)
    present = offline.present_fields(info)
    return {"collected_info": info, "missing_fields": [f for f in offline.FIELD_ORDER if f not in present],
            "current_stage": GuideStage.DEEP_MINING.value}


def fields_to_dig(state: Mapping[str, Any]) -> list[str]:
    """Fields not yet looked at in this turn: those asked about least first, then in the guide's order, so
    a question the client passed over comes back only after the others."""
    info = state.get("collected_info") or {}
    examined, asked = set(info.get("examined", [])), info.get("asked") or {}
    pending = [f for f in offline.FIELD_ORDER if f not in examined]
    return sorted(pending, key=lambda f: asked.get(f, 0))


def dig_deeper(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    """One pass: look at the next field; if the client has not covered it (and was not asked about it twice
    already), prepare a question about it. Each pass counts towards loop_count."""
    info = dict(state.get("collected_info") or {})
    info.pop("pending_question", None)
    lang = state.get("language") or "en"
    pending = fields_to_dig(state)
    field = pending[0] if pending else "open"
    info["examined"] = [*info.get("examined", []), field]
    asked = (info.get("asked") or {}).get(field, 0)
    if not info.get("closing_turn") and field not in offline.present_fields(info) and asked < 2:
        missing = state.get("missing_fields") or []
        known = {k: v for k, v in offline.known_facts(info).items()
                 if k in offline.FIELD_ORDER or k in ("need", "major", "current_role", "years_experience")}
        question = ask_model(
            runtime.context.gateway, "ican.guide.follow_up", FollowUpQuestion,
            prompts.FOLLOW_UP.format_messages(**_vars(state), field=field, missing=", ".join(missing) or "-",
                                              known=as_prompt_json(known)),
            lambda: FollowUpQuestion(field=field, question=offline.SAY(f"ask_{field}", lang)))
        info["pending_question"] = {"field": field, "question": question.question}
    return {"loop_count": int(state.get("loop_count") or 0) + 1, "collected_info": info,
            "current_stage": GuideStage.SUFFICIENCY_CHECK.value}


def check_sufficiency(state: dict[str, Any], runtime: Runtime[ICanContext]) -> dict[str, Any]:
    """Judge the information; then hand off (with a closing message), ask the prepared question and wait
    for the client, or go on digging. A question is dropped when the information turns out sufficient."""
    history = state.get("conversation_history") or []
    lang = state.get("language") or "en"
    missing = list(state.get("missing_fields") or [])
    said = user_text(history)
    # The single-turn guide's rule: the keywords, plus the model's own judgement when a real provider is set.
    by_keywords, keywords = keyword_sufficiency(said)
    judgement = ask_model(runtime.context.gateway, "ican.guide.sufficiency", SufficiencyJudgement,
                          prompts.SUFFICIENCY.format_messages(**_vars(state), fields=", ".join(offline.FIELD_ORDER)),
                          lambda: keyword_judgement(said, missing))
    sufficient = by_keywords or judgement.is_sufficient
    info = dict(state.get("collected_info") or {})
    info["sufficiency"] = {"keyword_rule": by_keywords, "keywords": keywords, **judgement.model_dump()}
    question = info.pop("pending_question", None)
    update: dict[str, Any] = {"is_info_sufficient": sufficient, "collected_info": info,
                              "current_stage": GuideStage.DEEP_MINING.value}
    out_of_loops = int(state.get("loop_count") or 0) >= int(state.get("max_loops") or 8)
    nothing_left = not fields_to_dig(state) and "open" in info.get("examined", [])
    if sufficient or info.get("closing_turn") or (not question and (out_of_loops or nothing_left)):
        update["current_stage"] = GuideStage.HANDOFF.value
        update["messages"] = [offline.SAY("closing" if sufficient else "closing_forced", lang)]
    elif question:
        info["asked"] = {**(info.get("asked") or {}), question["field"]: (info.get("asked") or {}).get(
            question["field"], 0) + 1}
        update["current_stage"] = GuideStage.AWAITING_CLIENT.value
        update["messages"] = [question["question"]]
    return update


def should_continue(state: Mapping[str, Any]) -> str:
    """Back to dig_deeper until the information is sufficient, the guide has asked the client something,
    or loop_count reaches its limit (the seed's comment says 2, its code 8: a setting here)."""
    if state.get("is_info_sufficient") or state.get("current_stage") in (GuideStage.HANDOFF.value,
                                                                        GuideStage.AWAITING_CLIENT.value):
        return "handoff"
    if int(state.get("loop_count") or 0) >= int(state.get("max_loops") or 8):
        return "handoff"
    return "dig_deeper"
