"""The learned half of the injection check at work: where the rules found part of the evidence an attack needs, the
n-gram model (ngram_model.py, fitted by train_model.py, shipped in assets/guardrails) decides.

Why only there: alone, the model reads topic as much as intent and blocks too much ordinary text; a weak rule signal
alone is not enough either. Together, each covers the other's blind spot, and text with no signal at all (nearly
all of it) never reaches the model, so the check costs no more on a long document. The model is asked only about
a text the rules let through, so a block by the rules reads as before.

Text that is mostly Chinese is the exception: there the model also judges a text in which the rules found nothing.
The Chinese rules are fewer and Chinese attacks are worded more freely than English ones (no spaces to anchor a
phrase on), while the model reads a Chinese character n-gram as a word; measured on held-out Chinese text, it
stops far more attacks than the rules alone at close to the same false-block rate (see MODEL.md).

Both limits are fixed a priori, not fitted on the validation sets: half the rules' blocking weight, from a sign of an
attack (a weak sign alone, such as "in your reply", does not call the model), and the model's own threshold, set when
it was fitted so that at most 1 % of benign text it did not see reaches it (see train_model.BENIGN_QUANTILE)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import cache

from pipelines.core.guardrails.injection_rules import BLOCK_AT
from pipelines.core.guardrails.ngram_model import MODEL_DIR, NgramModel, WindowVerdict

PARTIAL_EVIDENCE = BLOCK_AT / 2  # the rules' weight in a window from which the model is asked
SIGNAL = "learned_model"  # how a finding names the model among its signals
CHINESE_SHARE = 0.5  # a text is "mostly Chinese" when at least this share of its letters and digits are Chinese
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_ASCII_NOT_ALNUM = bytes(c for c in range(128) if not chr(c).isalnum())
log = logging.getLogger(__name__)


@cache
def shipped_model() -> NgramModel | None:
    """The fitted model shipped with Stepwise; None (rules alone, said once in the log) if its files are missing."""
    if not (MODEL_DIR / "injection_model.npy").exists():
        log.warning("the learned injection model is missing from %s: the rules judge alone (make guard-model)", MODEL_DIR)
        return None
    return NgramModel.load(MODEL_DIR)


# Models standing in for the shipped one, innermost last; None: no model, the rules alone.
_stand_ins: list[NgramModel | None] = []


@contextmanager
def using(model: NgramModel | None) -> Iterator[None]:
    """Within this block the check asks `model` instead of the shipped one (a model fitted without a source, to
    judge that source); None: the rules alone."""
    _stand_ins.append(model)
    try:
        yield
    finally:
        _stand_ins.pop()


def rules_alone() -> AbstractContextManager[None]:
    """Within this block the check runs without the model (for measuring what the model adds)."""
    return using(None)


def mostly_chinese(text: str) -> bool:
    """Whether at least half of the letters and digits of `text` are Chinese characters (the model judges such a
    text even where the rules found nothing)."""
    # Asked of every text the rules let through, so counted in C: the ASCII letters and digits through bytes, the
    # rest (Chinese among it) one character at a time; a character-by-character count cost 3 ms per 64 KB.
    other = _ASCII_RUN.sub("", text)
    han = len(_HAN.findall(other))
    if not han:
        return False
    ascii_alnum = len(text.encode("ascii", "ignore").translate(None, _ASCII_NOT_ALNUM))
    return han >= CHINESE_SHARE * (ascii_alnum + sum(map(str.isalnum, other)))


def best_window(folded: str) -> WindowVerdict | None:
    """The model's reading of the folded text at the stricter of the two thresholds the fit set (for messages and
    for documents): its best window if that reaches it, else None (and None without a model). The stricter one for
    both, as a short document (an e-mail, a line of a resume) reads like a message, and documents were calibrated on
    long ones. The whole text, as the thresholds were set on whole texts: a lone sentence ("ignore the above list")
    scores higher than any text it is part of."""
    model = _stand_ins[-1] if _stand_ins else shipped_model()
    if model is None:
        return None
    verdict = model.best_window(folded)
    return verdict if verdict.score >= max(model.thresholds.values()) else None


def reads_as_attack(folded: str) -> bool:
    """Whether the model reads the folded text as an attack (see `best_window`)."""
    return best_window(folded) is not None
