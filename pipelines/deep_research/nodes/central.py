"""The central agent (Stack-Planner): one Decision per turn — think, reflect, summarize, delegate or finish — over a
bounded memory stack serialised into `memory_stack`; every limit ends in the reporter, never in a recursion error."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.core.text import clip
from pipelines.deep_research import prompts
from pipelines.deep_research.memory import MemoryStack
from pipelines.deep_research.nodes.common import dependencies, language_name, locale, masked, plan_of, query
from pipelines.deep_research.offline.central import AGENT_FOR, decide
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.schemas import Decision, Plan
from pipelines.deep_research.state import ResearchContext, ResearchState

# Steps a run needs after the central agent decides to stop: reporter, citation_check, and the end.
STEP_RESERVE = 4
KEEP_ON_SUMMARY = 4


def _record_result(memory: MemoryStack, state: ResearchState, plan: Plan) -> None:
    """After a delegation came back, its step's result goes on the stack (once)."""
    context = state.get("delegation_context") or {}
    top = memory.entries[-1] if memory.entries else {}
    index = context.get("step_index")
    if top.get("action") == "delegate" and isinstance(index, int) and 0 <= index < len(plan.steps):
        result = plan.steps[index].execution_res
        if result is not None:
            memory.push("result", clip(result, 400), step=index, agent=context.get("agent_type"))


def _limit_reason(state: ResearchState, turn: int, max_turns: int, zh: bool) -> str:
    if turn > max_turns:
        return f"中心智能体已用完 {max_turns} 轮决策" if zh else f"the central agent used all {max_turns} of its turns"
    if int(state.get("remaining_steps", 10**6)) <= STEP_RESERVE:
        return "本次运行的步数预算已用完" if zh else "the run's step budget (recursion limit) ran out"
    return ""


def _valid(decision: Decision, plan: Plan) -> bool:
    if decision.action != "delegate":
        return True
    index = decision.step_index
    return index is not None and 0 <= index < len(plan.steps) and plan.steps[index].execution_res is None


def central_agent(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    plan, _ = plan_of(state, ctx)
    lang = locale(state)
    zh = is_zh(lang)
    memory = MemoryStack.load(state.get("memory_stack"))
    _record_result(memory, state, plan)
    turn = int(state.get("agent_turns") or 0) + 1
    max_turns = int(state.get("max_agent_turns") or ctx.settings.max_agent_turns)
    update: dict[str, Any] = {"agent_turns": turn, "max_agent_turns": max_turns}
    if reason := _limit_reason(state, turn, max_turns, zh):
        memory.push("finish", reason, limit=True)
        return {**update, "memory_stack": memory.dumps(), "current_node": "reporter"}
    depends = dependencies(state, plan)
    offline = decide(plan, depends, memory, lang)
    decision = answer_or(lambda: ctx.gateway.structured("central_agent", Decision, prompts.CENTRAL.format_messages(
        language=language_name(state), query=query(state), plan=masked(plan.model_dump_json()),
        memory=masked(memory.as_prompt()),
        observations=masked("\n".join(state.get("observations") or [])) or "none", turn=turn, max_turns=max_turns),
        offline=lambda: offline), offline_instead(lambda: offline))
    if not _valid(decision, plan):
        decision = offline  # a step that does not exist or is done already: the offline choice instead
    next_node = "central_agent"
    if decision.action == "think":
        memory.push("think", decision.thought)
    elif decision.action == "reflect":
        popped = memory.pop(decision.pop_count)
        memory.push("reflect", decision.thought, popped=len(popped))
    elif decision.action == "summarize":
        older = memory.entries[:max(0, len(memory) - KEEP_ON_SUMMARY)]
        digest = " | ".join(f"{e.get('action')}: {clip(str(e.get('content') or ''), 60)}" for e in older)
        memory.summarize(KEEP_ON_SUMMARY, clip(f"{decision.thought} {digest}".strip(), 600))
    elif decision.action == "delegate":
        index = int(decision.step_index or 0)
        step = plan.steps[index]
        agent = decision.agent or AGENT_FOR[step.step_type]
        task = decision.task_description or f"{step.title}: {step.description}"
        memory.push("delegate", task, step=index, agent=agent)
        update["delegation_context"] = {
            "task_description": task, "agent_type": agent, "step_index": index, "step_title": step.title,
            "memory_summary": memory.as_prompt(last=6), "original_query": state.get("original_query") or query(state),
            "user_dst": state.get("user_dst") or ""}
        next_node = agent
    else:
        memory.push("finish", decision.thought)
        next_node = "reporter"
    return {**update, "memory_stack": memory.dumps(), "current_node": next_node}
