"""An iCan session's language: from the first message (or chosen), switched only by a clear change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipelines.core.text import CJK_CHAR, LATIN_WORD, ZH_CHARS_PER_WORD

LANGUAGES = ("en", "zh")
# The small words a sentence is built with. They tell the language a message is written in from the names it
# mentions: an English sentence may name 北京大学, a Chinese one Python, Figma and SQL.
_GRAMMAR_ZH = frozenset("的了是我在和也很不有就都要这那吗呢吧把被给对从还想你他她们")
_GRAMMAR_EN = frozenset({
    "i", "i'm", "i've", "i'd", "me", "my", "we", "our", "you", "your", "the", "a", "an", "to", "and", "or", "but",
    "is", "am", "are", "was", "were", "be", "been", "have", "has", "had", "do", "does", "did", "don't", "in", "on",
    "at", "of", "for", "with", "from", "that", "this", "it", "as", "so", "not", "would", "can", "what", "how",
})


@dataclass(frozen=True)
class LanguageSignals:
    cjk: int  # Chinese characters
    latin_words: int
    grammar_zh: int  # occurrences of Chinese function characters
    grammar_en: int  # occurrences of English function words


def signals(text: str) -> LanguageSignals:
    words = [w.lower() for w in LATIN_WORD.findall(text or "")]
    cjk = CJK_CHAR.findall(text or "")
    return LanguageSignals(cjk=len(cjk), latin_words=len(words), grammar_zh=sum(c in _GRAMMAR_ZH for c in cjk),
                           grammar_en=sum(w in _GRAMMAR_EN for w in words))


def clear_language(text: str) -> str | None:
    """The language a message is clearly written in, or None when it is mixed, short, or only names and terms.

    Clearly: at least two function words of that language and twice as many as of the other one, and most of
    the message's words in it (a Chinese word is counted as two characters). One Chinese clause in an English
    message, a Chinese school's name or a list of tool names switches nothing."""
    s = signals(text)
    zh_words = s.cjk / ZH_CHARS_PER_WORD
    if s.grammar_zh >= 2 and s.grammar_zh >= 2 * s.grammar_en and zh_words > s.latin_words:
        return "zh"
    if s.grammar_en >= 2 and s.grammar_en >= 2 * s.grammar_zh and s.latin_words > zh_words:
        return "en"
    return None


def first_language(text: str) -> str:
    """A new session's language from the client's first message: the clear one, else the one its function
    words (then its words) lean to; a message with no Chinese at all is English."""
    clear = clear_language(text)
    if clear:
        return clear
    s = signals(text)
    if not s.cjk:
        return "en"
    if s.grammar_zh != s.grammar_en:
        return "zh" if s.grammar_zh > s.grammar_en else "en"
    return "zh" if s.cjk / ZH_CHARS_PER_WORD >= s.latin_words else "en"


def language_after(current: str | None, client_messages: Sequence[str]) -> str:
    """The session's language once the client's latest message is in: the one the session started with (from
    the first message, or chosen), switched only when a later message is clearly in the other language."""
    if current not in LANGUAGES:
        current = first_language(client_messages[0] if client_messages else "")
    if len(client_messages) < 2:
        return current
    return clear_language(client_messages[-1]) or current
