"""Bilingual term matching for the offline engine: English words and stems, Chinese substrings, negation."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pipelines.core.text import has_cjk

_WORD_CHARS = "a-z0-9'"
# A clause ends at punctuation or a contrast word; negation never reaches across it.
_CLAUSE_END_EN = re.compile(r"[.;:!?,()\n]|\b(?:but|however|though|although|whereas|while)\b")
_CLAUSE_END_ZH = re.compile(r"[，。；：！？,.;:!?()（）\n]|但是|但|而是|不过|可是|然而|反而")
NEGATORS_EN = frozenset({
    "not", "don't", "dont", "never", "no", "hate", "hated", "dislike", "disliked", "didn't", "doesn't", "can't",
    "cannot", "won't", "nor", "neither", "avoid", "without", "isn't", "aren't", "wasn't", "less", "stop", "quit",
    "bored", "tired", "sick",
})
NEGATORS_ZH = ("不喜欢", "不想", "不爱", "讨厌", "不擅长", "不太", "不会", "不感兴趣", "不愿意", "不愿", "没兴趣",
               "没有兴趣", "厌倦", "受不了", "反感", "不要", "不再", "害怕", "不适合", "不是很", "并不", "没法",
               "逃避", "不善于", "不喜", "比起", "与其")
POST_NEGATORS_EN = ("bore me", "bores me", "boring", "not for me", "isn't for me", "not my thing", "isn't my thing",
                    "exhaust", "drains me", "draining", "hate")
POST_NEGATORS_ZH = ("不感兴趣", "没兴趣", "没什么兴趣", "没有兴趣", "不适合", "不喜欢", "很无聊", "无聊", "枯燥",
                    "太累", "很累", "头疼", "不擅长", "不是我想", "让我痛苦", "讨厌")


@dataclass(frozen=True)
class Term:
    text: str
    weight: float
    label: str  # what the term stands for: a Holland type, a skill id, a keyword
    kind: str = ""


@dataclass(frozen=True)
class TermHit:
    term: Term
    start: int
    end: int
    negated: bool
    phrase: str  # the clause around the hit, as evidence


_TOKEN = re.compile(rf"[{_WORD_CHARS}]+")
_JOINER = re.compile(r"[\s\-/]+")  # what may stand between the words of one term


def normalize(text: str) -> str:
    return (text or "").lower().replace("’", "'").replace("‘", "'")


def _term_words(term: str) -> tuple[tuple[str, bool], ...]:
    """(word, is_stem) per word: `repair*` is a stem, other words match as they are or with s/es."""
    return tuple((w[:-1], True) if w.endswith("*") else (w, False) for w in term.lower().replace("-", " ").split())


def _word_matches(token: str, word: str, stem: bool) -> bool:
    return token.startswith(word) if stem else token in (word, word + "s", word + "es")


class TermMatcher:
    """Finds terms in a text, leftmost and longest first (a phrase wins over its parts). English terms are
    indexed by their first word (stems by its first three letters), Chinese ones by their exact string."""

    def __init__(self, terms: Iterable[Term]) -> None:
        self.terms = list(terms)
        self._exact: dict[str, list[tuple[tuple[tuple[str, bool], ...], Term]]] = {}
        self._stems: dict[str, list[tuple[tuple[tuple[str, bool], ...], Term]]] = {}
        self._zh: dict[str, Term] = {}
        for term in sorted(self.terms, key=lambda t: -len(t.text)):
            if has_cjk(term.text):
                self._zh.setdefault(normalize(term.text), term)
                continue
            words = _term_words(term.text)
            if not words:
                continue
            first, stem = words[0]
            if stem:
                self._stems.setdefault(first[:3], []).append((words, term))
            else:
                for form in (first, first + "s", first + "es"):
                    self._exact.setdefault(form, []).append((words, term))
        self._zh_lengths = sorted({len(k) for k in self._zh}, reverse=True)
        self._stem_keys = sorted({len(k) for k in self._stems}, reverse=True)

    def _english(self, lowered: str) -> list[tuple[int, int, Term]]:
        tokens = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(lowered)]
        found, i = [], 0
        while i < len(tokens):
            token = tokens[i][0]
            best: tuple[int, int, Term] | None = None
            candidates = self._exact.get(token, []) + [c for n in self._stem_keys for c in self._stems.get(token[:n], [])]
            for words, term in candidates:
                if i + len(words) > len(tokens):
                    continue
                ok = all(_word_matches(tokens[i + k][0], w, stem) for k, (w, stem) in enumerate(words)) and all(
                    _JOINER.fullmatch(lowered[tokens[i + k][2]:tokens[i + k + 1][1]]) for k in range(len(words) - 1))
                if ok and (best is None or tokens[i + len(words) - 1][2] > best[1]):
                    best = (len(words), tokens[i + len(words) - 1][2], term)
            if best:
                found.append((tokens[i][1], best[1], best[2]))
                i += best[0]
            else:
                i += 1
        return found

    def _chinese(self, lowered: str) -> list[tuple[int, int, Term]]:
        found, i = [], 0
        while i < len(lowered):
            for length in self._zh_lengths:
                term = self._zh.get(lowered[i:i + length])
                if term is not None:
                    found.append((i, i + length, term))
                    i += length
                    break
            else:
                i += 1
        return found

    def find(self, text: str, negation: bool = True) -> list[TermHit]:
        lowered = normalize(text)
        hits = []
        for spans, zh in ((self._english(lowered), False), (self._chinese(lowered) if self._zh else [], True)):
            for start, end, term in spans:
                negated = negation and is_negated(lowered, start, end, zh)
                hits.append(TermHit(term, start, end, negated, clause_around(text, start, end, zh)))
        return sorted(hits, key=lambda h: h.start)

    def labels(self, text: str) -> set[str]:
        """The labels of the terms found, negated ones left out."""
        return {hit.term.label for hit in self.find(text) if not hit.negated}


def _clause_bounds(text: str, start: int, end: int, zh: bool) -> tuple[int, int]:
    boundary = _CLAUSE_END_ZH if zh else _CLAUSE_END_EN
    left = 0
    for match in boundary.finditer(text, 0, start):
        left = match.end()
    after = boundary.search(text, end)
    return left, after.start() if after else len(text)


def is_negated(lowered: str, start: int, end: int, zh: bool) -> bool:
    left, right = _clause_bounds(lowered, start, end, zh)
    before, after = lowered[left:start], lowered[end:right]
    if zh:
        return any(n in before[-6:] for n in NEGATORS_ZH) or any(n in after[:8] for n in POST_NEGATORS_ZH)
    words = re.findall(rf"[{_WORD_CHARS}]+", before)[-4:]
    tail = " ".join(re.findall(rf"[{_WORD_CHARS}]+", after)[:5])
    lead = " ".join(words[-3:])
    return any(w in NEGATORS_EN for w in words) or any(p in tail for p in POST_NEGATORS_EN) or \
        "rather than" in lead or "instead of" in lead


def clause_around(text: str, start: int, end: int, zh: bool, limit: int = 70) -> str:
    """The clause a hit stands in, trimmed around the hit when long."""
    left, right = _clause_bounds(normalize(text), start, end, zh)
    clause = text[left:right].strip(" \t，,")
    if len(clause) <= limit:
        return clause
    offset = start - left
    lo = max(0, offset - limit // 2)
    piece = clause[lo:lo + limit].strip()
    return ("…" if lo > 0 else "") + piece + ("…" if lo + limit < len(clause) else "")
