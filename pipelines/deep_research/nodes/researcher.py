"""The researcher subgraph's nodes: search the resources for the delegated step, extract what the passages state,
record it in `data_collections`, `observations` and the step's `execution_res`."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.core.text import clip
from pipelines.deep_research import prompts
from pipelines.deep_research.nodes.common import collection_items, language_name, next_ref, passages_block, plan_of, \
    with_result
from pipelines.deep_research.offline.compose import aspect_of
from pipelines.deep_research.offline.extract import extract
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.schemas import Finding, Findings, StepType
from pipelines.deep_research.state import AgentState, ResearchContext

DEPTH_LIMITS = {"brief": 3, "standard": 8, "thorough": 10}


def findings_limit(user_dst: str | None) -> int:
    text = (user_dst or "").lower()
    for depth, words in (("thorough", ("thorough", "详尽", "详细", "深入")), ("brief", ("brief", "简要", "简短"))):
        if any(w in text for w in words):
            return DEPTH_LIMITS[depth]
    return DEPTH_LIMITS["standard"]


# An aspect that points back ("what will it cost", "这一变动何时生效") is about what the aspect before it names.
_POINTS_BACK = re.compile(r"\b(?:it|its|they|them|their)\b|这一|这些|这项|其|它", re.I)


def step_aspect(state: AgentState, ctx: ResearchContext) -> tuple[str, str, str]:
    """The delegated step's aspect and, when it points back, the previous step's aspect and its two best statements
    (what "it" is; "" otherwise). The search adds the previous aspect; the extraction weighs both as context, below
    the aspect's own words."""
    context = state.get("delegation_context") or {}
    aspect = aspect_of(str(context.get("step_title") or context.get("task_description") or ""))
    index = int(context.get("step_index") or 0)
    if index < 1 or not _POINTS_BACK.search(aspect):
        return aspect, "", ""
    plan, _ = plan_of({**state, "user_query": context.get("original_query") or ""}, ctx)
    before = plan.steps[index - 1] if index - 1 < len(plan.steps) else None
    if not before or before.step_type != StepType.RESEARCH:
        return aspect, "", ""
    found = sorted((f.get("rank", 0), str(f.get("text") or "")) for item in collection_items(state)
                   if item.get("step") == index - 1 for f in item.get("findings") or [] if isinstance(f, dict))
    return aspect, aspect_of(before.title), " ".join(text for _, text in found[:2])


def search(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """Hybrid search for the step (its aspect with the question around it, then the question alone), plus the web
    when it is on; each passage gets a reference (the one it already has when an earlier step found it)."""
    ctx = runtime.context
    context = state.get("delegation_context") or {}
    task = str(context.get("task_description") or "")
    aspect, before, _ = step_aspect(state, ctx)
    aspect = f"{aspect} {before}".strip()
    question = str(context.get("original_query") or "")
    queries = [q for q in dict.fromkeys([f"{aspect} {question}".strip(), aspect, task]) if q.strip()]
    items = collection_items(state)
    refs = {str(i.get("passage_id")): str(i.get("ref")) for i in items if i.get("passage_id")}
    number = next_ref(items, "P")
    hits: list[dict[str, Any]] = []
    seen: set[str] = set()
    for q in queries:
        for passage in ctx.library.search(state.get("resources") or [], q, k=ctx.settings.top_k):
            if passage.id in seen:
                continue
            seen.add(passage.id)
            if passage.id not in refs:
                refs[passage.id] = f"P{number}"
                number += 1
            hits.append({"ref": refs[passage.id], "kind": "passage", "passage_id": passage.id, **{
                k: v for k, v in passage.to_dict().items() if k not in ("id", "score")}, "score": passage.score})
    web_number = next_ref(items, "W")
    for result in ctx.web_results(question or task):
        hits.append({"ref": f"W{web_number}", "kind": "web", "url": result.url, "document": result.url,
                     "title": result.title, "text": result.content})
        web_number += 1
    return {"queries": queries, "hits": hits}


def extract_findings(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    context = state.get("delegation_context") or {}
    hits = state.get("hits") or []
    aspect, before, said = step_aspect(state, ctx)
    limit = findings_limit(context.get("user_dst") or state.get("user_dst"))

    index = int(context.get("step_index") or 0)
    # What earlier steps already reported is left for them to state: this step's findings are the new ones.
    known = [f.get("text", "") for item in collection_items(state) if item.get("step") != index
             for f in item.get("findings") or [] if isinstance(f, dict)]

    def offline() -> Findings:
        around = f"{context.get('original_query') or ''} {before} {said}"
        # When all the step's answer was reported by an earlier step, its best sentences are this step's too.
        chosen = extract(aspect, hits, limit=limit, context=around, skip=known) or \
            extract(aspect, hits, limit=2, context=around)
        return Findings(findings=[Finding(text=e.text, ref=e.ref) for e in chosen])

    found = answer_or(lambda: ctx.gateway.structured("researcher", Findings, prompts.RESEARCHER.format_messages(
        language=language_name(state), task=context.get("task_description") or aspect,
        passages=passages_block(hits)), offline=offline), offline_instead(offline))
    known = {str(h["ref"]) for h in hits}
    kept = [f for f in found.findings if f.ref.strip("[] ") in known and f.text.strip()]
    return {"findings": [{"text": f.text.strip(), "ref": f.ref.strip("[] "), "rank": i} for i, f in enumerate(kept)]}


def record(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    context = state.get("delegation_context") or {}
    index = int(context.get("step_index") or 0)
    plan, _ = plan_of({**state, "user_query": context.get("original_query") or ""}, ctx)
    zh = is_zh(str(state.get("locale") or ""))
    findings = state.get("findings") or []
    by_ref: dict[str, list[dict[str, Any]]] = {}
    for finding in findings:
        by_ref.setdefault(finding["ref"], []).append(finding)
    items = collection_items(state)
    for hit in state.get("hits") or []:
        items.append({**hit, "step": index, "findings": by_ref.get(str(hit["ref"]), [])})
    title = str(context.get("step_title") or "")
    documents = sorted({str(h.get("document")) for h in state.get("hits") or [] if h["ref"] in by_ref})
    if findings:
        said = " ".join(f"{f['text']} [[{f['ref']}]]" for f in findings)
        result = (f"在 {len(documents)} 份文件中找到 {len(findings)} 条相关陈述：" if zh else
                  f"Found {len(findings)} statement(s) in {len(documents)} document(s): ") + clip(said, 1500)
    else:
        result = ("没有找到：资料中没有关于这一步的内容。" if zh else
                  "Nothing found: the resources say nothing about this step.")
    observation = f"[Step {index + 1}] {title} — {result}"
    return {"data_collections": items, "observations": [*(state.get("observations") or []), observation],
            "current_plan": with_result(plan, index, re.sub(r"\s+", " ", result))}
