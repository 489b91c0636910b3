"""Language detection and small text helpers shared by the offline engines (Chinese and English)."""

from __future__ import annotations

import re
import unicodedata
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


LATIN_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")  # an English word
ZH_CHARS_PER_WORD = 2  # Chinese has no spaces: its words are counted as two characters each
# What is quoted in a message ("…", “…”, 「…」, 《…》) is a name or a title the writer cites, not their own words.
QUOTED = re.compile(r'"[^"\n]{0,200}"|“[^”\n]{0,200}”|「[^」\n]{0,200}」|『[^』\n]{0,200}』|《[^》\n]{0,200}》')
# Addresses, links, ids and masked values (J001, C012, 2024, [EMAIL_1]) carry no language.
_NOT_WORDS = re.compile(r"\S+@\S+|https?://\S+|(?<![A-Za-z0-9_])[A-Za-z_]*\d[A-Za-z0-9_-]*")


def words_by_script(text: str) -> tuple[int, float]:
    """(English words, Chinese words) in `text`."""
    return len(LATIN_WORD.findall(text or "")), len(CJK_CHAR.findall(text or "")) / ZH_CHARS_PER_WORD


def own_words_language(text: str, names: Iterable[str] = ()) -> str:
    """The language a message is written in, judged on the writer's own words: the names it mentions (people, jobs,
    places: `names`) and what it quotes are left out, addresses and ids do not count, and the script that carries
    more of the words left wins ("Send 张伟 the offer" is English, "给 Kevin Zhou 发邮件" Chinese). A message with
    nothing left to judge (only a name) falls back to main_language of the whole text."""
    rest = QUOTED.sub(" ", text or "")
    for name in sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True):
        if name in rest:  # a Latin name as a whole word, with its capitals ("Will" the person, not "will")
            pattern = re.escape(name) if CJK_CHAR.search(name) else rf"(?<![\w]){re.escape(name)}(?![\w])"
            rest = re.sub(pattern, " ", rest)
    latin, chinese = words_by_script(_NOT_WORDS.sub(" ", rest))
    if not latin and not chinese:
        return main_language(text)
    return "zh" if chinese >= latin else "en"


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


def one_line_name(name: str) -> str:
    """A person's name as the data keeps it: compatibility forms folded (full-width letters, ligatures), every run
    of white space (line breaks, tabs, U+2028, no-break spaces) one space, no ends. The import stores names so and
    the checks compare names so, then a name written across lines in a file is the same person in a reply."""
    return " ".join(unicodedata.normalize("NFKC", str(name or "")).split())


def name_key(name: str) -> str:
    """What two names are compared by: one_line_name, case folded."""
    return one_line_name(name).casefold()
