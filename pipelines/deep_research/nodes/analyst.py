"""The analyst subgraph's nodes: gather the observations and passages so far, compare them (agreement, conflicting
figures, gaps) and record the comparison."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.deep_research import prompts
from pipelines.deep_research.nodes.common import (collection_items, language_name, masked, passages_block, plan_of,
                                                  with_result)
from pipelines.deep_research.offline.compose import compare
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.schemas import Analysis, Finding
from pipelines.deep_research.state import AgentState, ResearchContext


def gather(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    """The passages that gave findings: what there is to compare."""
    used = [i for i in collection_items(state) if i.get("findings")]
    return {"hits": used}


def compare_findings(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    context = state.get("delegation_context") or {}
    zh = is_zh(str(state.get("locale") or ""))
    pairs = compare(state.get("hits") or [])

    def offline() -> Analysis:
        points = [Finding(text=f"{p['a']['document']} ≠ {p['b']['document']}", ref=p["a"]["ref"]) for p in pairs]
        conclusion = (f"发现 {len(pairs)} 处来源之间的数字差异。" if zh else
                      f"{len(pairs)} place(s) where the sources give different figures.") if pairs else \
            ("各来源之间没有发现数字冲突。" if zh else "The sources do not contradict each other's figures.")
        return Analysis(points=points, conclusion=conclusion)

    analysis = answer_or(lambda: ctx.gateway.structured("analyst", Analysis, prompts.ANALYST.format_messages(
        language=language_name(state), task=context.get("task_description") or "",
        observations=masked("\n".join(state.get("observations") or [])) or "none",
        passages=passages_block(state.get("hits") or [])), offline=offline), offline_instead(offline))
    return {"findings": [{"text": p.text, "ref": p.ref} for p in analysis.points], "conclusion": analysis.conclusion,
            "comparisons": pairs}


def record_analysis(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    context = state.get("delegation_context") or {}
    index = int(context.get("step_index") or 0)
    plan, _ = plan_of(state, ctx)
    pairs = state.get("comparisons") or []
    items = collection_items(state)
    items.append({"kind": "analysis", "step": index, "points": pairs, "notes": state.get("findings") or []})
    result = str(state.get("conclusion") or "")
    observation = f"[Step {index + 1}] {context.get('step_title', '')} — {result}"
    return {"data_collections": items, "observations": [*(state.get("observations") or []), observation],
            "current_plan": with_result(plan, index, result)}
