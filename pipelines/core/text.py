"""Language detection and small text helpers shared by the offline engines (Chinese and English)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

LANGUAGE_NAMES = {"zh": "Simplified Chinese", "en": "English"}  # a language code as prompts name it
CJK_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Chinese characters, for a regex character class
CJK_CHAR = re.compile(f"[{CJK_RANGES}]")  # a Chinese character


def has_cjk(text: str) -> bool:
    return bool(CJK_CHAR.search(text or ""))


def main_language(text: str) -> str:
    """"zh" when Chinese carries the text (a Chinese text names its tools and sources in English too), else "en":
    about four letters of English say what one Chinese character does."""
    cjk = len(CJK_CHAR.findall(text or ""))
    latin = len(re.findall(r"[A-Za-z]", text or ""))
    return "zh" if cjk and cjk * 4 >= latin else "en"


def detect_language(*texts: str) -> str:
    """'zh' when the client writes Chinese (any CJK character in the given texts), else 'en'."""
    return "zh" if any(has_cjk(t) for t in texts if t) else "en"


def join_items(items: Iterable[str], lang: str, limit: int | None = None) -> str:
    items = [i for i in items if i]
    if limit is not None:
        items = items[:limit]
    if not items:
        return "—"
    if lang == "zh":
        return "、".join(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Phrasebook:
    """Bilingual sentence templates: phrases[key] = (chinese, english)."""

    def __init__(self, phrases: Mapping[str, tuple[str, str]]) -> None:
        self._phrases = dict(phrases)

    def __call__(self, key: str, lang: str, **values: object) -> str:
        zh, en = self._phrases[key]
        return (zh if lang == "zh" else en).format(**values)


def clip(text: str, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
