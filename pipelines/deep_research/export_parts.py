"""What the research report's downloads share: labels, title, sources, the citation check and claim matching."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pipelines.core.markup import sanitize_markdown
from pipelines.core.pdf.text import plain_markdown
from pipelines.core.text import Phrasebook, clip, detect_language

SAY = Phrasebook({
    "report": ("研究报告", "Research report"),
    "subtitle": ("深度研究报告", "Deep research report"),
    "query": ("研究问题", "Question"),
    "date": ("日期", "Date"),
    "count": ("引用来源", "Sources cited"),
    "sources": ("参考来源", "Sources"),
    "no_sources": ("报告没有引用来源。", "The report cites no sources."),
    "check": ("引用核查", "Citation check"),
    "figure": ("{claims} 条引用论断中 {supported} 条有来源支持", "{supported} of {claims} cited claims supported"),
    "not_checked": ("未核查", "not checked"),
    "summary": ("引用核查：{figure}", "Citation check: {figure}"),
    "unsupported": ("来源不支持的论断", "Claims the sources do not support"),
    "flag": ("⚠ 依据不足", "⚠ unsupported"),
    "invalid": ("没有对应来源的引用编号：{refs}", "Citation markers with no source: {refs}"),
    "page": ("第 {page} 页", "p. {page}"),
    "empty": ("报告尚未生成。", "The report has not been written yet."),
    "claim": ("论断", "Claim"), "refs": ("引用", "Refs"), "reason": ("原因", "Reason"),
    "number": ("#", "#"), "document": ("文档", "Document"), "location": ("位置", "Location"),
    "passage": ("引文摘录", "Cited passage"),
})
PASSAGE_LIMIT = 600  # a download lists the evidence, it does not reprint whole documents
START, END = "\ue000", "\ue001"  # private-use marks around an unsupported sentence; stripped from outside text
# A citation marker: [3], and the [2, 5] some models write instead of [2][5].
_MARKER = re.compile(r"\s*\[\d+(?:\s*[,，]\s*\d+)*\]")
# What follows a sentence before the next one starts: its markers, its full stop, the ** closing its emphasis.
_TAIL = re.compile(r"(?:\s*\[\d+(?:\s*[,，]\s*\d+)*\]|[.。!?！？]|\*{1,2}|_)*")
# The sanitiser's escape of anything tag-like (`a<b and c>d` too); code is never read as HTML by a PDF or Word.
_ESCAPED_TAG = re.compile(r"\\<(/?[a-zA-Z!?][^<>]*)\\>")
_IGNORED = set("*`\\_\u2060" + START + END)  # Markdown markers and escapes: the checker quotes the sentence bare
_END_PUNCTUATION = ".。!?！？;；:： "
MIN_CLAIM = 6  # a shorter "sentence" would highlight words all over the report


@dataclass(frozen=True)
class Source:
    n: int
    document: str
    title: str = ""
    page: str = ""
    section: str = ""
    passage: str = ""


@dataclass(frozen=True)
class Claim:
    sentence: str
    refs: tuple[int, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class Check:
    checked: bool = False
    claims: int = 0
    supported: int = 0
    unsupported: tuple[Claim, ...] = field(default_factory=tuple)
    invalid: tuple[int, ...] = field(default_factory=tuple)


def text(value: Any) -> str:
    """A field as text, whatever the state holds there (None, a number, a string)."""
    return "" if value is None else value if isinstance(value, str) else str(value)


def one_line(value: Any) -> str:
    return " ".join(text(value).split())


def language(state: Mapping[str, Any]) -> str:
    """'zh' or 'en' from the locale; without one, from the question and the report."""
    locale = text(state.get("locale")).strip().lower()
    if locale:
        return "zh" if locale.startswith("zh") else "en"
    return detect_language(text(state.get("user_query")), text(state.get("final_report"))[:2000])


def report_markdown(state: Mapping[str, Any]) -> str:
    """The reporter's Markdown without images, links or HTML, and without the marks used for highlighting."""
    return strip_marks(sanitize_markdown(text(state.get("final_report")))).strip()


def strip_marks(value: str) -> str:
    return value.replace(START, "").replace(END, "")


def code_text(value: str) -> str:
    """Code from the sanitised report as it was written, for renderers that show it literally."""
    return _ESCAPED_TAG.sub(r"<\1>", value)


def _plan_title(plan: Any) -> str:
    if isinstance(plan, str):
        try:
            plan = json.loads(plan)
        except ValueError:
            return ""
    if isinstance(plan, Mapping):
        return one_line(plan.get("title"))
    return one_line(getattr(plan, "title", ""))


def report_heading(markdown: str) -> str:
    """The text of the report's opening '# title' line, if it opens with one."""
    first = next((line.strip() for line in markdown.splitlines() if line.strip()), "")
    match = re.match(r"#\s+(.+)$", first)
    return one_line(plain_markdown(match.group(1).strip("# "))) if match else ""


