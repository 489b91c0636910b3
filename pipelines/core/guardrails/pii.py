"""Personal data in text: finding it (emails, phones, Chinese resident IDs, cards, SSNs, passports, IBANs) and
the vault that swaps each value for a stable placeholder before text reaches a model, a log or a trace."""

from __future__ import annotations

import bisect
import datetime
import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from stdnum import iban as stdnum_iban
from stdnum import luhn, numdb
from stdnum.cn import ric
from stdnum.us import ssn as stdnum_ssn

from pipelines.core.guardrails.pii_phones import canonical_phone, find_phones

PII_TYPES = ("email", "phone_us", "phone_cn", "phone_intl", "cn_resident_id", "us_ssn", "credit_card", "passport", "iban")
# Which type wins where two matches overlap (a resident ID's digits also look like a phone or a card).
_PRIORITY = {t: i for i, t in enumerate(("email", "cn_resident_id", "iban", "credit_card", "us_ssn", "passport",
                                          "phone_cn", "phone_us", "phone_intl"))}


@dataclass(frozen=True)
class PiiMatch:
    type: str
    start: int
    end: int
    value: str


# What may not touch a value: Latin letters and digits. Chinese characters and other scripts' letters count as
# separators ("邮箱jane@example.com", "卡号4111111111111111已绑定"), though `\w` takes them in.
_L = "A-Za-z_\u00c0-\u024f\u1e00-\u1eff"
_W = "0-9" + _L
EMAIL = re.compile(rf"(?<![{_W}.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{{0,63}}@[A-Za-z0-9](?:[A-Za-z0-9-]{{0,62}}[A-Za-z0-9])?"
                   rf"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{{0,62}}[A-Za-z0-9])?)*\.[A-Za-z]{{2,24}}(?![{_W}-])")
# Each pattern below starts with the character class of its first character and checks what may not come before it
# with a look-behind after it ("\d(?<![…]\d)" is "(?<![…])\d"): so the regex engine skips the text quickly to where
# such a character is, instead of trying the whole pattern at every position (a quarter of the check's time on a
# long document).
CN_RESIDENT_ID = re.compile(r"[1-9](?<![0-9A-Za-z][1-9])\d{5} ?(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]) ?"
                            r"\d{3}[\dXx](?![0-9A-Za-z])")
CARD = re.compile(rf"\d(?<![{_W}-]\d)(?:[ -]?\d){{12,18}}(?![{_W}-])")
SSN = re.compile(rf"\d(?<![{_W}-]\d)\d{{2}}-\d{{2}}-\d{{4}}(?![{_W}-])")
# "SSN: 078 05 1120": the number after its name ("ſ" is an "s" to a case-insensitive match).
SSN_NAMED = re.compile(rf"[sSſ社](?<![{_W}][sSſ社])(?:(?i:sn|ocial security(?: number| no\.?)?)|会安全号(?:码)?)(?![{_L}])"
                       rf"[^\w\n]{{0,4}}(?:(?i:is|是|为)[^\w\n]{{0,3}})?(\d{{3}}[ -]?\d{{2}}[ -]?\d{{4}})(?![{_W}-])")
# After the word: a letter or two and 6-8 digits (CN, IN, JP, KR, CA), 8-9 digits (US, UK), or 9 capitals and digits
# with at least 4 digits (DE "C01X00T47", FR "09AA12345").
PASSPORT = re.compile(r"[pP护](?:(?i:assport(?:\s*(?:no|number|num|nr|#|id)\.?)?)|照(?:号码|号)?)[^\w\n]{0,6}"
                      rf"(?:(?i:is|为|是)[^\w\n]{{0,3}})?([A-Za-z]{{1,2}}\d{{6,8}}|\d{{8,9}}|(?=(?:[A-Z]*\d){{4}})[A-Z0-9]{{9}})"
                      rf"(?![{_W}-])")
# An IBAN's start: country code and check digits, in any case ("de44", "De44", "GB 29"); its length is the country's.
IBAN_START = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}[ .-]?\d{2}")
_IBAN_BODY = re.compile(r"(?:[ .-]{0,2}[A-Za-z0-9]){10,32}")
KNOWN_SAMPLE_SSNS = {"123456789"}  # a placeholder in forms; stdnum already rejects 078-05-1120 and 219-09-9999

# Card issuer ranges (IIN prefixes): stdnum checks Luhn but has no generic card-brand table, so this small one
# keeps order numbers and other Luhn-valid digit runs from counting as cards.
_CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|30[0-5]|3[689]|6011|64[4-9]|65|"
                          r"35(?:2[89]|[3-8]\d)|62|50|5[6-8]|6[37])")


