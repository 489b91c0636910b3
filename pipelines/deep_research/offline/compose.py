"""Offline analysis and reporting: findings compared across sources, and the report composed from them in
DeerFlow's structure — every statement a sentence of a cited passage, every gap said as a gap."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pipelines.core.markup import escape_markdown
from pipelines.deep_research.documents import split_sentences
from pipelines.deep_research.citations import location
from pipelines.deep_research.offline.extract import unanswered
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.retrieval import TOKENIZE
from pipelines.deep_research.schemas import Plan, StepType

FOUND_KINDS = ("passage", "web")  # what a researcher quotes from: a document's passage or a web result
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*%?")
_STEP_PREFIX = re.compile(r"^(find|look up|research|查找|检索)\s*[:：]\s*", re.I)


def step_findings(collections: Sequence[Mapping[str, Any]], step: int) -> list[tuple[str, str]]:
    """(sentence, ref) the researcher kept for a step, best first."""
    found = [(f.get("rank", 0), f["text"], item["ref"]) for item in collections
             if isinstance(item, Mapping) and item.get("step") == step and item.get("kind", "passage") in FOUND_KINDS
             for f in item.get("findings") or [] if f.get("text")]
    return [(text, ref) for _, text, ref in sorted(found, key=lambda f: f[0])]


def compare(collections: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Where two documents speak of the same thing with different figures: the pairs, each with both refs."""
    items = [(text, ref, item.get("document", "")) for item in collections if isinstance(item, Mapping)
             and item.get("kind", "passage") in FOUND_KINDS for f in item.get("findings") or []
             for text, ref in [(f.get("text", ""), item["ref"])] if text]
    points: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for i, (text_a, ref_a, doc_a) in enumerate(items):
        words_a, numbers_a = set(TOKENIZE(_NUMBER.sub(" ", text_a))), set(_NUMBER.findall(text_a))
        for text_b, ref_b, doc_b in items[i + 1:]:
            if doc_a == doc_b or (text_a, text_b) in seen:
                continue
            numbers_b = set(_NUMBER.findall(text_b))
            shared = words_a & set(TOKENIZE(_NUMBER.sub(" ", text_b)))
            if len(shared) >= 3 and numbers_a and numbers_b and numbers_a != numbers_b:
                seen.add((text_a, text_b))
                points.append({"a": {"text": text_a, "ref": ref_a, "document": doc_a},
                               "b": {"text": text_b, "ref": ref_b, "document": doc_b}, "shared": sorted(shared)[:6]})
    return points[:6]


def _key(text: str) -> str:
    return re.sub(r"\W+", "", text.lower())


def aspect_of(title: str) -> str:
    return _STEP_PREFIX.sub("", title or "").strip()


def _line(text: str, ref: str) -> str:
    """A finding with its reference after each of its sentences: one given with the sentence before it (for its
    subject) cites that sentence too, so every sentence of the report carries its source."""
    return " ".join(f"{escape_markdown(part, line_breaks=False)} [[{ref}]]" for part in split_sentences(text) or [text])


_WORDS = {
    "key": ("要点", "Key points"), "overview": ("概述", "Overview"), "detail": ("详细分析", "Detailed analysis"),
    "sources": ("主要引用", "Key citations"), "gaps": ("缺口", "Gaps"), "compare": ("来源比较", "How the sources compare"),
    "computed": ("计算结果", "Computed results"),
}


def _w(key: str, zh: bool) -> str:
    return _WORDS[key][0 if zh else 1]


