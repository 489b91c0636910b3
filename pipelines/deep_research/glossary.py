"""Cross-language retrieval offline: an English–Chinese vocabulary (assets/research) that adds each query word's
equivalents in the other language, so an English question finds a Chinese passage and the reverse."""

from __future__ import annotations

from functools import cache

from pipelines.core.paths import ASSETS_DIR
from pipelines.core.text import CJK_CHAR
from pipelines.deep_research.retrieval import TOKENIZE

GLOSSARY_FILE = ASSETS_DIR / "research" / "glossary_en_zh.tsv"


@cache
def _tables() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(English token → Chinese terms, Chinese term → English tokens)."""
    en_zh: dict[str, list[str]] = {}
    zh_en: dict[str, list[str]] = {}
    for line in GLOSSARY_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or "\t" not in line:
            continue
        english, chinese = line.split("\t", 1)
        tokens = TOKENIZE(english)
        terms = [t.strip() for t in chinese.split("|") if t.strip() and CJK_CHAR.search(t)]
        if len(tokens) != 1 or not terms:
            continue
        en_zh.setdefault(tokens[0], []).extend(terms)
        for term in terms:
            zh_en.setdefault(term, []).append(tokens[0])
    return ({k: tuple(dict.fromkeys(v)) for k, v in en_zh.items()},
            {k: tuple(dict.fromkeys(v)) for k, v in zh_en.items()})


def equivalents(word: str) -> tuple[str, ...]:
    """The other language's words for a query token (Chinese terms for an English token, English tokens for a
    Chinese one)."""
    en_zh, zh_en = _tables()
    return zh_en.get(word, ()) if CJK_CHAR.search(word) else en_zh.get(word, ())


def chinese_terms(text: str) -> list[str]:
    """The glossary's Chinese terms found in a text, longest first where they overlap."""
    _, zh_en = _tables()
    found, taken = [], [False] * len(text)
    for term in sorted(zh_en, key=len, reverse=True):
        start = text.find(term)
        while start >= 0:
            if not any(taken[start:start + len(term)]):
                found.append(term)
                taken[start:start + len(term)] = [True] * len(term)
            start = text.find(term, start + 1)
    return found


def expand(text: str) -> str:
    """The text with its words' equivalents in the other language appended (a search query, not for display)."""
    extra: list[str] = []
    for word in TOKENIZE(text):
        extra += equivalents(word)
    for term in chinese_terms(text):
        extra += equivalents(term)
    extra = [w for w in dict.fromkeys(extra) if w not in text]
    return f"{text} {' '.join(extra)}" if extra else text