# Full-width digits, letters and signs ("１３８　１２３４", "ｌｉ＠ｅｘａｍｐｌｅ") read as their ASCII twins, one
# character for one, so that a match's offsets still point into the original text.
# Chinese text holds a full-width comma every few words: rewriting runs of them is three times faster than a
# translate() of the whole text.
_FULL_WIDTH = {chr(cp): chr(cp - 0xFEE0) for cp in range(0xFF01, 0xFF5F)} | {"\u3000": " "}
_FULL_WIDTH_RUN = re.compile("[\uff01-\uff5e\u3000]+")


def _ascii_twins(text: str) -> str:
    return _FULL_WIDTH_RUN.sub(lambda m: "".join(_FULL_WIDTH[c] for c in m.group()), text)


def find_pii(text: str, regions: Iterable[str] | None = None) -> list[PiiMatch]:
    """Every piece of personal data in `text`, in order, without overlaps (values as written in `text`). `regions`
    (ISO codes: the user's, e.g. ("GB",)) are the countries whose national phone formats are read first, before
    pii_phones.DEFAULT_REGIONS and those the text points at. A number with its country code is read whatever the regions."""
    if not text:
        return []
    plain = _ascii_twins(text)
    found = [*_emails(plain), *_resident_ids(plain), *_ibans(plain), *_cards(plain), *_ssns(plain), *_passports(plain),
             *(PiiMatch(kind, lo, hi, plain[lo:hi]) for lo, hi, kind in find_phones(plain, regions))]
    taken: list[PiiMatch] = []
    starts: list[int] = []  # the taken spans' starts and ends, in order (they never overlap, so both are sorted)
    ends: list[int] = []
    for match in sorted(found, key=lambda m: (_PRIORITY[m.type], m.start)):
        k = bisect.bisect_left(starts, match.start)
        if (k and ends[k - 1] > match.start) or (k < len(starts) and starts[k] < match.end):
            continue  # overlaps a match of a type that wins
        starts.insert(k, match.start)
        ends.insert(k, match.end)
        taken.append(match)
    return [PiiMatch(m.type, m.start, m.end, text[m.start:m.end]) for m in sorted(taken, key=lambda m: m.start)]


def _emails(text: str):
    if "@" in text:
        for m in EMAIL.finditer(text):
            yield PiiMatch("email", m.start(), m.end(), m.group())


# The province codes a resident ID starts with (GB/T 2260), including Taiwan, Hong Kong and Macau.
_CN_PROVINCES = frozenset(("11 12 13 14 15 21 22 23 31 32 33 34 35 36 37 41 42 43 44 45 46 50 51 52 53 54 61 62 63 64 65 "
                           "71 81 82 83").split())


def is_cn_resident_id(value: str) -> bool:
    """An 18-character Chinese resident ID: a province code, a real birth date not in the future, and the ISO 7064
    MOD 11-2 check digit. (stdnum's `ric.is_valid` also wants the county in its own table, which misses renamed
    and newer counties, so a real ID could pass unmasked.)"""
    number = value.replace(" ", "").upper()
    if len(number) != 18 or not number[:17].isdigit() or number[:2] not in _CN_PROVINCES:
        return False
    try:
        born = datetime.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    return datetime.date(1900, 1, 1) <= born <= datetime.date.today() and ric.calc_check_digit(number) == number[17]


def _resident_ids(text: str):
    for m in CN_RESIDENT_ID.finditer(text):
        if is_cn_resident_id(m.group()):
            yield PiiMatch("cn_resident_id", m.start(), m.end(), m.group())


def _cards(text: str):
    for m in CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and _CARD_PREFIX.match(digits) and luhn.is_valid(digits):
            yield PiiMatch("credit_card", m.start(), m.end(), m.group())


def _ssns(text: str):
    seen: set[tuple[int, int]] = set()  # "SSN: 078-05-1120" is found by both patterns: checked once
    for m in itertools.chain(SSN.finditer(text), SSN_NAMED.finditer(text)):
        start, end = m.span(1) if m.re is SSN_NAMED else m.span()
        if (start, end) in seen:
            continue
        seen.add((start, end))
        digits = re.sub(r"\D", "", text[start:end])
        if digits not in KNOWN_SAMPLE_SSNS and stdnum_ssn.is_valid(digits):
            yield PiiMatch("us_ssn", start, end, text[start:end])


