"""Personal data in text: finding it (emails, phones, Chinese resident IDs, cards, SSNs, passports, IBANs) and
the vault that swaps each value for a stable placeholder before text reaches a model, a log or a trace."""

from __future__ import annotations

import bisect
import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum import luhn
from stdnum.cn import ric
from stdnum.us import ssn as stdnum_ssn

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


EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w-])")
CN_RESIDENT_ID = re.compile(r"(?<![0-9A-Za-z])[1-9]\d{5} ?(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]) ?\d{3}[\dXx]"
                            r"(?![0-9A-Za-z])")
CARD = re.compile(r"(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])")
SSN = re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])|(?i:\b(?:ssn|social security(?: number| no\.?)?)\b)[^\w\n]{0,4}"
                 r"(?:is[^\w\n]{1,3})?(\d{3}[ -]?\d{2}[ -]?\d{4})(?![\w-])")
PASSPORT = re.compile(r"(?i:passport(?:\s*(?:no|number|num|nr|#|id)\.?)?|护照(?:号码|号)?)[^\w\n]{0,6}"
                      r"(?:(?i:is|为|是)[^\w\n]{0,3})?([A-Za-z]{1,2}\d{6,8}|\d{8,9})(?![\w-])")
IBAN_START = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){10,32}")
# A run of digits that could be a phone number; the phonenumbers matcher then decides. Scanning only these
# windows keeps a 64 KB text fast (the matcher is pure Python and slow over long text).
PHONE_CANDIDATE = re.compile(r"(?:\+|(?<!\d)00(?=[1-9]))?[\s(]*\d[\d\s().\-+]{5,}\d")
_DIGIT_GROUP = re.compile(r"\+?\d+")
_INTERNATIONAL = re.compile(r"[\s(]*(?:\+|00[1-9])")
_SIMPLE_CN_MOBILE = re.compile(r"(?:(?:\+|00)?86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}")  # no need to ask the library
DATE_LIKE = re.compile(r"^(?:19|20)\d{2}(?:[./-]\d{1,2}){0,2}(?:\s*[-–~]\s*(?:(?:19|20)\d{2}(?:[./-]\d{1,2}){0,2}|\d{1,2}))?$")
CN_MOBILE = re.compile(r"^(?:86)?1[3-9]\d{9}$")
KNOWN_SAMPLE_SSNS = {"123456789"}  # a placeholder in forms; stdnum already rejects 078-05-1120 and 219-09-9999

# Card issuer ranges (IIN prefixes): stdnum checks Luhn but has no generic card-brand table, so this small one
# keeps order numbers and other Luhn-valid digit runs from counting as cards.
_CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|30[0-5]|3[689]|6011|64[4-9]|65|"
                          r"35(?:2[89]|[3-8]\d)|62|50|5[6-8]|6[37])")


# Full-width digits, letters and signs ("１３８　１２３４", "ｌｉ＠ｅｘａｍｐｌｅ") read as their ASCII twins, one
# character for one, so that a match's offsets still point into the original text.
_FULL_WIDTH = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_HAS_FULL_WIDTH = re.compile("[\uff01-\uff5e\u3000]")


def find_pii(text: str) -> list[PiiMatch]:
    """Every piece of personal data in `text`, in order, without overlaps (values as written in `text`)."""
    if not text:
        return []
    plain = text.translate(_FULL_WIDTH) if _HAS_FULL_WIDTH.search(text) else text
    found = [*_emails(plain), *_resident_ids(plain), *_ibans(plain), *_cards(plain), *_ssns(plain), *_passports(plain),
             *_phones(plain)]
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
    for m in SSN.finditer(text):
        start, end = m.span(1) if m.group(1) else m.span()
        digits = re.sub(r"\D", "", text[start:end])
        if digits not in KNOWN_SAMPLE_SSNS and stdnum_ssn.is_valid(digits):
            yield PiiMatch("us_ssn", start, end, text[start:end])


def _passports(text: str):
    for m in PASSPORT.finditer(text):
        yield PiiMatch("passport", m.start(1), m.end(1), m.group(1))


def _ibans(text: str):
    for m in IBAN_START.finditer(text):
        raw = m.group()
        # The greedy run may take in the next word; try shorter prefixes until one is a valid IBAN.
        positions = [i for i, c in enumerate(raw) if c != " "]
        for length in range(min(len(positions), 34), 14, -1):
            end = positions[length - 1] + 1
            if stdnum_iban.is_valid(raw[:end]):
                yield PiiMatch("iban", m.start(), m.start() + end, raw[:end])
                break