def title(state: Mapping[str, Any], lang: str, markdown: str) -> str:
    return (_plan_title(state.get("current_plan")) or report_heading(markdown)
            or clip(text(state.get("user_query")), 120) or SAY("report", lang))


def body_markdown(markdown: str, doc_title: str) -> str:
    """The report below the document's title: its own '# title' goes when it only repeats that title."""
    heading = report_heading(markdown)
    if heading and heading == doc_title:
        lines = markdown.strip().splitlines()
        return "\n".join(lines[1:]).strip()
    return markdown


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def sources(state: Mapping[str, Any]) -> list[Source]:
    items = state.get("citations")
    found = []
    for i, item in enumerate(items if isinstance(items, (list, tuple)) else [], 1):
        if not isinstance(item, Mapping):
            continue
        page = item.get("page")
        found.append(Source(n=_int(item.get("n")) or i, document=one_line(item.get("document")) or "?",
                            title=one_line(item.get("title")), page="" if page in (None, "") else one_line(page),
                            section=one_line(item.get("section")), passage=text(item.get("text"))))
    return sorted(found, key=lambda s: s.n)


def location(source: Source, lang: str) -> str:
    parts = [SAY("page", lang, page=source.page) if source.page else "", f"§ {source.section}" if source.section else ""]
    return " / ".join(p for p in parts if p)


def source_line(source: Source, lang: str, esc: Callable[[str], str] = lambda s: s, number: str = "[{n}]") -> str:
    """'[n] file name — title, p. 3 / § Section': every field through `esc`, the punctuation around them not."""
    extra = [esc(source.title) if source.title and source.title != source.document else "",
             esc(location(source, lang))]
    extra = [e for e in extra if e]
    return f"{number.format(n=source.n)} {esc(source.document)}" + (f" — {', '.join(extra)}" if extra else "")


def passage(source: Source, limit: int = PASSAGE_LIMIT) -> str:
    return clip(source.passage, limit)


def _refs(value: Any) -> tuple[int, ...]:
    values = value if isinstance(value, (list, tuple)) else re.findall(r"\d+", text(value))
    return tuple(n for n in (_int(v) for v in values) if n is not None)


def citation_check(state: Mapping[str, Any]) -> Check:
    check = state.get("citation_check")
    if not isinstance(check, Mapping) or not check:
        return Check()
    claims = []
    for item in check.get("unsupported") or []:
        if isinstance(item, Mapping):
            claims.append(Claim(one_line(item.get("sentence")), _refs(item.get("refs")), one_line(item.get("reason"))))
        elif item:
            claims.append(Claim(one_line(item)))
    total = _int(check.get("claims")) or 0
    supported = _int(check.get("supported"))
    supported = max(total - len(claims), 0) if supported is None else supported
    return Check(True, total, supported, tuple(c for c in claims if c.sentence), _refs(check.get("invalid_refs")))


def support_figure(check: Check, lang: str) -> str:
    """'11 of 12 cited claims supported', or 'not checked' when the check did not run."""
    if not check.checked:
        return SAY("not_checked", lang)
    return SAY("figure", lang, claims=check.claims, supported=check.supported)


def check_summary(check: Check, lang: str) -> str:
    return SAY("summary", lang, figure=support_figure(check, lang))


def refs_text(refs: Iterable[int]) -> str:
    return "".join(f"[{n}]" for n in refs)


def _normalized(value: str) -> tuple[str, list[int]]:
    """The text as the citation checker quotes it (no markers, no Markdown markers, single spaces), and for
    each of its characters the index it came from."""
    out: list[str] = []
    index: list[int] = []
    i = 0
    while i < len(value):
        marker = _MARKER.match(value, i)
        if marker:
            i = marker.end()
            continue
        ch = value[i]
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                index.append(i)
        elif ch not in _IGNORED:
            out.append(ch)
            index.append(i)
        i += 1
    return "".join(out), index


def claim_spans(value: str, claims: Iterable[str]) -> list[tuple[int, int]]:
    """Where the unsupported sentences stand in `value`: (start, end) pairs that include each sentence's
    citation markers and full stop, in order and never overlapping."""
    norm, index = _normalized(value)
    spans = []
    for claim in claims:
        needle = _normalized(claim)[0].strip().rstrip(_END_PUNCTUATION)
        if len(needle) < MIN_CLAIM:
            continue
        at = norm.find(needle)
        while at >= 0:
            start, end = index[at], index[at + len(needle) - 1] + 1
            if start and value[start - 1] == "\\":  # keep a Markdown escape whole: \< stays \<
                start -= 1
            spans.append((start, _TAIL.match(value, end).end()))
            at = norm.find(needle, at + len(needle))
    kept: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return kept


def mark_claims(markdown: str, claims: Iterable[str]) -> str:
    """The Markdown with START and END around each unsupported sentence."""
    out, pos = [], 0
    for start, end in claim_spans(markdown, claims):
        out += [markdown[pos:start], START, markdown[start:end], END]
        pos = end
    return "".join(out) + markdown[pos:]
