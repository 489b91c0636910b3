"""The intake nodes: coordinator (route the message), perception (the DST form), background_investigator."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.core.text import clip
from pipelines.deep_research import prompts
from pipelines.deep_research.nodes.common import language_name, last_human, locale, query
from pipelines.deep_research.offline.intake import coordinate, dst_questions, is_zh, summarize_dst
from pipelines.deep_research.schemas import CoordinatorVerdict, DstAnswers, DstQuestions, Route
from pipelines.deep_research.state import DST_FORM, ResearchContext, ResearchState


def coordinator(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """Small talk answered, unsafe requests declined (the offline checks decide those whatever a model says; a part
    of the request they leave out never reaches the model), everything else handed to research."""
    ctx = runtime.context
    message = last_human(state.get("messages") or []) or query(state)
    given = state.get("locale") if state.get("locale") in ("en-US", "zh-CN") and state.get("user_query") else None
    guard = coordinate(message, given)
    asked = guard.research_topic if guard.reply else message  # without what the guard left out
    verdict = guard if guard.route == Route.DECLINE else answer_or(
        lambda: ctx.gateway.structured("coordinator", CoordinatorVerdict, prompts.COORDINATOR.format_messages(
            language=language_name({"locale": guard.locale}), message=asked), offline=lambda: guard),
        offline_instead(lambda: guard))
    if verdict.route != Route.RESEARCH:
        return {"messages": [AIMessage(verdict.reply or guard.reply, name="coordinator")], "locale": guard.locale,
                "current_node": "__end__"}
    notes, research = [guard.reply] if guard.reply else [], asked
    if verdict.reply and verdict.reply != guard.reply:  # a model that left (more) out says so, and restates the rest
        notes.append(verdict.reply)
        research = verdict.research_topic or asked
    update: dict[str, Any] = {"user_query": research, "locale": given or guard.locale, "current_node": "perception"}
    if not state.get("original_query") or notes:
        update["original_query"] = research  # the researcher works from it: never the part left out
    said = [] if state.get("messages") else [HumanMessage(message)]
    said += [AIMessage(" ".join(notes), name="coordinator")] if notes else []
    if said:
        update["messages"] = said
    return update


def _collections(state: ResearchState) -> list[str]:
    return [str(r.get("name")) for r in state.get("resources") or [] if r.get("name")]


def perception(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """The DST stage: ask what the question leaves open about sources, language, depth and format (answer or
    skip), and sum the constraints up in `user_dst`; the answers narrow the resources and may set the locale."""
    ctx = runtime.context
    text, lang = query(state), locale(state)
    offline = dst_questions(text, lang, _collections(state))
    asked = answer_or(lambda: ctx.gateway.structured(
        "perception", DstQuestions, prompts.PERCEPTION.format_messages(
            language=language_name(state), query=text, collections=", ".join(_collections(state)) or "none"),
        offline=lambda: offline), offline_instead(lambda: offline))
    answers = DstAnswers(skip=True)
    if asked.questions:
        zh = is_zh(lang)
        raw = interrupt({"kind": DST_FORM,
                         "question": "回答几个问题（或跳过），以便按你的要求开展研究。" if zh else
                         "A few questions so the research fits what you need (answer or skip).",
                         "questions": [q.model_dump() for q in asked.questions], "known": asked.known})
        answers = DstAnswers.model_validate(raw) if not isinstance(raw, DstAnswers) else raw
    given = {} if answers.skip else {k: v for k, v in answers.model_dump(exclude={"skip"}).items() if v}
    summary = summarize_dst(asked.known, given, answers.skip, lang)
    user_dst = answer_or(lambda: ctx.gateway.text("dst_summary", prompts.DST_SUMMARY.format_messages(
        language=language_name(state), query=text, known=asked.known or "nothing", answers=given or "nothing",
        skipped=answers.skip), offline=lambda: summary), offline_instead(lambda: summary))
    update: dict[str, Any] = {"user_dst": clip(user_dst, 1000), "current_node": "planner"}
    wanted = str(given.get("language") or "").lower()
    if re.search(r"english|英文|英语", wanted):
        update["locale"] = "en-US"
    elif re.search(r"chinese|中文|汉语", wanted):
        update["locale"] = "zh-CN"
    narrowed = _narrow(ctx.library, state.get("resources") or [], str(given.get("sources") or ""))
    if narrowed is not None:
        update["resources"] = narrowed
    return update


def _narrow(library: Any, resources: list[Any], wish: str) -> list[Any] | None:
    """The resources the user's answer names — a collection by its name, a document by its file name (with or
    without its extension) — or None to keep them all."""
    wish = wish.lower()
    if not wish.strip():
        return None
    named = []
    for resource in resources:
        if resource.get("name") and str(resource["name"]).lower() in wish:
            named.append(resource)
            continue
        allowed = set(resource.get("documents") or [])
        documents = [d.doc_id for d in library.documents(str(resource.get("name") or ""))
                     if (not allowed or d.doc_id in allowed) and (d.name.lower() in wish or
                                                                  Path(d.name).stem.lower() in wish)]
        if documents:
            named.append({**resource, "documents": documents})
    return named or None


def background_investigator(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """A first retrieval over the resources (and the web, when it is on) for the planner to see what is there."""
    ctx = runtime.context
    passages = ctx.library.search(state.get("resources") or [], query(state), k=ctx.settings.top_k)
    lines = [f"- {p.document}{(' · ' + p.where) if p.where else ''}: {clip(p.text, 300)}" for p in passages]
    for result in ctx.web_results(query(state)):
        lines.append(f"- {result.url}: {clip(result.content, 300)}")
    zh = is_zh(locale(state))
    head = (f"后台检索找到 {len(lines)} 段相关内容：" if zh else f"The background search found {len(lines)} passage(s):") \
        if lines else ("后台检索没有找到相关内容。" if zh else "The background search found nothing relevant.")
    return {"background_investigation_results": "\n".join([head, *lines]), "current_node": "planner"}
