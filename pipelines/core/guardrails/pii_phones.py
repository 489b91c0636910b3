"""Phone numbers in text for the PII detector: digit runs cut into spans, read for the regions that fit the text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

import phonenumbers
from phonenumbers import Leniency, PhoneMetadata, PhoneNumberMatcher, geocoder

# The regions whose national formats ("(415) 555-0142", "138 0013 8000") are always read, after the user's.
DEFAULT_REGIONS = ("CN", "US")

# A run of digits that could be a phone number; the spans in it are then parsed. Scanning only these windows keeps a
# 64 KB text fast (the library's own matcher is pure Python and slow over long text).
# A "+" and the run of digit groups after it: a leading "(" or "00" needs no alternative of its own ("00" is digits,
# and a span's "(" is looked up before it, see find_phones), and alternatives that start with a space or a bracket
# made the engine try the pattern at every space of a long text.
_DIGITS = r"\d[\d\s().\-+]{3,}\d"
PHONE_CANDIDATE = re.compile(rf"\+[\s(]*{_DIGITS}|{_DIGITS}")
_DIGIT_GROUP = re.compile(r"\+?\d+")
_INTERNATIONAL = re.compile(r"[\s(]*(?:\+|00[1-9])")
SIMPLE_CN_MOBILE = re.compile(r"(?:(?:\+|00)?86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}")  # no need to ask the library
DATE_LIKE = re.compile(r"^(?:19|20)\d{2}(?:[./-]\d{1,2}){0,2}(?:\s*[-–~]\s*(?:(?:19|20)\d{2}(?:[./-]\d{1,2}){0,2}|\d{1,2}))?$")
# A calendar date at the start ("2026-11-30 09" of "2026-11-30 09:00"): no numbering plan groups digits 4-2-2.
_STARTS_WITH_DATE = re.compile(r"(?:19|20)\d\d([-/.])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?!\d)")
_CLOCK_AFTER = re.compile(r":[0-5]\d")  # the span's last group is the hour of a time ("… 09:00")
_IDENTIFIER_MARK = re.compile(r"[#№]\s*$")  # "Order #8882765945", "№ 12345": a number that names a thing
_DECIMAL = re.compile(r"[^.]*\.\d+")  # one dot, before the last digits: a fraction ("0.573467", O*NET "15-1252.00")
# "978-977-8767" in "978-977-8767-54-4": a part of a longer number joined by hyphens, dots or slashes.
_JOINED_AFTER, _JOINED_BEFORE = re.compile(r"[-./]\d"), re.compile(r"\d[-./]$")
# A check digit after the last hyphen ("4-7837-4311-8", an ISBN) or a dotted quad of octets ("90.17.151.228"; four
# pairs, "32.12.34.56", are how Denmark or Luxembourg write a number).
_ODD_GROUPS = re.compile(r"[-.]\d$|^(?!(?:\d\d\.){3}\d\d$)(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}"
                         r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$")
_MIN_NATIONAL, _MIN_INTERNATIONAL, _MAX_DIGITS = 5, 7, 17

# Scripts that point at one region's national formats (Chinese text → CN); Latin and Arabic point at too many.
_SCRIPTS = ((re.compile("[\u4e00-\u9fff]"), "CN"), (re.compile("[\u3040-\u30ff]"), "JP"), (re.compile("[\uac00-\ud7af]"), "KR"),
            (re.compile("[\u0400-\u04ff]"), "RU"), (re.compile("[\u0370-\u03ff]"), "GR"), (re.compile("[\u0590-\u05ff]"), "IL"),
            (re.compile("[\u0e00-\u0e7f]"), "TH"), (re.compile("[\u0900-\u097f]"), "IN"))
_CALLING_CODE = re.compile(r"\+(\d{1,3})(?=[\d\s().-]{5,}\d)")  # "+44 20 7946 0958", not "+30%"


def _whole_word(text: str, start: int, end: int) -> bool:
    """No Latin letter right before or after (the name "India" is not in "Indiana")."""
    return not any(c.isascii() and c.isalpha() for c in text[max(start - 1, 0):start] + text[end:end + 1])


def find_phones(text: str, regions: Iterable[str] | None = None) -> Iterator[tuple[int, int, str]]:
    """(start, end, kind) of each phone number: every run of digit groups is cut into the spans a number could fill
    (groups joined by one short separator), each span is read once per plausible region, and the longest spans that
    read as numbers win. A number with its country code is read anywhere; a national one ("07400 123456") only for the
    caller's regions, DEFAULT_REGIONS and the ones the text points at (see TextRegions)."""
    context = TextRegions(text, regions)
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
                if digits > _MAX_DIGITS:
                    break
                if digits >= _MIN_NATIONAL:
                    lo = first - 1 if first and text[first - 1] == "(" else first
                    raw = text[lo:end]
                    # Inside a run ("4532 0151 1283 0367") only a span that stands out as a number counts: one with
                    # its country code or area code in brackets, or a Chinese mobile.
                    if i and not (raw[0] in "+(" or SIMPLE_CN_MOBILE.fullmatch(raw)):
                        continue
                    if kind := _classify(text, lo, end, digits, context):
                        spans.append((lo, end, kind))
        taken: list[tuple[int, int, str]] = []
        for lo, hi, kind in sorted(spans, key=lambda span: (span[0] - span[1], span[0])):
            if all(hi <= t_lo or lo >= t_hi for t_lo, t_hi, _ in taken):
                taken.append((lo, hi, kind))
        yield from sorted(taken)