def _passports(text: str):
    for m in PASSPORT.finditer(text):
        yield PiiMatch("passport", m.start(1), m.end(1), m.group(1))


@cache
def _iban_length(country: str) -> int:
    """How many characters an IBAN of `country` has (python-stdnum's IBAN registry); 0 for a country without IBANs."""
    bban = numdb.get("iban").info(country)[0][1].get("bban", "")
    return 4 + sum(int(n) for n in re.findall(r"(\d+)!", bban)) if bban else 0


def _ibans(text: str):
    """IBANs in any case, grouped by spaces, hyphens or dots or not at all: the country's length of letters and digits
    from the start, then python-stdnum's check (structure, MOD 97, the country's own rule)."""
    for m in IBAN_START.finditer(text):
        length = _iban_length(m.group()[:2].upper())
        body = _IBAN_BODY.match(text, m.end()) if length else None
        if body is None:
            continue
        value = m.group() + body.group()
        positions = [i for i, c in enumerate(value) if c.isalnum()]
        if len(positions) < length:
            continue
        end = positions[length - 1] + 1
        after = text[m.start() + end:m.start() + end + 1]
        if not (after.isascii() and after.isalnum()) and stdnum_iban.is_valid(value[:end]):
            yield PiiMatch("iban", m.start(), m.start() + end, value[:end])


# ---- the vault ----------------------------------------------------------------------------------------------------
PLACEHOLDER = re.compile(r"\[(" + "|".join(t.upper() for t in PII_TYPES) + r")_(\d+)\]", re.IGNORECASE)


def _canonical(kind: str, value: str) -> str:
    """One key for the spellings of one value ("+86 138 1234 5678" and "13812345678" are one phone)."""
    value = value.translate(_FULL_WIDTH)
    if kind == "email":
        return value.lower()
    if kind.startswith("phone_"):
        return canonical_phone(kind, value)
    if kind == "iban":
        return stdnum_iban.compact(value)
    return re.sub(r"[\s-]", "", value).upper()


class PiiVault:
    """Placeholder ↔ value, for one run: the same value always gets the same placeholder, numbered per type.
    `regions` are the user's, for national phone numbers (see find_pii)."""

    def __init__(self, regions: Iterable[str] | None = None) -> None:
        self.regions = None if regions is None else tuple(regions)
        self._values: dict[str, str] = {}            # placeholder -> value as first seen
        self._by_key: dict[tuple[str, str], str] = {}  # (type, canonical value) -> placeholder
        self._counts: dict[str, int] = {}

    @classmethod
    def from_entries(cls, entries: Mapping[str, str], regions: Iterable[str] | None = None) -> PiiVault:
        """A vault rebuilt from `entries()` that a caller kept outside the trace."""
        vault = cls(regions)
        for placeholder, value in entries.items():
            m = PLACEHOLDER.fullmatch(placeholder)
            if m is None:
                raise ValueError(f"not a PII placeholder: {placeholder[:40]!r}")
            kind, n = m.group(1).lower(), int(m.group(2))
            vault._values[placeholder.upper()] = value
            vault._by_key.setdefault((kind, _canonical(kind, value)), placeholder.upper())
            vault._counts[kind] = max(vault._counts.get(kind, 0), n)
        return vault

    def placeholder_for(self, kind: str, value: str) -> str:
        key = (kind, _canonical(kind, value))
        if key not in self._by_key:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            placeholder = f"[{kind.upper()}_{self._counts[kind]}]"
            self._by_key[key] = placeholder
            self._values[placeholder] = value
        return self._by_key[key]

    def mask(self, text: str, matches: list[PiiMatch] | None = None) -> str:
        """`text` with every PII value replaced by its placeholder (text already masked comes back unchanged)."""
        matches = find_pii(text, self.regions) if matches is None else matches
        if not matches:
            return text
        out, last = [], 0
        for m in matches:
            out += [text[last:m.start], self.placeholder_for(m.type, m.value)]
            last = m.end
        out.append(text[last:])
        return "".join(out)

    def restore(self, text: str) -> str:
        """The values put back in place of their placeholders; a placeholder this vault does not know stays."""
        return PLACEHOLDER.sub(lambda m: self._values.get(m.group().upper(), m.group()), text or "")

    def entries(self) -> dict[str, str]:
        return dict(self._values)

    def types(self) -> tuple[str, ...]:
        present = {kind for kind, _ in self._by_key}
        return tuple(t for t in PII_TYPES if t in present)

    def __len__(self) -> int:
        return len(self._values)
