"""How well a piece of Latin-script text reads as English: a word-frequency model built from shipped public text,
used to tell a letter cipher (ROT13, Atbash, leetspeak, Morse) from ordinary words before a decoding is trusted."""

from __future__ import annotations

import csv
import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pipelines.core.guardrails.normalize import VOCABULARY

_ASSETS = Path(__file__).resolve().parents[3] / "assets"
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_SCORED = re.compile(r"[a-z]{2,}(?:'[a-z]+)?")  # one letter says too little ("C, C++" is not "P, P++")

# English closed-class words (pronouns, determiners, auxiliaries, prepositions, conjunctions, common adverbs): a
# fixed set of the language, which the shipped job descriptions rarely use because they do not address anyone.
_FUNCTION_WORDS = """
i me my mine myself you your yours yourself we us our ours he him his she her hers it its they them their theirs
this that these those who whom whose which what where when why how there here a an the some any no none every each
all both either neither other another such own same be am is are was were been being have has had having do does did
done doing will would shall should can could may might must ought not nor and or but if then else so because as
until while of at by for with about against between into through during before after above below to from up down in
out on off over under again further once just now only also very too more most much many few less least than here
yes okay please thanks hello hi let lets say said tell told make made get got go going went know think want need
like anything everything something nothing anyone everyone someone always never ever still already even
""".split()
OOV_COUNT = 0.5  # all unseen words together count as half an occurrence of a word


@dataclass(frozen=True)
class Lexicon:
    counts: dict[str, float]
    total: float
    bigrams: dict[str, float]  # log P(next letter | letter), "^" and "$" marking a word's edges
    floor: float               # the lowest of them, for a pair of characters that are no letters

    def logprob(self, word: str) -> float:
        """Log-probability of a word: its frequency, or for an unseen word the unseen share times how its letters
        follow each other in English (so "butts" scores well above "ohggf")."""
        if word in self.counts:
            return math.log(self.counts[word] / self.total)
        floor = self.floor
        letters = "^" + word.replace("'", "") + "$"
        return math.log(OOV_COUNT / self.total) + sum(self.bigrams.get(letters[i:i + 2], floor)
                                                     for i in range(len(letters) - 1))


def _shipped_english() -> str:
    """Public English prose that ships with the project: O*NET occupation descriptions (CC BY 4.0) and the demo
    job descriptions written for Stepwise."""
    parts: list[str] = []
    with open(_ASSETS / "occupations" / "occupation_interests.csv", encoding="utf-8") as handle:
        parts += [row["description"] for row in csv.DictReader(handle)]
    with open(_ASSETS / "recruiter" / "jobs.jsonl", encoding="utf-8") as handle:
        parts += [json.loads(line)["description"] for line in handle if line.strip()]
    return "\n".join(parts).lower()


@cache
def lexicon() -> Lexicon:
    """Word counts from shipped text, plus the closed-class words and the guard's own vocabulary (each counted as
    if seen a few times, so that a sentence made of them reads as language)."""
    counts: Counter[str] = Counter(WORD.findall(_shipped_english()))
    for word in (*_FUNCTION_WORDS, *VOCABULARY):
        counts[word] += 5
    pairs: Counter[str] = Counter()
    firsts: Counter[str] = Counter()
    for word, count in counts.items():
        letters = "^" + word.replace("'", "") + "$"
        for i in range(len(letters) - 1):
            pairs[letters[i:i + 2]] += count
            firsts[letters[i]] += count
    alphabet = 28  # a-z and the two edge marks: add-one smoothing over every possible next symbol
    bigrams = {a + b: math.log((pairs[a + b] + 1) / (firsts[a] + alphabet))
               for a in "^abcdefghijklmnopqrstuvwxyz" for b in "abcdefghijklmnopqrstuvwxyz$"}
    return Lexicon(dict(counts), float(sum(counts.values())), bigrams, min(bigrams.values()))


def words(text: str) -> list[str]:
    """The words of `text` that a score reads: two letters or more."""
    return _SCORED.findall(text.lower())


def known(text_words: set[str] | list[str]) -> int:
    """How many of the words the model has seen."""
    counts = lexicon().counts
    return sum(1 for w in text_words if w in counts)


def score(text_words: list[str]) -> float:
    """Mean log-probability per word (higher reads more like English); -inf for no words."""
    if not text_words:
        return float("-inf")
    lex = lexicon()
    return sum(lex.logprob(w) for w in text_words) / len(text_words)


# A decoding is trusted when its words read like English (a mean log-probability per word that ordinary sentences
# reach and letter salad does not) and are, on average, e^6 ≈ 400 times more probable than the original's.
READS_AS_ENGLISH = -22.0
MARGIN = 6.0
MIN_WORDS = 3


def reads_better(original: str, decoded: str) -> bool:
    """Whether `decoded` reads as English far better than `original` (the evidence a letter cipher was undone)."""
    new = words(decoded)
    if sum(len(w) > 2 for w in new) < MIN_WORDS or (gain := score(new)) < READS_AS_ENGLISH:
        return False
    return gain - score(words(original)) >= MARGIN
