"""Hybrid retrieval's parts: English/Chinese tokens for BM25 (bm25s, jieba), reciprocal-rank fusion, content words."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence

import bm25s
import jieba
import numpy as np

from pipelines.core.text import CJK_RANGES

jieba.setLogLevel(logging.WARNING)

_CJK = CJK_RANGES
# Numbers keep their decimals and percent signs: "405.1" and "9.8%" are what a question about figures looks for.
_RUN = re.compile(rf"[{_CJK}]+|\d+(?:[.,]\d+)*%?|[a-z\u00e0-\u024f][a-z0-9\u00e0-\u024f'+#-]*")
STOP_EN = frozenset(
    "a about above after again against all also am an and any are as at be because been before being below between both "
    "but by can could did do does doing down during each few for from further had has have having he her here hers him "
    "his how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out "
    "over own same she should so some such than that the their them then there these they this those through to too "
    "under until up us very was we were what when where which while who whom why will with would you your yours "
    "please tell give explain describe find show list compare summarise summarize report question answer documents "
    "document according regarding including".split())
STOP_ZH = frozenset("的 了 和 与 及 或 等 在 是 有 为 对 将 把 被 以 于 中 上 下 我 你 他 她 们 个 并 也 及其 以及 其中 "
                    "相关 进行 一个 一些 我们 通过 主要 什么 哪些 怎么 如何 为什么 多少 是否 请 请问 根据 文件 资料 "
                    "说明 介绍 分析 情况 方面 这个 那个 这些 那些 according".split())


def _stem(word: str) -> str:
    # Light on purpose: plurals and -ing/-ed meet their base form; names and figures stay whole.
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith(("ss", "us", "is")):
            return word[: -len(suffix)] + keep
    return word


class Tokenizer:
    """Words for BM25 and overlap: English lower-cased, stop-worded and stemmed; Chinese cut by jieba's search mode,
    so a long compound ("电动公交车") also yields its parts ("电动", "公交")."""

    def __init__(self) -> None:
        self._jieba = jieba.Tokenizer()  # our own: words added elsewhere must not change these cuts
        self._lock = threading.Lock()
        self._ready = False

    def _cut(self, run: str) -> list[str]:
        if not self._ready:
            with self._lock:
                if not self._ready:
                    self._jieba.initialize()
                    self._ready = True
        return [w for w in self._jieba.cut_for_search(run, HMM=False) if w not in STOP_ZH and (len(w) > 1 or
                                                                                                run == w)]

    def __call__(self, text: str) -> list[str]:
        tokens: list[str] = []
        for match in _RUN.finditer((text or "").lower()):
            token = match.group()
            if token[0] >= "\u3400":
                tokens += self._cut(token)
            elif token[0].isdigit():
                tokens.append(token.replace(",", "") if re.fullmatch(r"\d{1,3}(,\d{3})+%?", token) else token)
            elif token.endswith(("'s", "s'")) and len(token) > 3:  # a possessive: "today's" is "today"
                tokens.append(_stem(token[:-2] if token.endswith("'s") else token[:-1]))
            elif "-" in token.strip("-"):
                # "night-shift", "non-compliance": the parts are what another text (or the glossary) spells apart;
                # the compound itself is kept as well, so an exact match still ranks first.
                parts = [_stem(p) for p in token.strip("'-").split("-") if p and p not in STOP_EN]
                tokens += parts + ([token.strip("'-")] if len(parts) > 1 else [])
            elif token not in STOP_EN:
                tokens.append(_stem(token.strip("'-")))
        return [t for t in tokens if t]


TOKENIZE = Tokenizer()


def content_words(text: str) -> set[str]:
    return set(TOKENIZE(text))


class Bm25Index:
    """BM25 over a fixed list of passages (bm25s: numpy scoring over a sparse matrix)."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str]) -> None:
        self.ids = list(ids)
        tokens = [TOKENIZE(t) for t in texts]
        self._bm25: bm25s.BM25 | None = None
        if any(tokens):  # bm25s cannot index a corpus without a single word
            self._bm25 = bm25s.BM25()
            self._bm25.index(tokens, show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        if self._bm25 is None:
            return np.zeros(len(self.ids))
        words = [w for w in TOKENIZE(query) if w in self._bm25.vocab_dict]
        if not words:
            return np.zeros(len(self.ids))
        return np.asarray(self._bm25.get_scores(words), dtype=float)

    def search(self, query: str, k: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """The k best (id, score) with a positive score, among `allowed` ids when given."""
        scores = self.scores(query)
        order = np.argsort(-scores, kind="stable")
        out: list[tuple[str, float]] = []
        for i in order:
            if scores[i] <= 0 or len(out) >= k:
                break
            if allowed is None or self.ids[i] in allowed:
                out.append((self.ids[i], float(scores[i])))
        return out


def fuse(rankings: Sequence[Sequence[str]], k: int = 60, weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion (Cormack et al.): each list gives 1/(k + rank); robust to the lists' different scales."""
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights or [1.0] * len(rankings)):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])
