"""Citations you can check: numbered by first use in the report, and each cited sentence compared with its passage."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from pipelines.core.markup import unescape_markdown
from pipelines.deep_research.retrieval import TOKENIZE

MARKER = re.compile(r"(?<!\\)\[(\d{1,4})\]")
_REF_TOKEN = re.compile(r"\[\[([A-Z]\d{1,4})\]\]")  # what a composed report writes before numbering: [[P3]]
# A sentence ends at . ! ? before a space, the end or a marker (not inside 412.6), or at 。！？; markers after the
# end still belong to it.
_SENTENCE_END = re.compile(r"(?:[.!?](?=\s|$|\[)|[。！？])(?:\s*\[\d{1,4}\])*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
SUPPORT_SHARE = 0.6  # of a sentence's words its passages must hold
_CITATION_LIST = re.compile(r"^#{1,4}\s*(key citations|citations|sources|references|主要引用|引用|参考文献|来源)\s*$",
                            re.I)


def number_refs(report: str, collections: Sequence[Mapping[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Replace `[[P3]]` references by [1], [2]… in order of first use; the citation list to go with them. A
    reference to nothing the run collected is kept visible as [?] (and the check counts it as invalid)."""
    by_ref = {str(item.get("ref")): item for item in collections if isinstance(item, Mapping) and item.get("ref")}
    numbers: dict[str, int] = {}
    citations: list[dict[str, Any]] = []

    def replace(match: re.Match) -> str:
        ref = match.group(1)
        item = by_ref.get(ref)
        if item is None:
            return "[?]"
        if ref not in numbers:
            numbers[ref] = len(numbers) + 1
            citations.append(citation_entry(numbers[ref], item))
        return f"[{numbers[ref]}]"

    return _REF_TOKEN.sub(replace, report), citations


def citation_entry(number: int, item: Mapping[str, Any]) -> dict[str, Any]:
    text = item.get("text") or ""
    if item.get("kind") == "computation":
        text = f"{item.get('code', '')}\n---\n{item.get('output', '')}"
    return {"n": number, "ref": item.get("ref"), "passage_id": item.get("passage_id") or item.get("url") or "",
            "document": item.get("document") or item.get("url") or "", "title": item.get("title") or "",
            "collection": item.get("collection") or item.get("kind") or "", "page": item.get("page"),
            "section": item.get("section") or "", "chunk": item.get("chunk"), "text": text,
            "flagged": bool(item.get("flagged"))}


def short_section(section: str, title: str) -> str:
    """The section path without its first part when that part is the document's title (a Markdown file's top
    heading): "Annual Review 2024 > Traffic" under the title "Annual Review 2024" reads "Traffic"."""
    parts = [p for p in (section or "").split(" > ") if p]
    if len(parts) > 1 and title and parts[0].strip() == title.strip():
        parts = parts[1:]
    elif len(parts) == 1 and title and parts[0].strip() == title.strip():
        parts = []
    return " > ".join(parts)


def location(page: Any, section: str, title: str = "") -> str:
    """"p. 3 · § Results > Costs": where in its document a passage sits (the section without the document's title)."""
    section = short_section(section or "", title or "")
    return " · ".join(part for part in (f"p. {page}" if page else "", f"§ {section}" if section else "") if part)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unescape_markdown(text)).lower()


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(_fold(text))}


def split_claims(text: str) -> list[str]:
    pieces, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        pieces.append(text[start:match.end()])
        start = match.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def claims(report: str) -> list[tuple[str, list[int]]]:
    """Each sentence (a table cell counts as one) that carries citation markers, with its numbers."""
    out: list[tuple[str, list[int]]] = []
    for line in report.splitlines():
        stripped = line.strip()
        if _CITATION_LIST.match(stripped):
            break  # the list of sources names the citations, it makes no claim
        if not stripped or stripped.startswith("#"):
            continue
        parts = [c for c in stripped.strip("|").split("|")] if stripped.startswith("|") else [stripped]
        for part in parts:
            for sentence in split_claims(part):
                refs = [int(n) for n in MARKER.findall(sentence)]
                text = MARKER.sub("", sentence).strip(" -*•>")
                if refs and text:
                    out.append((text, refs))
    return out


def supports(sentence: str, passages: Sequence[str]) -> str:
    """"" when the passages state the sentence; otherwise why not. The sentence's words must mostly be in them
    and every figure it gives must be one of theirs."""
    joined = _fold(" ".join(passages))
    text = _fold(sentence).strip(" .。")
    if text and text in joined:
        return ""
    missing = sorted(_numbers(text) - _numbers(joined))
    if missing:
        return f"the cited passage does not give {', '.join(missing[:3])}"
    words = set(TOKENIZE(text))
    if words:
        share = len(words & set(TOKENIZE(joined))) / len(words)
        if share < SUPPORT_SHARE:
            return f"only {share:.0%} of the sentence's words are in the cited passage"
    return ""


def check(report: str, citations: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """How many cited claims their passages support; the others with the reason; numbers that cite nothing."""
    by_number = {int(c["n"]): str(c.get("text") or "") for c in citations if isinstance(c, Mapping) and "n" in c}
    unsupported: list[dict[str, Any]] = []
    invalid: set[int] = set()
    found = claims(report)
    for sentence, refs in found:
        bad = [n for n in refs if n not in by_number]
        invalid.update(bad)
        good = [by_number[n] for n in refs if n in by_number]
        reason = ("it cites " + ", ".join(f"[{n}]" for n in bad) + ", which the run never collected") if bad and not good \
            else supports(sentence, good)
        if reason:
            unsupported.append({"sentence": unescape_markdown(sentence)[:500], "refs": refs, "reason": reason})
    return {"claims": len(found), "supported": len(found) - len(unsupported), "unsupported": unsupported,
            "invalid_refs": sorted(invalid)}
