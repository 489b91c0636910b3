"""Encoded text a model can read but a guard would miss (base16/32/64/85, hex, quoted-printable, URL and HTML escapes,
Unicode tags, ROT13, Atbash, Morse, leetspeak), decoded so it can be judged; each decoder fires only on evidence."""

from __future__ import annotations

import base64
import binascii
import html
import itertools
import quopri
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import unquote_plus

from pipelines.core.guardrails import language


@dataclass(frozen=True)
class Decoded:
    names: tuple[str, ...]   # the decodings applied, outermost first ("base64", "hex")
    start: int               # the encoded span in the text it was found in
    end: int
    text: str

    @property
    def how(self) -> str:
        """The decoding as a finding names it: "base64-encoded text", "hex-encoded text inside base64-encoded text"."""
        return " inside ".join(_PHRASES.get(name, f"{name}-encoded text") for name in reversed(self.names))


_PHRASES = {"Unicode-tag": "invisible Unicode tag characters", "leetspeak": "leetspeak", "HTML-entity": "HTML entities",
            "URL": "URL-escaped text", "quoted-printable": "quoted-printable text", "Morse": "Morse code"}


MIN_DECODED = 8  # characters: shorter payloads hold no instruction worth the cost


def readable(text: str) -> bool:
    """Decoded bytes that are text: printable, mostly letters or spaces, and with words in it (a hash, a UUID or an
    image decodes to something else)."""
    if len(text.strip()) < MIN_DECODED:
        return False
    printable = sum(c.isprintable() or c in "\n\t\r" for c in text)
    letters = sum(c.isalpha() or c.isspace() for c in text)
    return printable >= 0.97 * len(text) and letters >= 0.7 * len(text) and (" " in text or not text.isascii())


