"""Offline Holland RIASEC scoring: a weighted bilingual lexicon over the client's words and resume, with evidence."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from pipelines.core.paths import ASSETS_DIR
from pipelines.ican.lexicon import Term, TermHit, TermMatcher
from pipelines.ican.schemas import RIASEC, RiasecProfile

LEXICON_PATH = ASSETS_DIR / "ican" / "riasec_lexicon.json"
# Raw evidence saturates towards 100: 3 weight points give about 39, 6 about 63, 12 about 86.
SATURATION = 6.0
RESUME_FACTOR = 0.5  # a resume lists duties more than likes, so its words count half
NEGATED_FACTOR = -0.6  # "I don't like selling" is evidence against E, not for it
REPEAT_FACTORS = (1.0, 0.5)  # a term said twice counts once and a half; more adds nothing
EVIDENCE_PER_TYPE = 4

TYPE_NAMES = {
    "R": ("现实型", "Realistic"), "I": ("研究型", "Investigative"), "A": ("艺术型", "Artistic"),
    "S": ("社会型", "Social"), "E": ("企业型", "Enterprising"), "C": ("常规型", "Conventional"),
}


def type_name(letter: str, lang: str) -> str:
    zh, en = TYPE_NAMES[letter]
    return zh if lang == "zh" else en


@cache
def riasec_matcher() -> TermMatcher:
    data = json.loads(LEXICON_PATH.read_text(encoding="utf-8"))
    terms = [Term(str(text), float(weight), letter, str(kind))
             for letter, by_lang in data["types"].items() for entries in by_lang.values()
             for text, weight, kind in entries]
    return TermMatcher(terms)


@dataclass
class RiasecEvidence:
    raw: dict[str, float]
    evidence: dict[str, list[str]]
    hits: int

    def scores(self) -> dict[str, int]:
        return {t: round(100 * (1 - math.exp(-max(0.0, self.raw[t]) / SATURATION))) for t in RIASEC}

    def holland_code(self) -> str:
        """The three strongest types; ties keep the RIASEC order so the code is deterministic."""
        ranked = sorted(RIASEC, key=lambda t: (-self.raw[t], RIASEC.index(t)))
        return "".join(ranked[:3])

    def profile(self) -> RiasecProfile:
        return RiasecProfile(scores=self.scores(), holland_code=self.holland_code(),
                             evidence={t: self.evidence.get(t, []) for t in RIASEC})


def _accumulate(hits: list[TermHit], factor: float, raw: dict[str, float], seen: dict[tuple[str, str], int],
                evidence: dict[str, list[str]]) -> None:
    for hit in hits:
        key = (hit.term.label, hit.term.text)
        count = seen[key]
        seen[key] += 1
        if count >= len(REPEAT_FACTORS):
            continue
        sign = NEGATED_FACTOR if hit.negated else 1.0
        raw[hit.term.label] += hit.term.weight * factor * sign * REPEAT_FACTORS[count]
        quote = ("not: " if hit.negated else "") + hit.phrase
        bucket = evidence[hit.term.label]
        if quote and quote not in bucket and len(bucket) < EVIDENCE_PER_TYPE:
            bucket.append(quote)


def score_riasec(client_text: str, resume_text: str = "") -> RiasecEvidence:
    """Scores from what the client said, plus (at half weight) what the resume says they did."""
    matcher = riasec_matcher()
    raw: dict[str, float] = {t: 0.0 for t in RIASEC}
    seen: dict[tuple[str, str], int] = defaultdict(int)
    evidence: dict[str, list[str]] = defaultdict(list)
    client_hits = matcher.find(client_text)
    _accumulate(client_hits, 1.0, raw, seen, evidence)
    resume_hits = matcher.find(resume_text) if resume_text else []
    _accumulate(resume_hits, RESUME_FACTOR, raw, seen, evidence)
    return RiasecEvidence(raw=raw, evidence=dict(evidence), hits=len(client_hits) + len(resume_hits))


def interest_terms(text: str, limit: int = 6) -> list[str]:
    """The interests a client names (lexicon activities, interests and hobbies), in the order said."""
    found: list[str] = []
    for hit in riasec_matcher().find(text):
        if hit.negated or hit.term.kind not in {"activity", "interest", "hobby"}:
            continue
        word = text[hit.start:hit.end]
        if word.lower() not in (f.lower() for f in found):
            found.append(word)
    return found[:limit]


def value_terms(text: str, limit: int = 4) -> list[str]:
    found: list[str] = []
    for hit in riasec_matcher().find(text):
        if not hit.negated and hit.term.kind == "value" and text[hit.start:hit.end] not in found:
            found.append(text[hit.start:hit.end])
    return found[:limit]
