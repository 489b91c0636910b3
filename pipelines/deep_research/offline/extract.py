"""Offline extraction: the sentences of the retrieved passages that answer a step, chosen by maximal marginal
relevance (relevant to the step, not repeating each other), each kept with its passage's reference."""

from __future__ import annotations

import math
import os
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
    before: str = ""  # the sentence before it in the same passage, for one that cannot stand alone


@dataclass(frozen=True)
class Extract:
    text: str
    ref: str
    score: float
    coverage: float  # share of the step's words the sentence holds


# A sentence that opens with a pronoun or a connector leans on the one before ("It rose to 91%.", "此外，该比例…").
_LEANS = re.compile(r"^(?:it|its|this|that|these|those|they|their|them|he|she|his|her|such|the latter|the former|"
                    r"however|but|yet|also|still|instead|therefore|thus|hence|meanwhile|moreover|in addition|"
                    r"by contrast|as a result|of these|of them)\b|^(?:该|此|这|其|它|他|她|但|然而|不过|此外|同时|因此|"
                    r"所以|其中|上述|对此)", re.I)
# Figures and names are written alike in both languages: the bridge between an English and a Chinese passage.
_NAME = re.compile(r"(?<=[\w\s，、（(])[A-Z][\w-]+")


def _anchors(sentence: Sentence) -> set[str]:
    """The sentence's figures and the capitalised names inside it (not its first word)."""
    names = {w for m in _NAME.finditer(sentence.text) for w in TOKENIZE(m.group())}
    return {w for w in sentence.words if w[0].isdigit() or w in names}


def _sentences(passages: Sequence[Mapping[str, str]]) -> list[Sentence]:
    out: list[Sentence] = []
    seen: set[str] = set()
    for rank, passage in enumerate(passages):
        # Headings open their chunk as text: they name a topic, they state nothing.
        headings = {re.sub(r"\W+", "", h.lower()) for h in [str(passage.get("title") or ""),
                                                             *str(passage.get("section") or "").split(" > ")]}
        before = ""
        for text in split_sentences(passage["text"]):
            text = " ".join(text.split()).lstrip("-*•> ").strip()
            key = re.sub(r"\W+", "", text.lower())
            if len(text) < MIN_SENTENCE_CHARS or _HEADING_ONLY.match(text) or key in headings:
                before = ""
                continue
            if key not in seen:
                seen.add(key)
                # The passage's rank counts, but mildly: a lower-ranked passage often holds the one sentence asked for.
                out.append(Sentence(text, passage["ref"], frozenset(TOKENIZE(text)), 1.0 / (1.0 + 0.06 * rank),
                                    before if _LEANS.match(text) else ""))
            before = text
    return out


def _same_word(word: str, words: frozenset[str]) -> bool:
    """An English word in the sentence in another form the light stemmer leaves apart ("recovery"/"recovered",
    "supplier"/"supply"): a shared stem of at least five letters covering most of the shorter word."""
    if len(word) < 5 or not word.isalpha() or word[0] >= "\u3400":
        return False
    for other in words:
        if other[:5] == word[:5] and other.isalpha():
            shared = len(os.path.commonprefix([word, other]))
            if shared >= 0.8 * min(len(word), len(other)):
                return True
    return False


