"""Scores research reports against the blind dev set, as its README says: a fact is covered when one report
sentence holds all its keywords and cites a passage of its source; correctly cited when that passage overlaps the
fact's quote. Unanswerable questions pass when the report says the documents do not answer."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEVSET = Path(__file__).resolve().parent
DOCS = DEVSET / "docs"
_MARKER = re.compile(r"\[(\d{1,4})\]")
_SPLIT = re.compile(r"(?:[.!?](?=\s|$|\[)|[。！？])(?:\s*\[\d{1,4}\])*|\n")
_UNESCAPE = re.compile(r"\\(.)")
NOT_ANSWERED = re.compile(r"do(es)? not (say|state|contain|mention|give)|no (information|answer)|not (stated|found|given)|"
                          r"没有(找到|提供|提到|说明|给出)|未(提供|提及|说明)|文件中没有", re.I)


def questions() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DEVSET / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line]


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", _UNESCAPE.sub(r"\1", text)).lower().replace("\u2060", "")
    return re.sub(r"\s+", "", text)


def sentences(report: str) -> list[tuple[str, list[int]]]:
    out, start = [], 0
    for match in _SPLIT.finditer(report):
        piece = report[start:match.end()]
        start = match.end()
        if piece.strip():
            out.append((piece, [int(n) for n in _MARKER.findall(piece)]))
    if report[start:].strip():
        out.append((report[start:], [int(n) for n in _MARKER.findall(report[start:])]))
    return out


def _has(sentence: str, keyword: str) -> bool:
    return any(_norm(alt) in sentence for alt in keyword.split("|") if alt.strip())


def _overlaps(passage: str, quote: str) -> bool:
    p, q = _norm(passage), _norm(quote)
    if q in p or p in q:
        return True
    # a chunk boundary may cut the quote: 40 characters of it in the passage count as overlap
    return any(q[i:i + 40] in p for i in range(0, max(1, len(q) - 39), 10))


@dataclass
class FactScore:
    stated: bool = False
    covered: bool = False
    correct: bool = False


def score_fact(fact: Mapping[str, Any], report: str, citations: Sequence[Mapping[str, Any]]) -> FactScore:
    by_number = {int(c["n"]): c for c in citations}
    score = FactScore()
    for text, refs in sentences(report.split("## Key citations")[0].split("## 主要引用")[0]):
        norm = _norm(_MARKER.sub("", text))
        if not all(_has(norm, k) for k in fact["keywords"]):
            continue
        score.stated = True
        cited = [by_number[n] for n in refs if n in by_number and by_number[n].get("document") == fact["source"]]
        if cited:
            score.covered = True
            if any(_overlaps(str(c.get("text") or ""), fact["quote"]) for c in cited):
                score.correct = True
    return score


def unanswerable_passes(report: str) -> bool:
    return bool(NOT_ANSWERED.search(report))


def summarize(results: Sequence[tuple[Mapping[str, Any], str, Sequence[Mapping[str, Any]]]]) -> dict[str, Any]:
    """Per question and overall: fact coverage (micro and macro), citation precision, stated-but-uncited facts."""
    per_question, facts, covered, correct, stated = [], 0, 0, 0, 0
    unanswerable = []
    for question, report, citations in results:
        if question.get("unanswerable"):
            unanswerable.append((question["id"], unanswerable_passes(report)))
            continue
        scores = [score_fact(f, report, citations) for f in question["facts"]]
        n, c = len(scores), sum(s.covered for s in scores)
        per_question.append({"id": question["id"], "lang": question["lang"], "facts": n, "covered": c,
                             "correct": sum(s.correct for s in scores), "stated": sum(s.stated for s in scores)})
        facts, covered = facts + n, covered + c
        correct += sum(s.correct for s in scores)
        stated += sum(s.stated and not s.covered for s in scores)
    macro = sum(q["covered"] / q["facts"] for q in per_question) / len(per_question) if per_question else 0.0
    return {"questions": per_question, "facts": facts, "covered": covered, "coverage": covered / facts if facts else 0,
            "macro_coverage": macro, "citation_precision": correct / covered if covered else 0.0,
            "stated_uncited": stated, "unanswerable": unanswerable}