def _phones(text: str):
    """Phone numbers: every run of digit groups is cut into the spans a number could fill (7 to 17 digits, groups
    joined by one short separator), each span is parsed once per region, and the longest spans that parse win.
    Parsing spans (not running the library's text matcher over the run) keeps a 64 KB contact list fast."""
    for cand in PHONE_CANDIDATE.finditer(text):
        groups = [(cand.start() + m.start(), cand.start() + m.end()) for m in _DIGIT_GROUP.finditer(cand.group())]
        spans: list[tuple[int, int, str]] = []
        for i, (first, _) in enumerate(groups):
            digits = 0
            for j in range(i, len(groups)):
                start, end = groups[j]
                if j > i and (text[start] == "+" or start - groups[j - 1][1] > 3
                              or (end - start == 1 and groups[j - 1][1] - groups[j - 1][0] == 1)):
                    break  # a second "+", a wide gap, or two single digits in a row: not one number
                digits += end - start - (text[start] == "+")
                if digits > 17:
                    break
                if digits >= 7:
                    lo = first - 1 if first and text[first - 1] == "(" else first
                    raw = text[lo:end]
                    # Inside a run ("4532 0151 1283 0367") only a span that stands out as a number counts: one with
                    # its country code or area code in brackets, or a Chinese mobile.
                    if i and not (raw[0] in "+(" or _SIMPLE_CN_MOBILE.fullmatch(raw)):
                        continue
                    if kind := _classify_phone(raw, digits):
                        spans.append((lo, end, kind))
        taken: list[tuple[int, int, str]] = []
        for lo, hi, kind in sorted(spans, key=lambda span: (span[0] - span[1], span[0])):
            if all(hi <= t_lo or lo >= t_hi for t_lo, t_hi, _ in taken):
                taken.append((lo, hi, kind))
        for lo, hi, kind in sorted(taken):
            yield PiiMatch(kind, lo, hi, text[lo:hi])


def _classify_phone(raw: str, digits: int) -> str | None:
    international = bool(_INTERNATIONAL.match(raw))
    if not international and digits not in (10, 11, 12, 13):
        return None  # too short for a number without its country code (see _could_be_phone), checked cheaply first
    if not _could_be_phone(raw):
        return None
    if _SIMPLE_CN_MOBILE.fullmatch(raw):
        return "phone_cn"
    numbers: dict[str, phonenumbers.PhoneNumber] = {}
    for region in ("CN", "US"):
        try:
            number = phonenumbers.parse(raw, region)
        except phonenumbers.NumberParseException:
            continue
        # A number written with its country code is masked when its length fits that country's plan, valid or
        # not: ranges kept free for fiction (UK 07700 900xxx) are still someone's number in shape.
        if phonenumbers.is_possible_number(number) if international else phonenumbers.is_valid_number(number):
            numbers[region] = number
            if international:
                break
    return _phone_type(raw, numbers) if numbers else None


def _could_be_phone(raw: str) -> bool:
    """A cheap shape test before the (slow) matcher: an international number, a Chinese mobile or landline with
    its 0 area code, or a North American number (area code and exchange do not start with 0 or 1)."""
    digits = re.sub(r"\D", "", raw)
    if len(digits) < 7 or DATE_LIKE.match(raw.strip(" ()")):
        return False
    if _INTERNATIONAL.match(raw):
        return len(digits) <= 17
    if CN_MOBILE.match(digits) or (digits[0] == "0" and 10 <= len(digits) <= 12):
        return True
    nanp = digits[1:] if len(digits) == 11 and digits[0] == "1" else digits
    return len(nanp) == 10 and nanp[0] in "23456789" and nanp[3] in "23456789"


def _phone_type(raw: str, numbers: Mapping[str, phonenumbers.PhoneNumber]) -> str | None:
    """phone_cn, phone_us or phone_intl; None for a digit run that only one region's rules happen to accept."""
    number = numbers.get("CN") or numbers["US"]
    if _INTERNATIONAL.match(raw):
        return {86: "phone_cn", 1: "phone_us"}.get(number.country_code, "phone_intl")
    digits = re.sub(r"\D", "", raw)
    if "CN" in numbers and (CN_MOBILE.match(digits) or digits.startswith("0")):
        return "phone_cn"
    if "US" in numbers:
        return "phone_us"
    return None  # a Chinese landline is written with its 0 area code; without one, "25000-35000" is a salary range


# ---- the vault ----------------------------------------------------------------------------------------------------
PLACEHOLDER = re.compile(r"\[(" + "|".join(t.upper() for t in PII_TYPES) + r")_(\d+)\]", re.IGNORECASE)


def _canonical(kind: str, value: str) -> str:
    """One key for the spellings of one value ("+86 138 1234 5678" and "13812345678" are one phone)."""
    value = value.translate(_FULL_WIDTH)
    if kind == "email":
        return value.lower()
    if kind == "phone_cn" and _SIMPLE_CN_MOBILE.fullmatch(value):
        return "+86" + re.sub(r"\D", "", value)[-11:]
    if kind.startswith("phone_"):
        try:
            number = phonenumbers.parse(value, "US" if kind == "phone_us" else "CN")
            return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
        except phonenumbers.NumberParseException:
            pass
    return re.sub(r"[\s-]", "", value).upper()


class PiiVault:
    """Placeholder ↔ value, for one run: the same value always gets the same placeholder, numbered per type."""

    def __init__(self) -> None:
        self._values: dict[str, str] = {}            # placeholder -> value as first seen
        self._by_key: dict[tuple[str, str], str] = {}  # (type, canonical value) -> placeholder
        self._counts: dict[str, int] = {}

    @classmethod
    def from_entries(cls, entries: Mapping[str, str]) -> PiiVault:
        """A vault rebuilt from `entries()` that a caller kept outside the trace."""
        vault = cls()
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
        matches = find_pii(text) if matches is None else matches
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
