"""Offline extraction: the sentences of the retrieved passages that answer a step, chosen by maximal marginal
relevance (relevant to the step, not repeating each other), each kept with its passage's reference."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pipelines.deep_research.documents import split_sentences
from pipelines.deep_research.glossary import chinese_terms, equivalents
from pipelines.deep_research.retrieval import TOKENIZE

MIN_SENTENCE_CHARS = 12
MMR_LAMBDA = 0.7
_NUMBER = re.compile(r"\d")
_FIGURE_QUESTION = re.compile(r"\b(how (much|many)|what (was|is|were|are) the (share|number|amount|revenue|rate|ratio|cost|"
                              r"price|figure)|revenue|percent|percentage|share|ratio|rate|cost|price|growth|number|"
                              r"target|when|date|deadline)\b|多少|几|比例|占比|比率|金额|营收|收入|增长|成本|价格|目标|"
                              r"何时|日期|截止|人数|数量", re.I)
_HEADING_ONLY = re.compile(r"^#+\s|^[\W\d_]*$")


@dataclass(frozen=True)
class Sentence:
    text: str
    ref: str
    words: frozenset[str]
    prior: float  # the passage's rank among the step's passages, as a weight


@dataclass(frozen=True)
class Extract:
    text: str
    ref: str
    score: float
    coverage: float  # share of the step's words the sentence holds


def _sentences(passages: Sequence[Mapping[str, str]]) -> list[Sentence]:
    out: list[Sentence] = []
    seen: set[str] = set()
    for rank, passage in enumerate(passages):
        # Headings open their chunk as text: they name a topic, they state nothing.
        headings = {re.sub(r"\W+", "", h.lower()) for h in [str(passage.get("title") or ""),
                                                             *str(passage.get("section") or "").split(" > ")]}
        for text in split_sentences(passage["text"]):
            text = " ".join(text.split()).lstrip("-*•> ").strip()
            key = re.sub(r"\W+", "", text.lower())
            if len(text) < MIN_SENTENCE_CHARS or _HEADING_ONLY.match(text) or key in seen or key in headings:
                continue
            seen.add(key)
            out.append(Sentence(text, passage["ref"], frozenset(TOKENIZE(text)), 1.0 / (1.0 + 0.15 * rank)))
    return out


def _holds(sentence: Sentence, word: str) -> bool:
    """The sentence has the word, or its equivalent in the other language (the glossary's)."""
    if word in sentence.words or (word[0] >= "\u3400" and word in sentence.text):
        return True
    return any(e in sentence.words or (e[0] >= "\u3400" and e in sentence.text) for e in equivalents(word))


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def extract(query: str, passages: Sequence[Mapping[str, str]], limit: int = 5,
            context: str = "") -> list[Extract]:
    """Up to `limit` sentences that share the step's words (weighted by how rare a word is among the candidates),
    with a figure preferred when the step asks for one, chosen so that they do not repeat each other. `context`
    (the whole question) adds its words at a lower weight."""
    sentences = _sentences(passages)
    wanted = set(TOKENIZE(query)) | set(chinese_terms(query))
    around = (set(TOKENIZE(context)) | set(chinese_terms(context))) - wanted
    if not sentences or not (wanted or around):
        return []
    frequency: dict[str, int] = {}
    for sentence in sentences:
        for word in sentence.words:
            frequency[word] = frequency.get(word, 0) + 1
    n = len(sentences)

    def weight(word: str) -> float:
        return math.log(1 + n / (1 + frequency.get(word, 0))) + 0.5

    total = sum(weight(w) for w in wanted) or 1.0
    figures = bool(_FIGURE_QUESTION.search(query + " " + context))
    scored: list[tuple[float, float, Sentence]] = []
    for sentence in sentences:
        held = [w for w in wanted if _holds(sentence, w)]
        near_held = [w for w in around if _holds(sentence, w)]
        # One common word in common is chance: a sentence holds two of the question's words, or its rarest one.
        if not held and not near_held:
            continue
        hit = sum(weight(w) for w in held)
        near = 0.4 * sum(weight(w) for w in near_held)
        coverage = hit / total
        relevance = (hit + near) / total * sentence.prior * (1.25 if figures and _NUMBER.search(sentence.text) else 1.0)
        scored.append((relevance, coverage, sentence))
    if not scored:
        return []
    top = max(score for score, _, _ in scored)
    chosen: list[tuple[float, float, Sentence]] = []
    pool = sorted(scored, key=lambda item: -item[0])
    while pool and len(chosen) < limit:
        best = max(pool, key=lambda item: MMR_LAMBDA * item[0] / top - (1 - MMR_LAMBDA) *
                   max((_similarity(item[2].words, c[2].words) for c in chosen), default=0.0))
        pool.remove(best)
        if best[0] < 0.25 * top:  # far weaker than the best: noise, not an answer
            break
        chosen.append(best)
    return [Extract(s.text, s.ref, round(score, 4), round(coverage, 3)) for score, coverage, s in chosen]


_ASKED_FIGURE = re.compile(r"\b(cost|costs|price|prices|salary|salaries|pay|wage|wages|fee|fees|budget|revenue|spend|spent|"
                           r"worth|value)\b|多少钱|成本|费用|价格|薪|工资|收入|预算|造价|营收|花费", re.I)


def unanswered(question: str, sentences: Sequence[str]) -> bool:
    """A question asking for an amount (a cost, a price, a salary) that no found sentence gives with a figure and
    the word for what is asked: the documents do not answer it, however close the passages come."""
    asked = [m.group(0) for m in _ASKED_FIGURE.finditer(question or "")]
    if not asked or not re.search(r"how much|what (?:is|was|are|were) the|多少|几", question or "", re.I):
        return False
    words = {a.lower() for a in asked}
    wanted = words | {e for w in words for e in equivalents(TOKENIZE(w)[0] if TOKENIZE(w) else w)}
    return not any(_NUMBER.search(text) and any(w in text.lower() for w in wanted) for text in sentences)
