"""Text normalisation for matching: one canonical form that obfuscations (invisible characters, full-width
letters, look-alike letters, spaced-out words) cannot hide from, and a sentence splitter for long texts."""

from __future__ import annotations

import re
import unicodedata

# Invisible and format characters that an attacker inserts inside words to break matching: zero-width
# spaces and joiners, word joiner and invisible operators, BOM, soft hyphen, bidi embeddings/isolates,
# Mongolian vowel separator, combining grapheme joiner, variation selectors and the Unicode tags block.
_INVISIBLE_RANGES = [(0x200B, 0x200F), (0x2060, 0x2064), (0x2066, 0x206F), (0x202A, 0x202E), (0xFEFF, 0xFEFF),
                     (0x00AD, 0x00AD), (0x061C, 0x061C), (0x180E, 0x180E), (0x034F, 0x034F), (0xFE00, 0xFE0F),
                     (0xE0000, 0xE007F), (0x115F, 0x1160), (0x3164, 0x3164), (0xFFA0, 0xFFA0)]
_INVISIBLE = {cp: None for lo, hi in _INVISIBLE_RANGES for cp in range(lo, hi + 1)}
_INVISIBLE_RE = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _INVISIBLE_RANGES) + "]")

# Letters from other scripts that look like Latin ones (Cyrillic, Greek, a few Latin variants). NFKC does
# not fold them because they are different letters; for matching they must be the same.
_HOMOGLYPHS = str.maketrans({
    **dict(zip("аеорсухіѕјԁһӏԛԝвкмнтгпьʏ", "aeopcyxisjdhlqwbkmhtrnbv")),
    **dict(zip("АВЕКМНОРСТХУІЅЈԌԁ", "abekmhopctxyisjgd")),
    **dict(zip("οαειкνρτυχκβηωμΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "oaeikvptuxkbnwuabezhikmnoptyx")),
    **dict(zip("ıȷɡɑℓ", "ijgal")),
    "\u3000": " ", "\u00a0": " ",
})

_LOOK_ALIKE = re.compile("[" + re.escape("".join(chr(c) for c in _HOMOGLYPHS)) + "]")
# Whitespace other than a newline that is not already one plain space: most of a text's spaces need no rewrite.
_SPACES = re.compile(r"[^\S\n]{2,}|[^\S\n ]")
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"
_SPACE_IN_CJK = re.compile(rf"(?<=[{_CJK}])[^\S\n]+(?=[{_CJK}])")
# Four or more single letters split by spaces, dots, dashes, underscores or stars: "i g n o r e", "s.y.s.t.e.m".
_SPACED_LETTERS = re.compile(r"(?<![\w])(?:[a-z][ \t.\-_*·•/|+]{1,3}){3,}[a-z](?![\w])")
_SEPARATORS = re.compile(r"[ \t.\-_*·•/|+]+")
# Digits and symbols used as letters inside a word ("1gn0re", "pr0mpt", "a11"): only words that mix both.
_LEET_WORD = re.compile(r"(?<![\w@.])(?=[0-9@$!|]*+[a-z])(?=[a-z]*+[0-9@$!|])[a-z0-9@$!|]{3,}(?![\w@])")
_LEET = str.maketrans("0134579@$!|8", "oieastgasiib")

# Words an attack is written with. Spaced-out letters without word gaps ("i g n o r e a l l") are split back into
# these words, and a digit-for-letter word ("1nstruct10ns") is only read as a word it decodes to from this list, so
# that "python3", "b2b" or "k8s" stay as they are.
VOCABULARY = frozenset("""
a about above act acting activate admin administrator after ai all also an and answer answers any anything are as
assistant at be been before below bot bypass can candidate candidates chat chatgpt code command commands confidential
configuration content context dan data database delete developer directions disable disregard do does dump earlier email
enable ethics every everything evil export filter filters follow following for forget forward from full give grandma
guidelines hack hacked hacker hidden i ignore ignoring in initial instruction instructions is it jailbreak jailbroken key
keys leak limits list me message messages mode model must my new no not now of on only or original output override
password passwords persona pii policy previous print prior prompt prompts pwned repeat reply respond restrictions reveal
role rules safety say secret secrets send show system tell text that the then this to token tokens unfiltered
unrestricted upload user verbatim what with without words write you your directives disclose display uncensored
pretend roleplay nothing earlier ignored forgotten instructed guidance programming settings jailbroken
""".split())
_MAX_SEGMENT = 40


def _segment(joined: str) -> str:
    """`joined` split into vocabulary words ("ignoreallprevious" → "ignore all previous"), fewest words first; the
    joined string itself when it cannot be split completely."""
    if joined in VOCABULARY or len(joined) > _MAX_SEGMENT * 4:
        return joined
    best: list[list[str] | None] = [[]] + [None] * len(joined)
    for end in range(1, len(joined) + 1):
        for start in range(max(0, end - 16), end):
            head, word = best[start], joined[start:end]
            if head is not None and word in VOCABULARY and (best[end] is None or len(head) + 1 < len(best[end])):
                best[end] = [*head, word]
    return " ".join(best[-1]) if best[-1] else joined


def _join_spaced(match: re.Match) -> str:
    """Spaced-out letters joined: a wider gap than the usual one between letters separates words."""
    run = match.group()
    gaps = [len(g) for g in _SEPARATORS.findall(run)]
    narrow = min(gaps)
    if max(gaps) > narrow:
        words = re.split(rf"[ \t.\-_*·•/|+]{{{narrow + 1},}}", run)
        return " ".join(_SEPARATORS.sub("", w) for w in words if w)
    return _segment(_SEPARATORS.sub("", run))


# Words written as chains ("ignore-all-previous-instructions", "ignore_all_previous"): three or more, so that
# "built-in" and "pre-screen" stay one word. Possessive runs here and below: a word that fails is not tried again
# at every shorter length.
_CHAIN = re.compile(r"(?<![\w-])[a-z]++(?:[-_][a-z]++){2,}(?![\w-])")
# Scrambled middles ("ignroe all prevoius instrucitons" still reads as the words): a long word that is not in the
# vocabulary but has a vocabulary word's first and last letter and the same letters in between is read as it.
_SCRAMBLE_KEY = {}
for _word in sorted(VOCABULARY):
    if len(_word) >= 5:
        _SCRAMBLE_KEY.setdefault((_word[0], _word[-1], "".join(sorted(_word[1:-1]))), _word)
_SCRAMBLE_SHAPE = {(first, last, len(middle) + 2) for first, last, middle in _SCRAMBLE_KEY}  # a cheap first test
_LONG_WORD = re.compile(r"(?<![\w@.])[a-z]{5,}+(?![\w@])")


def _unscramble_word(word: str) -> str:
    if word in VOCABULARY or (word[0], word[-1], len(word)) not in _SCRAMBLE_SHAPE:
        return word
    return _SCRAMBLE_KEY.get((word[0], word[-1], "".join(sorted(word[1:-1]))), word)


def _decode_leet(match: re.Match) -> str:
    word = match.group()
    plain = word.translate(_LEET)
    if plain in VOCABULARY:
        return plain
    ones = [i for i, c in enumerate(word) if c in "1!|"]
    if 0 < len(ones) <= 4:  # "1" reads as i or l: try each
        for mask in range(1, 1 << len(ones)):
            letters = list(plain)
            for bit, i in enumerate(ones):
                if mask >> bit & 1:
                    letters[i] = "l"
            if (candidate := "".join(letters)) in VOCABULARY:
                return candidate
    return word


def strip_invisible(text: str) -> str:
    return text.translate(_INVISIBLE) if _INVISIBLE_RE.search(text) else text


def fold(text: str) -> str:
    """NFKC, invisible characters removed, look-alike letters folded to ASCII, case folded; newlines kept."""
    text = unicodedata.normalize("NFKC", strip_invisible(text or ""))
    if _LOOK_ALIKE.search(text):  # translating with a table costs more than looking for its letters
        text = text.translate(_HOMOGLYPHS)
    return _SPACES.sub(" ", text.casefold())


def normalize(text: str) -> str:
    """The canonical form for matching: `fold` with every run of whitespace (newlines too) made one space."""
    return " ".join(fold(text).split())


def compact(normalized: str) -> str:
    """A second matching form of folded text: spaces between Chinese characters removed, spaced-out letters joined
    ("i g n o r e  a l l" → "ignore all"), hyphen or underscore chains split, digits inside words read as letters
    ("1gn0re" → "ignore") and scrambled attack words read back ("ignroe" → "ignore")."""
    text = _SPACE_IN_CJK.sub("", normalized)
    text = _SPACED_LETTERS.sub(_join_spaced, text)
    text = _CHAIN.sub(lambda m: re.sub(r"[-_]", " ", m.group()), text)
    text = _LEET_WORD.sub(_decode_leet, text)
    # Scrambled words are rare: find the distinct long words once, and rewrite only if one of them reads back.
    changed = {word: plain for word in set(_LONG_WORD.findall(text)) if (plain := _unscramble_word(word)) != word}
    return _LONG_WORD.sub(lambda m: changed.get(m.group(), m.group()), text) if changed else text


# "![" opens a Markdown image: its "!" ends no sentence.
_SENTENCE_END = re.compile(r"[。！？；;\n…]+|(?<=[.!?])(?:(?=\s|$)|(?<=\?)(?=\S)|(?<=!)(?=[^\s\[]))")
_SOFT_BREAK = re.compile(r"[,，、:：]\s*")
MAX_SENTENCE = 300  # characters; longer runs without punctuation are cut so each window stays cheap to scan


# An address runs to the next space, quote or parenthesis (its query may hold "[QUERY]" or "{data}"); its "?" and
# ";" end no sentence.
_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>\"'()（）【】「」]+")


def _split_outside_urls(text: str) -> list[str]:
    """`_SENTENCE_END.split(text)`, except at sentence ends that fall inside a web address."""
    if "://" not in text:
        return _SENTENCE_END.split(text)
    urls = [m.span() for m in _URL.finditer(text)]
    parts, start, u = [], 0, 0
    for end in _SENTENCE_END.finditer(text):
        while u < len(urls) and urls[u][1] <= end.start():
            u += 1
        if u < len(urls) and urls[u][0] < end.start():
            continue  # inside this address
        parts.append(text[start:end.start()])
        start = end.end()
    parts.append(text[start:])
    return parts


def sentences(text: str, limit: int = MAX_SENTENCE) -> list[str]:
    """The sentences of `text` (split at . ! ? 。！？；; newlines and ellipses), stripped and non-empty; a
    sentence longer than `limit` is cut at commas or spaces into pieces no longer than `limit`."""
    out: list[str] = []
    for part in _split_outside_urls(text or ""):
        part = part.strip()
        if not part or not any(c.isalnum() for c in part):
            continue  # nothing but punctuation ("!!!" after an exclamation)
        if len(part) <= limit:
            out.append(part)
        else:
            out.extend(_cut(part, limit))
    return out


def _cut(part: str, limit: int) -> list[str]:
    pieces, start = [], 0
    while len(part) - start > limit:
        window = part[start:start + limit]
        breaks = [m.end() for m in _SOFT_BREAK.finditer(window)] or [i + 1 for i, c in enumerate(window) if c.isspace()]
        end = start + (breaks[-1] if breaks and breaks[-1] > limit // 3 else limit)
        pieces.append(part[start:end].strip())
        start = end
    pieces.append(part[start:].strip())
    return [p for p in pieces if p]