def compose_report(state: Mapping[str, Any], plan: Plan, partial: str = "") -> str:
    """The report with `[[P3]]` references (numbered afterwards). Only the passages' own sentences are stated."""
    zh = is_zh(state.get("locale"))
    collections = [c for c in state.get("data_collections") or [] if isinstance(c, Mapping)]
    query = str(state.get("original_query") or state.get("user_query") or "")
    title = plan.title or query
    key_points, detail, gaps = [], [], []
    stated: set[str] = set()
    for index, step in enumerate(plan.steps):
        if step.step_type == StepType.ANALYSIS:
            continue
        # A sentence an earlier step already gave is not repeated: the step adds what is new (or, when all it found
        # was said before, its best sentence once more, so that it does not read as a gap).
        found = step_findings(collections, index)
        findings = [(text, ref) for text, ref in found if _key(text) not in stated] or found[:1]
        stated.update(_key(text) for text, _ in findings)
        computed = [c for c in collections if c.get("step") == index and c.get("kind") == "computation"]
        aspect = escape_markdown(aspect_of(step.title), line_breaks=False)
        detail.append(f"### {escape_markdown(step.title, line_breaks=False)}")
        if findings and unanswered(aspect_of(step.title), [text for text, _ in findings]):
            not_said = (f"资料中没有给出“{aspect}”的答案；以下是最接近的段落。" if zh else
                        f"The documents do not state this: {aspect}. The closest passages follow.")
            detail.append(not_said)
            key_points.append(f"- {not_said}")
            gaps.append(aspect)
        if findings:
            key_points.append(f"- {_line(*findings[0])}")
            detail += [f"- {_line(text, ref)}" for text, ref in findings]
        for item in computed:
            detail.append(("计算（" if zh else "Computed (") + escape_markdown(item.get("summary", ""), line_breaks=False)
                          + ("）：" if zh else "):"))
            detail.append("```\n" + str(item.get("output", "")).replace("```", "ˋˋˋ")[:3000] + "\n```")
        if not findings and not computed:
            not_said = (f"资料中没有找到关于“{aspect}”的说明。" if zh else
                        f"The documents do not say anything about: {aspect}.")
            detail.append(not_said)
            key_points.append(f"- {not_said}")
            gaps.append(aspect)
        elif step.execution_res is None:
            gaps.append(aspect)
    comparisons = [c for c in collections if c.get("kind") == "analysis"]
    lines = [f"# {escape_markdown(title, line_breaks=False)}", "", f"## {_w('key', zh)}", *dict.fromkeys(key_points), "",
             f"## {_w('overview', zh)}"]
    documents = sorted({str(c.get("document")) for c in collections if c.get("kind", "passage") in FOUND_KINDS
                        and c.get("findings")})
    names = escape_markdown(("、" if zh else ", ").join(documents) or "—", line_breaks=False)
    question = escape_markdown(query, line_breaks=False)
    lines.append(f"本报告回答的问题是：“{question}”。它依据 {len(documents)} 份文件中的原文：{names}。" if zh else
                 f"This report answers “{question}” from the passages of {len(documents)} document(s): {names}.")
    if partial:
        lines.append(("**本报告不完整：** " if zh else "**This report is partial:** ") + escape_markdown(partial))
    lines += ["", f"## {_w('detail', zh)}", *detail]
    points = [p for c in comparisons for p in c.get("points") or []]
    if points:
        lines += ["", f"### {_w('compare', zh)}", "| " + ("来源" if zh else "Source") + " | " +
                  ("原文" if zh else "Statement") + " |", "|---|---|"]
        for point in points:
            for side in ("a", "b"):
                lines.append(f"| {escape_markdown(point[side]['document'], line_breaks=False)} | "
                             f"{_line(point[side]['text'], point[side]['ref'])} |")
        lines.append("各来源的数字不一致时，请以日期较新的文件为准。" if zh else
                     "Where the figures differ, the later-dated document is the one to go by.")
    if gaps:
        lines += ["", f"## {_w('gaps', zh)}"]
        lines += [f"- {g}" for g in gaps]
    lines += ["", f"## {_w('sources', zh)}", "{citations}"]
    return "\n".join(lines)


def citation_lines(citations: Sequence[Mapping[str, Any]]) -> str:
    """The Key citations list: each number, its document's file name and title, and where in it."""
    lines = []
    for c in citations:
        where = location(c.get("page"), str(c.get("section") or ""), str(c.get("title") or ""))
        title = f" — {c['title']}" if c.get("title") and c.get("title") != c.get("document") else ""
        lines.append(f"- [{c['n']}] {escape_markdown(str(c.get('document') or ''), line_breaks=False)}"
                     f"{escape_markdown(title, line_breaks=False)}"
                     f"{(' (' + escape_markdown(where, line_breaks=False) + ')') if where else ''}")
    return "\n".join(lines) or "—"