def _text(raw: bytes) -> str | None:
    """Decoded bytes that are readable text, or one unbroken run of printable ASCII that may be encoded once more
    (base64 of hex; kept only if it decodes again, see `decoded_variants`)."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if readable(decoded) or (len(decoded) >= 16 and decoded.isascii() and decoded.isprintable() and " " not in decoded):
        return decoded
    return None


# --- base-N: one pass finds long runs of printable ASCII; each family's pattern then runs inside those runs only ---

_TOKEN = re.compile(r"[!-~]{16,}")
# Codes written with separators (hex bytes or Morse letters split by spaces, "0x49, 0x67"): one pass for both.
_SPACED = re.compile(r"(?<![0-9A-Za-z.\-])(?:0x|\\x)?(?:[0-9A-Fa-f]{2}|[.\-·•–—_]{1,7})"
                     r"(?:[ \t]*[ \t/|:,][ \t]*(?:0x|\\x)?(?:[0-9A-Fa-f]{2}|[.\-·•–—_]{1,7})){7,}(?![0-9A-Za-z])")
_HEX = re.compile(r"(?:\\x[0-9A-Fa-f]{2}){6,}|(?:0x[0-9A-Fa-f]{2},?){6,}|(?<![0-9A-Za-z])[0-9A-Fa-f]{16,}(?![0-9A-Za-z])")
_HEX_SPACED = re.compile(r"(?:(?:0x|\\x)?[0-9A-Fa-f]{2}[ \t:,]*)+")
_BASE32 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9+/=])")
# Base64 (standard or URL-safe); lines of a wrapped block are joined below.
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_ASCII85 = re.compile(r"<~[!-uz\s]{5,}~>|(?<![!-~])[!-uz]{20,}(?![!-~])")
_B85 = re.compile(r"(?<![!-~])[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{20,}(?![!-~])")
_A85_MARK = re.compile(r"[!-/:-@\[-`]")      # ascii85 of text always has punctuation; a word or base64 has little
_HEX_DIGITS = re.compile(r"0x|\\x|[^0-9A-Fa-f]")


def _hex(run: str) -> bytes:
    return binascii.unhexlify(_HEX_DIGITS.sub("", run))


def _base32(run: str) -> bytes:
    run = run.rstrip("=")
    return base64.b32decode(run + "=" * (-len(run) % 8))


def _base64(run: str) -> bytes:
    run = re.sub(r"\s+", "", run)
    if "-" in run or "_" in run:
        run = run.translate(str.maketrans("-_", "+/"))
    return base64.b64decode(run + "=" * (-len(run) % 4), validate=True)


def _looks_base64(run: str) -> bool:
    """Mixed case and a digit or symbol: a long word or CamelCase name is not base64."""
    return (any(c.isupper() for c in run) and any(c.islower() for c in run)
            and any(c.isdigit() or c in "+/=-_" for c in run))


def _ascii85(run: str) -> bytes:
    if run.startswith("<~"):
        return base64.a85decode(re.sub(r"\s+", "", run), adobe=True)
    return base64.a85decode(run)


def _wrapped(text: str, runs: list[re.Match]) -> Iterator[tuple[int, int]]:
    """Spans of base64 runs, with the lines of a wrapped block (lines of one length, a multiple of 4) joined."""
    i = 0
    while i < len(runs):
        start, end, j = runs[i].start(), runs[i].end(), i
        while (j + 1 < len(runs) and len(runs[j].group()) % 4 == 0 and len(runs[j].group()) >= 40
               and not runs[j].group().endswith("=") and text[runs[j].end():runs[j + 1].start()].strip() == ""
               and text.count("\n", runs[j].end(), runs[j + 1].start()) == 1):
            j += 1
            end = runs[j].end()
        yield start, end
        if j > i:  # a wrapped block also yields its lines, in case the lines were not one block
            for k in range(i, j + 1):
                yield runs[k].start(), runs[k].end()
        i = j + 1


Codec = tuple[str, re.Pattern, Callable[[str], bytes], Callable[[str], bool]]
_CODECS: list[Codec] = [
    ("hex", _HEX, _hex, lambda run: True),
    ("base32", _BASE32, _base32, lambda run: any(c.isdigit() for c in run)),
    ("ascii85", _ASCII85, _ascii85, lambda run: run.startswith("<~") or len(_A85_MARK.findall(run)) >= 3),
    ("base85", _B85, base64.b85decode, lambda run: len(_A85_MARK.findall(run)) >= 3),
]


def _decode(name: str, decode: Callable[[str], bytes], text: str, start: int, end: int) -> Iterator[Decoded]:
    try:
        plain = _text(decode(text[start:end].strip()))
    except (ValueError, binascii.Error):
        return
    if plain:
        yield Decoded((name,), start, end, plain)


def _base_n(text: str, tokens: list[re.Match]) -> Iterator[Decoded]:
    runs: list[re.Match] = []
    for token in tokens:
        for name, pattern, decode, evidence in _CODECS:
            for match in pattern.finditer(text, token.start(), token.end()):
                if evidence(match.group()):
                    yield from _decode(name, decode, text, match.start(), match.end())
        runs += [m for m in _BASE64.finditer(text, token.start(), token.end()) if _looks_base64(m.group())]
    if "<~" in text:  # ascii85 in Adobe's frame may be wrapped over lines
        for match in _ASCII85.finditer(text):
            if match.group().startswith("<~") and "\n" in match.group():
                yield from _decode("ascii85", _ascii85, text, match.start(), match.end())
    for match in _SPACED.finditer(text):
        if _HEX_SPACED.fullmatch(match.group()):
            yield from _decode("hex", _hex, text, match.start(), match.end())
        else:
            yield from _morse(text, match)
    for start, end in _wrapped(text, runs):
        try:
            plain = _text(_base64(text[start:end]))
        except (ValueError, binascii.Error):
            continue
        if plain:
            yield Decoded(("base64",), start, end, plain)


# --- escapes: dense clusters of them, decoded where they stand ----------------------------------------------------

_QP = re.compile(r"=(?:[0-9A-F]{2}|\r?\n)")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_TAGS = re.compile("[\U000E0000-\U000E007F]+")


def _clusters(pattern: re.Pattern, text: str, gap: int, least: int) -> Iterator[tuple[int, int]]:
    """Spans holding at least `least` escapes, each within `gap` characters of the previous one."""
    group: list[re.Match] = []
    for match in pattern.finditer(text):
        if group and match.start() - group[-1].end() > gap:
            if len(group) >= least:
                yield group[0].start(), group[-1].end()
            group = []
        group.append(match)
    if len(group) >= least:
        yield group[0].start(), group[-1].end()


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    """The span grown to the whitespace around it, so a word half-escaped is decoded whole."""
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def _quoted_printable(span: str) -> str | None:
    try:
        return _text(quopri.decodestring(span.encode("ascii")))
    except ValueError:
        return None


def _escapes(text: str) -> Iterator[Decoded]:
    families = [("quoted-printable", _QP, 12, 3, _quoted_printable, False),
                ("URL", _PERCENT, 12, 3, lambda s: unquote_plus(s, errors="strict"), False),
                ("HTML-entity", _ENTITY, 8, 4, html.unescape, True)]
    for name, pattern, gap, least, decode, spaced in families:
        if not pattern.search(text):
            continue
        for start, end in _clusters(pattern, text, gap, least):
            if not spaced:
                start, end = _widen(text, start, end)
            try:
                plain = decode(text[start:end])
            except (UnicodeDecodeError, ValueError):
                continue
            if plain and plain != text[start:end] and readable(plain):
                yield Decoded((name,), start, end, plain)
    for match in () if text.isascii() else _TAGS.finditer(text):
        plain = "".join(chr(ord(c) - 0xE0000) for c in match.group())
        if plain.strip():  # hidden from the reader: no length or language evidence needed
            yield Decoded(("Unicode-tag",), match.start(), match.end(), plain)


# --- letter ciphers: only where the decoded words read as English far better than the original ones --------------

_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ROT13 = str.maketrans(_LOWER + _LOWER.upper(), _LOWER[13:] + _LOWER[:13] + (_LOWER[13:] + _LOWER[:13]).upper())
_ATBASH = str.maketrans(_LOWER + _LOWER.upper(), _LOWER[::-1] + _LOWER[::-1].upper())
_LEET = str.maketrans("013457@$!|", "oieastasil")
_LEET_L = str.maketrans("1", "l")  # "1" stands for i or l: the reading that is a word wins
_LEET_WORD = re.compile(r"(?<![\w.])(?=[A-Za-z0-9@$!|]*[A-Za-z])(?=[A-Za-z0-9@$!|]*[0-9@$!|])[A-Za-z0-9@$!|]{3,}")
_LEET_HINT = re.compile(r"[A-Za-z][0-9@$|]+[A-Za-z]")  # a digit or symbol inside a word: the one-pass pre-screen
# Cipher text is judged a clause at a time, so that a plain lead-in ("What does this mean?") does not hide it; only
# the clauses around a word that means something once deciphered are tried.
_CLAUSE_ENDS = "\n.!?:;"
CIPHER_WORDS = 2     # distinct words that only mean something once deciphered before a text's clauses are tried
MAX_CLUES = 64       # clues followed per cipher (bounds the cost of a long text)


CLAUSE_BLOCK = 400   # characters: a clause longer than this (a run without punctuation) is judged a block at a time


def _clause_at(text: str, pos: int) -> tuple[int, int]:
    """The clause around `pos`, or for a long one the block of it that holds `pos` (cut between words)."""
    start = max(text.rfind(c, 0, pos) for c in _CLAUSE_ENDS) + 1
    end = min((e for c in _CLAUSE_ENDS if (e := text.find(c, pos)) >= 0), default=len(text))
    if end - start <= CLAUSE_BLOCK:
        return start, end
    block = start + (pos - start) // CLAUSE_BLOCK * CLAUSE_BLOCK
    stop = min(end, block + CLAUSE_BLOCK)
    space = text.rfind(" ", max(start, block - 40), block)
    after = text.find(" ", stop, min(end, stop + 40))
    return (space + 1 if space >= 0 else block), (after if after >= 0 else stop)


def _deciphered(text: str, name: str, decode: Callable[[str], str], clues: list[int]) -> Iterator[Decoded]:
    """Runs of clauses around the clues that read far better deciphered (clauses with nothing but punctuation or
    spaces between them join one run), each run one variant."""
    clauses = sorted({_clause_at(text, pos) for pos in clues[:MAX_CLUES]})
    good = [(a, b) for a, b in clauses if language.reads_better(text[a:b], decode(text[a:b]))]
    while good:
        start, end = good.pop(0)
        while good and not any(c.isalnum() for c in text[end:good[0][0]]):
            end = good.pop(0)[1]
        start += len(text[start:end]) - len(text[start:end].lstrip())
        yield Decoded((name,), start, end, decode(text[start:end]).rstrip())


def _clues(lower: str, unknown: list[str], table: dict[int, str]) -> list[int]:
    """Where the text has words (three letters or more) that are no words but turn into words under the cipher."""
    counts = language.lexicon().counts
    # One translate over all the words: a call per word cost more than the rest of the cipher search.
    plains = "\n".join(unknown).translate(table).split("\n") if unknown else []
    found = {w for w, plain in zip(unknown, plains, strict=True) if plain in counts}
    if len(found) < CIPHER_WORDS:
        return []
    out: list[int] = []
    for word in sorted(found)[:MAX_CLUES]:
        pos = lower.find(word)
        while pos >= 0 and len(out) < 4 * MAX_CLUES:
            if not (lower[pos - 1:pos].isalpha() or lower[pos + len(word):pos + len(word) + 1].isalpha()):
                out.append(pos)
            pos = lower.find(word, pos + len(word))
    return sorted(out)


def _ciphers(text: str) -> Iterator[Decoded]:
    lower = text.lower()
    if len(lower) != len(text):  # a few letters lower-case to two characters: keep positions true
        lower = text
    counts = language.lexicon().counts
    unknown = [w for w in set(language.words(lower)) if len(w) > 2 and w not in counts]
    for name, table in (("ROT13", _ROT13), ("Atbash", _ATBASH)):
        if clues := _clues(lower, unknown, table):
            yield from _deciphered(text, name, lambda part, table=table: part.translate(table), clues)
    leet = [m.start() for m in _LEET_HINT.finditer(text)]
    if len(leet) >= 2:
        yield from _deciphered(text, "leetspeak", lambda part: _LEET_WORD.sub(_unleet, part), leet)


def _unleet(match: re.Match) -> str:
    word = match.group()
    plain = word.translate(_LEET)
    if "1" in word and plain.lower() not in language.lexicon().counts:
        other = word.translate(_LEET_L).translate(_LEET)
        return other if other.lower() in language.lexicon().counts else plain
    return plain


_MORSE_CODE = {
    ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h", "..": "i",
    ".---": "j", "-.-": "k", ".-..": "l", "--": "m", "-.": "n", "---": "o", ".--.": "p", "--.-": "q", ".-.": "r",
    "...": "s", "-": "t", "..-": "u", "...-": "v", ".--": "w", "-..-": "x", "-.--": "y", "--..": "z",
    "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4", ".....": "5", "-....": "6", "--...": "7",
    "---..": "8", "----.": "9", ".-.-.-": ".", "--..--": ",", "..--..": "?", ".----.": "'", "-.-.--": "!",
    "-..-.": "/", ".-..-.": '"', "---...": ":", "-...-": "=", ".-.-.": "+", "-....-": "-", ".--.-.": "@",
}
_MORSE_WORD_GAP = re.compile(r"\s*[/|]\s*|\s{2,}")
_MORSE_SYMBOLS = str.maketrans("·•–—_", "..---")


def _morse(text: str, match: re.Match) -> Iterator[Decoded]:
    """Morse letters split by spaces, words by a slash, a bar or a wider gap; only where the letters read as words."""
    run = match.group().translate(_MORSE_SYMBOLS)
    if "." in run and "-" in run and len(set(run.split()) - {"/", "|"}) >= 4 and not set(run) - set(".-/| \t"):
        out = ["".join(_MORSE_CODE.get(code, "\0") for code in word.split())
               for word in _MORSE_WORD_GAP.split(run.strip())]
        plain = " ".join(out)
        if plain.count("\0") <= 0.1 * len(plain) and language.reads_better(match.group(), plain.replace("\0", "")):
            yield Decoded(("Morse",), match.start(), match.end(), plain.replace("\0", ""))


# --- all together ---------------------------------------------------------------------------------------------------

LONG_RUN = 200  # characters without a space
MAX_VARIANTS = 32  # a text with more encoded runs than this is judged on its first ones (bounds the cost)


def decoded_variants(text: str, *, nested: bool = True) -> list[Decoded]:
    """Every encoded part of `text` that decodes to readable text, with the decoding that revealed it; a payload
    that is itself encoded (base64 of hex) is decoded once more."""
    if not text:
        return []
    found: list[Decoded] = []
    seen: set[str] = set()
    tokens = list(_TOKEN.finditer(text))
    # A long unbroken run (an image, a key) holds no cipher words: the ciphers read the text without it.
    words_only = text
    for token in (t for t in tokens if t.end() - t.start() > LONG_RUN):
        words_only = words_only[:token.start()] + " " * (token.end() - token.start()) + words_only[token.end():]
    for item in itertools.chain(_base_n(text, tokens), _escapes(text), _ciphers(words_only)):
        if item.text not in seen and len(found) < MAX_VARIANTS:
            seen.add(item.text)
            found.append(item)
    if nested:
        for outer in list(found):
            for inner in decoded_variants(outer.text, nested=False):
                if inner.text not in seen and len(found) < MAX_VARIANTS:
                    seen.add(inner.text)
                    found.append(Decoded(outer.names + inner.names, outer.start, outer.end, inner.text))
    return [item for item in found if readable(item.text)]  # a run that only decoded to another code is dropped
