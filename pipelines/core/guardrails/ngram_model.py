"""The learned half of the injection check: a linear model over hashed character n-grams of folded text, scored
over sliding windows in numpy, with the phrases that weighed most as its explanation.

Why characters and not words: the same n-grams read English, German and Chinese (2–4 Chinese characters are the
words jieba would cut, without a dictionary pass over 64 KB), survive spacing and spelling games, and hash in a few
vectorised numpy passes, so a 64 KB document costs milliseconds. The model is fitted by `train_model.py` on public
corpora and shipped in assets/guardrails/ (see its data card); nothing is downloaded.

Scoring is exact for the model as trained: a window's features are its n-gram counts divided by the square root of
their total, so its score is the sum of its n-grams' weights over that root plus the bias, which prefix sums give
for every window at once."""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipelines.core.paths import ASSETS_DIR

MODEL_DIR = ASSETS_DIR / "guardrails"
NGRAMS = (1, 2, 3, 4, 5)
_MULT = np.uint64(0x100000001B3)        # FNV-64 prime: mixes one more character into an n-gram's hash
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: spreads the hash over the table's top bits
_WORD = re.compile(r"\w+", re.UNICODE)
_LATIN_WORD = re.compile(r"[a-z]+")


def ngram_hashes(codes: np.ndarray, bits: int) -> list[np.ndarray]:
    """For each n in NGRAMS, the table index of the n-gram starting at each position (len(codes) - n + 1 of them)."""
    out: list[np.ndarray] = []
    shift = np.uint64(64 - bits)
    h = np.zeros(0, dtype=np.uint64)
    for n in range(1, max(NGRAMS) + 1):
        if len(codes) < n:
            break
        h = codes[: len(codes) - n + 1].copy() if n == 1 else h[:-1] * _MULT + codes[n - 1:]
        if n in NGRAMS:
            out.append(_index(h ^ np.uint64(n * 0x51ED27), shift))
    return out


def _index(hashes: np.ndarray, shift: np.uint64) -> np.ndarray:
    return ((hashes * _GOLDEN) >> shift).astype(np.int64)


def word_features(folded: str, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """(positions, table indices) of the Latin words and word pairs of `folded`: phrases ("system prompt",
    "from now on") that character n-grams only see in pieces."""
    spans = [(m.start(), zlib.crc32(m.group().encode())) for m in _LATIN_WORD.finditer(folded)]
    if not spans:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    starts = np.fromiter((s for s, _ in spans), dtype=np.int64, count=len(spans))
    ids = np.fromiter((i for _, i in spans), dtype=np.uint64, count=len(spans))
    shift = np.uint64(64 - bits)
    pairs = ids[:-1] * _MULT + ids[1:]
    return (np.concatenate([starts, starts[:-1]]),
            np.concatenate([_index(ids ^ np.uint64(0xA11CE), shift), _index(pairs ^ np.uint64(0xB0B), shift)]))


def features(folded: str, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Every feature of `folded` as (position, table index), sorted by position: character n-grams where they start,
    words and word pairs where their first word starts."""
    hashes = ngram_hashes(code_points(folded), bits)
    positions = [np.arange(len(h), dtype=np.int64) for h in hashes]
    word_positions, word_indices = word_features(folded, bits)
    pos = np.concatenate([*positions, word_positions]) if positions else word_positions
    idx = np.concatenate([*hashes, word_indices]) if hashes else word_indices
    order = np.argsort(pos, kind="stable")
    return pos[order], idx[order]


def code_points(folded: str) -> np.ndarray:
    return np.frombuffer(folded.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)


def feature_rows(folded: str, bits: int, window: int, stride: int) -> list[tuple[np.ndarray, float]]:
    """The training form of `folded`: one (indices, scale) per window, as `scores` reads it (see module doc)."""
    pos, idx = features(folded, bits)
    rows = []
    for start, end in windows(len(folded), window, stride):
        lo, hi = np.searchsorted(pos, [start, end])
        if hi > lo:
            rows.append((idx[lo:hi], 1.0 / np.sqrt(hi - lo)))
    return rows


def windows(length: int, window: int, stride: int) -> list[tuple[int, int]]:
    """Start and end of each window over `length` characters; a short text is one window."""
    if length <= window:
        return [(0, length)]
    starts = list(range(0, length - window, stride)) + [length - window]
    return [(s, s + window) for s in dict.fromkeys(starts)]


@dataclass(frozen=True)
class WindowVerdict:
    score: float        # the model's logit for the highest-scoring window
    start: int          # where that window is in the folded text
    end: int
    phrases: tuple[str, ...]  # the words that weighed most towards an attack, for the finding's message


class NgramModel:
    """The fitted weights, their settings and the thresholds chosen on benign text for each source mode."""

    def __init__(self, weights: np.ndarray, card: dict) -> None:
        self.weights = weights.astype(np.float32)
        self.card = card
        self.bits, self.window, self.stride = int(card["bits"]), int(card["window"]), int(card["stride"])
        self.bias = float(card["bias"])
        self.thresholds: dict[str, float] = {k: float(v) for k, v in card["thresholds"].items()}

    @classmethod
    def load(cls, directory: Path = MODEL_DIR) -> NgramModel:
        card = json.loads((directory / "injection_model.json").read_text(encoding="utf-8"))
        weights = np.load(directory / "injection_model.npy", allow_pickle=False)
        if weights.shape != (1 << int(card["bits"]),):
            raise ValueError(f"the injection model's weights have shape {weights.shape}, its card says {card['bits']} bits")
        return cls(weights, card)

    def position_weights(self, folded: str) -> np.ndarray:
        """Each position's share of a window's score: the weights of the n-grams that start there."""
        pos, idx = features(folded, self.bits)
        return np.stack([np.bincount(pos, weights=self.weights[idx], minlength=len(folded)),
                         np.bincount(pos, minlength=len(folded)).astype(np.float64)])

    def best_window(self, folded: str) -> WindowVerdict:
        """The window of `folded` that reads most like an attack, with its logit and the phrases behind it."""
        if not folded.strip():
            return WindowVerdict(float("-inf"), 0, 0, ())
        share, counts = self.position_weights(folded)
        total = np.concatenate([[0.0], np.cumsum(share)])
        number = np.concatenate([[0.0], np.cumsum(counts)])
        spans = np.array(windows(len(folded), self.window, self.stride))
        sums, sizes = total[spans[:, 1]] - total[spans[:, 0]], number[spans[:, 1]] - number[spans[:, 0]]
        logits = sums / np.sqrt(np.maximum(sizes, 1.0)) + self.bias
        best = int(np.argmax(logits))
        start, end = (int(x) for x in spans[best])
        return WindowVerdict(float(logits[best]), start, end, _phrases(folded, share, start, end))

    def threshold(self, source: str) -> float:
        return self.thresholds.get(source, self.thresholds["user"])


def _phrases(folded: str, share: np.ndarray, start: int, end: int, most: int = 3) -> tuple[str, ...]:
    """The words (or runs of Chinese characters) in the window whose n-grams weigh most towards an attack."""
    scored = []
    for match in _WORD.finditer(folded, start, end):
        weight = float(share[match.start():match.end()].sum())
        if weight > 0:
            scored.append((weight, match.start(), match.group()[:24]))
    top = sorted(scored, reverse=True)[:most]
    return tuple(word for _, _, word in sorted(top, key=lambda item: item[1]))