def _kind(country_code: int) -> str:
    return {86: "phone_cn", 1: "phone_us"}.get(country_code, "phone_intl")


def _classify(text: str, lo: int, hi: int, digits: int, context: TextRegions) -> str | None:
    raw = text[lo:hi]
    if _INTERNATIONAL.match(raw):
        if digits < _MIN_INTERNATIONAL:
            return None
        try:
            number = phonenumbers.parse(raw, "CN")  # the region only tells how "00" is dialled
        except phonenumbers.NumberParseException:
            return None
        # A number written with its country code is masked when its length fits that country's plan, valid or not:
        # ranges kept free for fiction (UK 07700 900xxx) are still someone's number in shape.
        return _kind(number.country_code) if phonenumbers.is_possible_number(number) else None
    if SIMPLE_CN_MOBILE.fullmatch(raw):
        return "phone_cn"
    if DATE_LIKE.match(raw.strip(" ()")) or _STARTS_WITH_DATE.match(raw.strip(" (")) or _DECIMAL.fullmatch(raw) \
            or _IDENTIFIER_MARK.search(text, max(0, lo - 3), lo) or _CLOCK_AFTER.match(text, hi) \
            or _JOINED_AFTER.match(text, hi) or _JOINED_BEFORE.search(text, max(0, lo - 2), lo):
        return None
    for region in context:
        if not _fits(region, digits):
            continue
        try:
            number = phonenumbers.parse(raw, region)
        except phonenumbers.NumberParseException:
            continue
        if not phonenumbers.is_valid_number(number):
            continue
        national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
        if _national_digits(number, region, raw, national) and _as_written(text, lo, hi, region):
            return _kind(number.country_code)
    return None


def _national_digits(number: phonenumbers.PhoneNumber, region: str, raw: str, national: str) -> bool:
    """The digits are the ones the region writes the number with: its trunk prefix where it uses one ("0574 6917
    9183", not "574 6917 9183"), or the prefix before the whole number where that is optional ("1-415-555-0142")."""
    digits = re.sub(r"\D", "", raw)
    prefix = PhoneMetadata.metadata_for_region(region).national_prefix or ""
    if len(digits) < 7 and prefix and not digits.startswith(prefix):
        return False  # a short local number where numbers are dialled with a trunk prefix: too like any other figure
    return digits == re.sub(r"\D", "", national) \
        or (bool(prefix) and digits == prefix + phonenumbers.national_significant_number(number))


@cache
def _lengths(region: str) -> tuple[int, int]:
    """The fewest and most digits a national number of `region` is written with (its national prefix included)."""
    metadata = PhoneMetadata.metadata_for_region(region)
    if metadata is None or metadata.general_desc is None:
        return 0, -1
    lengths = metadata.general_desc.possible_length or (0,)
    return max(min(lengths), _MIN_NATIONAL), max(lengths) + len(metadata.national_prefix or "") + 2


