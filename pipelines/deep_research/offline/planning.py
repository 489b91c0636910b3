"""Offline planning: a question cut into its aspects, a step per aspect, the steps' DAG, plan edits and repairs."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.retrieval import content_words
from pipelines.deep_research.schemas import Plan, PlanDraft, Step, StepEdit, StepType

# Clause boundaries: question marks and semicolons always; "and"/"以及" only between clauses that each carry words.
_SENTENCE = re.compile(r"[?？;；\n]+|(?<=[.!])\s+|(?<=[。！])")  # "evil.example" and 412.6 are not two sentences
_CLAUSE = re.compile(r",\s*(?:and|as well as|plus)\s+|\s+and\s+(?=(?:what|why|how|when|where|which|who|whether|is|are|"
                     r"does|did|do|was|were|has|have|can)\b)|,\s*(?=(?:what|why|how|when|where|which|who|whether)\b)|"
                     r"以及|，并且|，同时|；|，(?=(?:为什么|为何|如何|怎样|是否|哪些|什么|多少|何时|谁))", re.I)
_COMPUTE = re.compile(r"\b(average|mean|median|total|sum|how many|percentage|ratio|rate|compute|calculate|count)\b|"
                      r"平均|中位数|总计|合计|总数|计算|比例|占比|比率|多少个|统计", re.I)
_MODIFIER = re.compile(r"^(taking|considering|including|given|with|based on|according to)\b", re.I)


def aspects(question: str) -> list[str]:
    """The parts of a question a step each: "X, and why Y?" → ["X", "why Y"]; a modifier ("taking … into account")
    stays with the part before it."""
    parts: list[str] = []
    for sentence in _SENTENCE.split(question or ""):
        for clause in _CLAUSE.split(sentence):
            clause = clause.strip(" ,，、.。:：")
            if not clause or not content_words(clause):
                continue
            if parts and _MODIFIER.match(clause):
                parts[-1] = f"{parts[-1]}, {clause}"
            else:
                parts.append(clause)
    return parts or [" ".join((question or "").split())]


def short_title(text: str, limit: int = 90) -> str:
    """`text` on one line, cut at a word to at most `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def decompose(question: str, locale: str, max_steps: int, tabular: Sequence[str] = (),
              hints: Sequence[str] = ()) -> PlanDraft:
    """A plan of research steps (one per aspect), a processing step when the question asks for a computation and
    tables are at hand, and an analysis step that compares the findings when there is more than one."""
    zh = is_zh(locale)
    parts = aspects(question)
    compute = bool(_COMPUTE.search(question or "")) and bool(tabular)
    reserved = int(compute) + int(len(parts) > 1)
    research = parts[: max(1, max_steps - reserved)]
    if len(research) < len(parts):  # fold the aspects that found no step into the last one
        research[-1] = "; ".join([research[-1], *parts[len(research):]])
    steps = []
    for index, part in enumerate(research):
        hint = hints[index] if index < len(hints) and hints[index] else ""
        where = (f"（可能见于 {hint}）" if zh else f" (likely in {hint})") if hint else ""
        steps.append(Step(title=(f"查找：{short_title(part)}" if zh else f"Find: {short_title(part)}"),
                          step_type=StepType.RESEARCH,
                          description=(f"在资料中检索并摘录关于“{part}”的原文{where}。" if zh else
                                       f"Search the resources for what they state about: {part}{where}.")))
    if compute and len(steps) < max_steps:
        steps.append(Step(title="计算所需数字" if zh else "Compute the figures asked for", need_search=False,
                          step_type=StepType.PROCESSING,
                          description=(f"用表格数据计算：{question}（数据：{', '.join(tabular)}）" if zh else
                                       f"Compute from the tables ({', '.join(tabular)}): {question}")))
    if len(research) > 1 and len(steps) < max_steps:
        steps.append(Step(title="比较并核对各来源" if zh else "Compare and reconcile the sources", need_search=False,
                          step_type=StepType.ANALYSIS,
                          description=("比较各步骤的发现，指出来源之间的差异并以较新的日期为准。" if zh else
                                       "Compare the steps' findings, point out where sources differ and prefer the "
                                       "later-dated source.")))
    thought = (f"问题包含 {len(parts)} 个方面，每个方面一个检索步骤。" if zh else
               f"The question has {len(parts)} aspect(s); one research step each.")
    plan = Plan(locale=locale, has_enough_context=False, thought=thought, title=short_title(question, 120), steps=steps)
    return PlanDraft(plan=plan, depends_on=default_dependencies(plan.steps))


def default_dependencies(steps: Sequence[Step]) -> list[list[int]]:
    """Research steps stand alone; processing needs the research before it; analysis needs everything before it."""
    deps: list[list[int]] = []
    for index, step in enumerate(steps):
        if step.step_type == StepType.RESEARCH:
            deps.append([])
        elif step.step_type == StepType.PROCESSING:
            deps.append([i for i in range(index) if steps[i].step_type == StepType.RESEARCH])
        else:
            deps.append(list(range(index)))
    return deps


def replan_json(plan: Plan, depends_on: Sequence[Sequence[int]]) -> str:
    """`replan_result`: the steps and their dependencies as a DAG, in layers that can run in order."""
    n = len(plan.steps)
    deps = [sorted({d for d in (depends_on[i] if i < len(depends_on) else []) if isinstance(d, int) and 0 <= d < i})
            for i in range(n)]  # only earlier steps: a cycle or a forward edge from a model is cut, never followed
    layers: list[list[str]] = []
    level = [0] * n
    for i in range(n):
        level[i] = 1 + max((level[d] for d in deps[i]), default=-1)
        while len(layers) <= level[i]:
            layers.append([])
        layers[level[i]].append(plan.steps[i].title)
    return json.dumps({"DAG": layers, "steps": [{"id": i, "title": s.title, "step_type": s.step_type.value,
                                                 "depends_on": deps[i]} for i, s in enumerate(plan.steps)]},
                      ensure_ascii=False)


def coerce_plan(value: Any, locale: str, question: str, max_steps: int) -> tuple[Plan, str]:
    """A Plan from whatever `current_plan` holds (a Plan, its dict, a JSON string, plain text, or junk from a model
    or an edit), cut to `max_steps`; the second value says what was repaired ("" when nothing was)."""
    note = ""
    if isinstance(value, Plan):
        plan = value
    else:
        data = value
        if isinstance(value, str):
            try:
                data = json.loads(value)
            except ValueError:
                lines = [re.sub(r"^\s*(?:[-*•]|\d+[.)、])\s*", "", line).strip() for line in value.splitlines()]
                data = {"title": question[:120], "steps": [{"title": line[:300]} for line in lines if line]}
                note = "the plan was text: each line became a step"
        try:
            plan = Plan.model_validate(data)
        except ValidationError as exc:
            plan = decompose(question, locale, max_steps).plan
            note = f"the plan could not be read ({exc.error_count()} problem(s)); a new plan was made"
    if not plan.steps and not plan.has_enough_context:
        plan = plan.model_copy(update={"steps": decompose(question, locale, max_steps).plan.steps})
        note = note or "the plan had no steps; steps were made from the question"
    if len(plan.steps) > max_steps:
        plan = plan.model_copy(update={"steps": plan.steps[:max_steps]})
        note = note or f"the plan had more than {max_steps} steps; the first {max_steps} were kept"
    return plan, note


def apply_edits(plan: Plan, steps: Sequence[StepEdit]) -> Plan:
    """The edited list of steps; a step whose title and type are unchanged keeps what it already found."""
    done = {(s.title, s.step_type): s.execution_res for s in plan.steps}
    return plan.model_copy(update={"steps": [Step(title=e.title, description=e.description, step_type=e.step_type,
                                                  need_search=e.need_search,
                                                  execution_res=done.get((e.title, e.step_type)))
                                             for e in steps]})