def _holds(sentence: Sentence, word: str) -> bool:
    """The sentence has the word (or a form of it), or its equivalent in the other language (the glossary's)."""
    if word in sentence.words or (word[0] >= "\u3400" and word in sentence.text) or _same_word(word, sentence.words):
        return True
    return any(e in sentence.words or (e[0] >= "\u3400" and e in sentence.text) for e in equivalents(word))


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def extract(query: str, passages: Sequence[Mapping[str, str]], limit: int = 5,
            context: str = "", skip: Sequence[str] = ()) -> list[Extract]:
    """Up to `limit` sentences that share the step's words (weighted by how rare a word is among the candidates),
    with a figure preferred when the step asks for one, chosen so that they do not repeat each other. `context`
    (the whole question) adds its words at a lower weight; the figures and names of the best sentences add theirs
    at a lower weight still, so that a passage in the other language that gives the same figure (and shares a word
    of the question) ranks with it. `skip`:
    sentences already reported (by an earlier step), left out so that the step adds what is new."""
    skipped = {re.sub(r"\W+", "", s.lower()) for s in skip}
    sentences = [s for s in _sentences(passages) if re.sub(r"\W+", "", s.text.lower()) not in skipped]
    wanted = set(TOKENIZE(query)) | set(chinese_terms(query))
    around = (set(TOKENIZE(context)) | set(chinese_terms(context))) - wanted
    if not sentences or not (wanted or around):
        return []
    frequency: dict[str, int] = {}
    for sentence in sentences:
        for word in sentence.words:
            frequency[word] = frequency.get(word, 0) + 1
    # Which sentences hold each question word, worked out once: the glossary look-ups are the cost here.
    holders = {w: {i for i, s in enumerate(sentences) if _holds(s, w)} for w in wanted | around}
    n = len(sentences)

    def weight(word: str) -> float:
        return math.log(1 + n / (1 + frequency.get(word, 0))) + 0.5

    total = sum(weight(w) for w in wanted) or 1.0
    figures = bool(_FIGURE_QUESTION.search(query + " " + context))

    def relevance(index: int, sentence: Sentence, anchors: set[str]) -> tuple[float, float]:
        held = [w for w in wanted if index in holders[w]]
        near_held = [w for w in around if index in holders[w]]
        if not held and not near_held:
            return 0.0, 0.0
        hit = sum(weight(w) for w in held)
        near = 0.4 * sum(weight(w) for w in near_held) + 0.3 * sum(weight(w) for w in anchors & sentence.words)
        boost = 1.25 if figures and _NUMBER.search(sentence.text) else 1.0
        return (hit + near) / total * sentence.prior * boost, hit / total

    first = sorted(((relevance(i, s, set()), s) for i, s in enumerate(sentences)), key=lambda item: -item[0][0])[:3]
    anchors = {w for (score, _), s in first if score > 0 for w in _anchors(s)
               if w not in wanted and w not in around and frequency.get(w, 0) <= max(2, n // 10)}
    scored = [(score, coverage, s) for i, s in enumerate(sentences) for score, coverage in [relevance(i, s, anchors)]
              if score > 0]
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
    texts = {s.text for _, _, s in chosen}
    # A sentence that leans on the one before is given with it (both verbatim from the same passage).
    return [Extract(f"{s.before} {s.text}" if s.before and s.before not in texts else s.text, s.ref,
                    round(score, 4), round(coverage, 3)) for score, coverage, s in chosen]


_ASKED_FIGURE = re.compile(r"\b(cost|costs|price|prices|salary|salaries|pay|wage|wages|fee|fees|budget|revenue|spend|spent|"
                           r"worth|value)\b|多少钱|成本|费用|价格|薪|工资|收入|预算|造价|营收|花费", re.I)


_MONEY_ASKED = {"cost", "costs", "price", "prices", "spend", "spent", "budget", "fee", "fees", "多少钱", "成本", "费用",
                "价格", "花费", "预算", "造价"}
_MONEY_WORDS = {"cost", "costs", "price", "spent", "budget", "fee", "euro", "dollar", "yuan", "usd", "eur", "rmb", "€", "$",
                "元", "欧元", "美元", "成本", "费用", "花费", "造价", "预算"}


def unanswered(question: str, sentences: Sequence[str]) -> bool:
    """A question asking for an amount (a cost, a price, a salary) that no found sentence gives with a figure and
    the word for what is asked: the documents do not answer it, however close the passages come."""
    asked = [m.group(0) for m in _ASKED_FIGURE.finditer(question or "")]
    if not asked or not re.search(r"how much|what (?:is|was|are|were) the|多少|几", question or "", re.I):
        return False
    words = {a.lower() for a in asked}
    wanted = words | {e for w in words for e in equivalents(TOKENIZE(w)[0] if TOKENIZE(w) else w)}
    if words & _MONEY_ASKED:  # "how much did it cost" is answered by an amount of money, however it is worded
        wanted |= _MONEY_WORDS
    return not any(_NUMBER.search(text) and any(w in text.lower() for w in wanted) for text in sentences)