def _fits(region: str, digits: int) -> bool:
    low, high = _lengths(region)
    return low <= digits <= high


def _as_written(text: str, lo: int, hi: int, region: str) -> bool:
    """The library's own matcher (leniency VALID), on the span and a character either side, finds this very span: a
    valid number with its national prefix where one is needed, not against a Latin letter, a currency sign or "%", not
    a date or a time stamp. Its stricter leniencies also check the grouping, but reject common ways of writing a number
    ("0612 345 678", the library's own "011 15-2345-6789"); _ODD_GROUPS keeps ISBNs and IP addresses out instead."""
    if _ODD_GROUPS.search(text[lo:hi]):
        return False
    start = max(0, lo - 1)
    return any(m.start + start == lo and m.end + start == hi
               for m in PhoneNumberMatcher(text[start:hi + 1], region, leniency=Leniency.VALID, max_tries=3))


class TextRegions:
    """The regions a national number in `text` is read for, in order: the caller's (the user's), DEFAULT_REGIONS, then,
    looked up only when those read nothing, the ones the text points at: a country calling code written in it
    ("+44"), a country it names (in English or Chinese, from the library's own names), its script (Chinese → CN)."""

    def __init__(self, text: str, regions: Iterable[str] | None = None) -> None:
        self.text = text
        self.given = tuple(dict.fromkeys(r.upper() for r in (*(regions or ()), *DEFAULT_REGIONS)))
        self._more: tuple[str, ...] | None = None

    def __iter__(self) -> Iterator[str]:
        yield from self.given
        yield from self.suggested()

    def suggested(self) -> tuple[str, ...]:
        if self._more is None:
            found: list[str] = []
            for m in _CALLING_CODE.finditer(self.text):
                code = m.group(1)
                for size in (1, 2, 3):
                    region = phonenumbers.region_code_for_country_code(int(code[:size]))
                    if region != "ZZ":
                        found.append(region)
                        break
            names, (latin, other) = _country_names(), _names_patterns()
            found += [names[m.group()] for m in latin.finditer(self.text) if _whole_word(self.text, m.start(), m.end())]
            found += [names[m.group()] for m in other.finditer(self.text)]
            found += [region for pattern, region in _SCRIPTS if pattern.search(self.text)]
            supported = phonenumbers.SUPPORTED_REGIONS
            self._more = tuple(r for r in dict.fromkeys(found) if r in supported and r not in self.given)
        return self._more


@cache
def _country_names() -> dict[str, str]:
    """Country name (English and Chinese, as phonenumbers' geocoder writes them) → region."""
    names: dict[str, str] = {}
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        number = phonenumbers.example_number(region)
        for lang in ("en", "zh"):
            name = geocoder.country_name_for_number(number, lang) if number else ""
            for part in filter(None, (p.strip() for p in re.split(r"[()（）]", name))):
                names.setdefault(part, region)
    return names


@cache
def _names_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The Latin-script names and the others, apart: each pattern then starts with a set of first letters the regex
    engine skips ahead on (one pattern for both, or a look-behind in front, makes it try every position: 30x slower)."""
    names = _country_names()
    return re.compile(_trie([n for n in names if n.isascii()])), re.compile(_trie([n for n in names if not n.isascii()]))


def _trie(words: list[str]) -> str:
    """One regular expression for `words` that tries each character once (a plain alternation of hundreds of names
    would try every name at every position of a 64 KB text)."""
    root: dict = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 and "" not in node else "(?:" + "|".join(branches) + ")"
        return body + ("?" if "" in node else "")

    return "(?:" + emit(root) + ")"


def canonical_phone(kind: str, value: str) -> str:
    """One key for the spellings of one number ("+86 138 1234 5678" and "13812345678" are one phone)."""
    if kind == "phone_cn" and SIMPLE_CN_MOBILE.fullmatch(value):
        return "+86" + re.sub(r"\D", "", value)[-11:]
    if kind != "phone_intl" or _INTERNATIONAL.match(value):
        try:
            number = phonenumbers.parse(value, "US" if kind == "phone_us" else "CN")
            return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
        except phonenumbers.NumberParseException:
            pass
    return re.sub(r"\D", "", value)
