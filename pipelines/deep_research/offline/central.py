"""Offline central agent (Stack-Planner): think first, delegate each open step to its agent in the DAG's order,
reflect on a step that found nothing, summarize a long memory, finish when every step has its result."""

from __future__ import annotations

from collections.abc import Sequence

from pipelines.deep_research.memory import MemoryStack
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.schemas import Decision, Plan, StepType

AGENT_FOR = {StepType.RESEARCH: "researcher", StepType.PROCESSING: "coder", StepType.ANALYSIS: "analyst"}
SUMMARIZE_AT = 12  # entries; a longer stack is folded so the prompt stays short
NOTHING_FOUND = ("nothing", "没有")


def next_step(plan: Plan, depends_on: Sequence[Sequence[int]]) -> int | None:
    """The first step without a result whose dependencies all have theirs (else the first open one)."""
    open_steps = [i for i, s in enumerate(plan.steps) if s.execution_res is None]
    for i in open_steps:
        needs = depends_on[i] if i < len(depends_on) else []
        if all(plan.steps[d].execution_res is not None for d in needs if 0 <= d < len(plan.steps)):
            return i
    return open_steps[0] if open_steps else None


def decide(plan: Plan, depends_on: Sequence[Sequence[int]], memory: MemoryStack, locale: str) -> Decision:
    zh = is_zh(locale)
    top = memory.entries[-1] if memory.entries else None
    if top is None:
        return Decision(action="think", thought=(f"计划有 {len(plan.steps)} 步，按依赖顺序逐一委派。" if zh else
                                                 f"The plan has {len(plan.steps)} step(s); delegate them in "
                                                 "dependency order."))
    if top.get("action") == "result" and str(top.get("content", "")).lower().startswith(NOTHING_FOUND):
        # The delegation and its empty result say nothing the report needs: pop both, keep one line instead.
        return Decision(action="reflect", pop_count=2,
                        thought=(f"第 {int(top.get('step', 0)) + 1} 步没有找到内容，记为缺口。" if zh else
                                 f"Step {int(top.get('step', 0)) + 1} found nothing; it is recorded as a gap."))
    if len(memory) >= SUMMARIZE_AT:
        return Decision(action="summarize", thought="压缩较早的记忆。" if zh else "Fold the older memory entries.")
    index = next_step(plan, depends_on)
    if index is None:
        return Decision(action="finish", thought="所有步骤都有结果，撰写报告。" if zh else
                        "Every step has its result: write the report.")
    step = plan.steps[index]
    return Decision(action="delegate", step_index=index, agent=AGENT_FOR[step.step_type],
                    task_description=f"{step.title}: {step.description}".strip(": "),
                    thought=(f"委派第 {index + 1} 步给 {AGENT_FOR[step.step_type]}。" if zh else
                             f"Delegate step {index + 1} to the {AGENT_FOR[step.step_type]}."))
