"""The reporter (DeerFlow's report structure, numbered citations, partial when a limit cut the research short)
and the citation check that compares every cited sentence with its passage."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from pipelines.core.markup import sanitize_markdown
from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.deep_research import prompts
from pipelines.deep_research.citations import check, number_refs
from pipelines.deep_research.memory import MemoryStack
from pipelines.deep_research.nodes.common import collection_items, language_name, masked, passages_block, plan_of, query
from pipelines.deep_research.offline.compose import citation_lines, compose_report
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.state import ResearchContext, ResearchState

CITATIONS_SLOT = "{citations}"


def partial_reason(state: ResearchState, open_steps: list[str], zh: bool) -> str:
    """Why the report is partial (a limit, or steps never carried out), "" when it is complete."""
    memory = MemoryStack.load(state.get("memory_stack"))
    limit = next((str(e.get("content")) for e in reversed(memory.entries) if e.get("limit")), "")
    if not open_steps:
        return limit
    missing = ("；".join(open_steps) if zh else "; ".join(open_steps))
    lead = limit or ("研究在这些步骤完成之前结束" if zh else "the research ended before these steps were done")
    return f"{lead}。未完成：{missing}。" if zh else f"{lead}. Not researched: {missing}."


def reporter(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    plan, _ = plan_of(state, ctx)
    zh = is_zh(str(state.get("locale") or ""))
    partial = partial_reason(state, [s.title for s in plan.steps if s.execution_res is None], zh)
    offline = compose_report(state, plan, partial)
    items = collection_items(state)
    draft = answer_or(lambda: ctx.gateway.text("reporter", prompts.REPORTER.format_messages(
        language=language_name(state), query=query(state), user_dst=state.get("user_dst") or "none",
        observations=masked("\n".join(state.get("observations") or [])) or "none", passages=passages_block(items, limit=60),
        partial=f"This report is partial: {partial}" if partial else ""), offline=lambda: offline),
        offline_instead(lambda: offline))
    text, citations = number_refs(sanitize_markdown(draft), items)
    listing = citation_lines(citations)
    text = text.replace(CITATIONS_SLOT, listing) if CITATIONS_SLOT in text else \
        f"{text.rstrip()}\n\n## {'主要引用' if zh else 'Key citations'}\n{listing}"
    return {"final_report": text, "citations": citations, "current_node": "citation_check",
            "messages": [AIMessage(text, name="reporter")]}


def citation_check(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """Every cited sentence against its passage: how many are supported, which are not and why."""
    result = check(state.get("final_report") or "", state.get("citations") or [])
    return {"citation_check": result, "current_node": "__end__"}
