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


# A document's own citation markers: "[1]", "[^2]", "[3, 4]", "[5-7]", a named footnote "[^note]", and the
# definitions and reference-list entries that open a line ("[^2]: …", "[1] Smith, J. …").
_DOC_MARKER = r"\[(?:\^[\w-]{1,40}|\^?\d{1,4}(?:\s*[-–,]\s*\d{1,4})*)\]"
_DOC_DEFINITION = re.compile(r"^([ \t>*-]*)\[(?:\^([\w-]{1,40})\]:|(\d{1,4})\]:?)[ \t]+", re.M)
_DOC_INLINE = re.compile(r"[ \t]*" + _DOC_MARKER)
# In a draft, also escaped as a quoted passage has it: \[12\] reads "[12]" all the same.
_DRAFT_MARKER = re.compile(r"\\?\[(?:\\?\^[\w-]{1,40}|\\?\^?\d{1,4}(?:\s*[-–,]\s*\d{1,4})*)\\?\]")


def neutralise_markers(text: str) -> str:
    """A document's passage without its own citation markers: a report's citations are the report's only, so
    neither the offline engine nor a model may copy "[2]" from a passage into a report, where it would point at the
    report's second source. A footnote or reference entry keeps its words, as "Note 2: …"."""
    if "[" not in text:
        return text
    text = _DOC_DEFINITION.sub(lambda m: f"{m.group(1)}Note {m.group(2) or m.group(3)}: ", text)
    return _DOC_INLINE.sub("", text)


def number_refs(report: str, collections: Sequence[Mapping[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Replace `[[P3]]` references by [1], [2]… in order of first use; the citation list to go with them. A
    reference to nothing the run collected, and a bare "[12]" the draft wrote itself, are kept visible as [?]."""
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

    # A number in brackets the draft wrote itself (copied from a passage, or invented) is none of the report's
    # references: it is shown as [?], like a reference to nothing the run collected, and never numbered.
    report = _DRAFT_MARKER.sub("[?]", report)
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
    """How many cited claims their passages support, and the others with the reason. Only the report's own
    references count: a number that is none of its citations (a document's footnote copied as is) makes no claim
    and is listed apart, as a number that points to no collected passage."""
    by_number = {int(c["n"]): str(c.get("text") or "") for c in citations if isinstance(c, Mapping) and "n" in c}
    unsupported: list[dict[str, Any]] = []
    invalid: set[int] = set()
    found = []
    for sentence, refs in claims(report):
        invalid.update(n for n in refs if n not in by_number)
        own = [n for n in refs if n in by_number]
        if not own:
            continue
        found.append(sentence)
        if reason := supports(sentence, [by_number[n] for n in own]):
            unsupported.append({"sentence": unescape_markdown(sentence)[:500], "refs": own, "reason": reason})
    return {"claims": len(found), "supported": len(found) - len(unsupported), "unsupported": unsupported,
            "invalid_refs": sorted(invalid)}
