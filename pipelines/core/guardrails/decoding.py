"""Encoded text a model can read but a guard would miss (base16/32/64/85, hex, quoted-printable, URL and HTML escapes,
Unicode tags, ROT13, Atbash, Morse, leetspeak), decoded so it can be judged; each decoder fires only on evidence."""

from __future__ import annotations

import base64
import binascii
import html
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
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return decoded if readable(decoded) else None


# --- base-N: one compiled pre-screen per family, then the codec of the standard library ---------------------------

_HEX = re.compile(r"(?:\\x[0-9A-Fa-f]{2}){6,}|(?:0x[0-9A-Fa-f]{2}[\s,]*){6,}"
                  r"|(?<![0-9A-Za-z])[0-9A-Fa-f]{2}(?:[ :]?[0-9A-Fa-f]{2}){7,}(?![0-9A-Za-z])")
_BASE32 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9+/=])")
# Base64 (standard or URL-safe); lines of a wrapped block are joined below.
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_ASCII85 = re.compile(r"<~[!-uz\s]{5,}~>|(?<![!-~])[!-uz]{20,}(?![!-~])")
_B85 = re.compile(r"(?<![!-~])[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{20,}(?![!-~])")
_A85_MARK = re.compile(r"[!-/:-@\[-`]")      # ascii85 of text always has punctuation; a word or base64 has little
_HEX_DIGITS = re.compile(r"[^0-9A-Fa-f]|0x|\\x")


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
        return base64.a85decode(run, adobe=True)
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


def _base_n(text: str) -> Iterator[Decoded]:
    for name, pattern, decode, evidence in _CODECS:
        for match in pattern.finditer(text):
            run = match.group()
            if evidence(run):
                try:
                    plain = _text(decode(run.strip()))
                except (ValueError, binascii.Error):
                    continue
                if plain:
                    yield Decoded((name,), match.start(), match.end(), plain)
    runs = [m for m in _BASE64.finditer(text) if _looks_base64(m.group())]
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
    for match in _TAGS.finditer(text):
        plain = "".join(chr(ord(c) - 0xE0000) for c in match.group())
        if plain.strip():  # hidden from the reader: no length or language evidence needed
            yield Decoded(("Unicode-tag",), match.start(), match.end(), plain)


# --- letter ciphers: only where the decoded words read as English far better than the original ones --------------

_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ROT13 = str.maketrans(_LOWER + _LOWER.upper(), _LOWER[13:] + _LOWER[:13] + (_LOWER[13:] + _LOWER[:13]).upper())
_ATBASH = str.maketrans(_LOWER + _LOWER.upper(), _LOWER[::-1] + _LOWER[::-1].upper())
_LEET = str.maketrans("013457@$!|", "oleastasil")
_LEET_WORD = re.compile(r"(?<![\w.])(?=[A-Za-z0-9@$!|]*[A-Za-z])(?=[A-Za-z0-9@$!|]*[0-9@$!|])[A-Za-z0-9@$!|]{3,}")
# Cipher text is judged a clause at a time, so that a plain lead-in ("What does this mean?") does not hide it.
_CLAUSE = re.compile(r"[^\n.!?:;]+")
CIPHER_WORDS = 2  # distinct words that only mean something once deciphered before a text's clauses are tried


def _deciphered(text: str, name: str, decode: Callable[[str], str]) -> Iterator[Decoded]:
    """Runs of clauses (on one line or consecutive ones) that read far better deciphered, each run one variant."""
    run: list[re.Match] = []
    for clause in [*_CLAUSE.finditer(text), None]:
        if clause is not None and language.reads_better(clause.group(), decode(clause.group())):
            run.append(clause)
        elif run:
            start, end = run[0].start(), run[-1].end()
            start += len(text[start:end]) - len(text[start:end].lstrip())
            yield Decoded((name,), start, end, decode(text[start:end]).rstrip())
            run = []


def _ciphers(text: str) -> Iterator[Decoded]:
    unique = set(language.words(text))
    counts = language.lexicon().counts
    unknown = " ".join(w for w in unique if w not in counts)
    for name, table in (("ROT13", _ROT13), ("Atbash", _ATBASH)):
        # One pass over the text's distinct unknown words: ordinary prose has almost none that a cipher turns into
        # words, so its clauses are not tried one by one.
        if language.known(unknown.translate(table).split()) >= CIPHER_WORDS:
            yield from _deciphered(text, name, lambda part, table=table: part.translate(table))
    if len(_LEET_WORD.findall(text)) >= 2:
        yield from _deciphered(text, "leetspeak", lambda part: _LEET_WORD.sub(lambda m: m.group().translate(_LEET), part))


_MORSE_CODE = {
    ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h", "..": "i",
    ".---": "j", "-.-": "k", ".-..": "l", "--": "m", "-.": "n", "---": "o", ".--.": "p", "--.-": "q", ".-.": "r",
    "...": "s", "-": "t", "..-": "u", "...-": "v", ".--": "w", "-..-": "x", "-.--": "y", "--..": "z",
    "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4", ".....": "5", "-....": "6", "--...": "7",
    "---..": "8", "----.": "9", ".-.-.-": ".", "--..--": ",", "..--..": "?", ".----.": "'", "-.-.--": "!",
    "-..-.": "/", ".-..-.": '"', "---...": ":", "-...-": "=", ".-.-.": "+", "-....-": "-", ".--.-.": "@",
}
_MORSE = re.compile(r"[.\-·•–—_]{1,7}(?:[ \t]*[ /|\t][ \t]*[.\-·•–—_]{1,7}){7,}")
_MORSE_WORD_GAP = re.compile(r"\s*[/|]\s*|\s{2,}")
_MORSE_SYMBOLS = str.maketrans("·•–—_", "..---")


def _morse(text: str) -> Iterator[Decoded]:
    for match in _MORSE.finditer(text):
        run = match.group().translate(_MORSE_SYMBOLS)
        codes = run.split()
        if "." not in run or "-" not in run or len(set(codes) - {"/", "|"}) < 4:
            continue  # a rule of dashes or an ellipsis
        out = ["".join(_MORSE_CODE.get(code, "\0") for code in word.split())
               for word in _MORSE_WORD_GAP.split(run.strip())]
        plain = " ".join(out)
        if plain.count("\0") <= 0.1 * len(plain) and language.reads_better(match.group(), plain.replace("\0", "")):
            yield Decoded(("Morse",), match.start(), match.end(), plain.replace("\0", ""))


# --- all together ---------------------------------------------------------------------------------------------------

MAX_VARIANTS = 32  # a text with more encoded runs than this is judged on its first ones (bounds the cost)


def decoded_variants(text: str, *, nested: bool = True) -> list[Decoded]:
    """Every encoded part of `text` that decodes to readable text, with the decoding that revealed it; a payload
    that is itself encoded (base64 of hex) is decoded once more."""
    if not text:
        return []
    found: list[Decoded] = []
    seen: set[str] = set()
    for decoder in (_base_n, _escapes, _ciphers, _morse):
        for item in decoder(text):
            if item.text not in seen and len(found) < MAX_VARIANTS:
                seen.add(item.text)
                found.append(item)
    if nested:
        for outer in list(found):
            for inner in decoded_variants(outer.text, nested=False):
                if inner.text not in seen and len(found) < MAX_VARIANTS:
                    seen.add(inner.text)
                    found.append(Decoded(outer.names + inner.names, outer.start, outer.end, inner.text))
    return found
