"""Example sets for the PII detector, built from the libraries' own example numbers (phonenumbers, python-stdnum), put
in English and Chinese sentences (some with the value right against Chinese characters), and a benign set (dates,
money, versions, O*NET codes, ISBNs, real resume and job-post text). `python -m tests.support.pii_examples` prints
recall per type and language and the benign false-positive rate."""

from __future__ import annotations

import csv
import datetime
import inspect
import json
import random
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import phonenumbers
from phonenumbers import PhoneNumberFormat, PhoneNumberType, geocoder
from stdnum import iban as stdnum_iban
from stdnum import ean, isbn, luhn
from stdnum.cn import ric
from stdnum.us import ssn

ROOT = Path(__file__).resolve().parents[2]
ONET = ROOT / "assets" / "occupations" / "occupation_interests.csv"
DEMO_JOBS = ROOT / "assets" / "recruiter" / "jobs.jsonl"
# Real resumes, job posts and recruiter requests collected for the guardrails (not shipped: measured where present).
REAL_BENIGN = Path("/work/shared/data/guardrails_real/benign.jsonl")
PHONE_TYPES = frozenset({"phone_cn", "phone_us", "phone_intl"})


@dataclass(frozen=True)
class Example:
    kind: str                      # the row of the table: email, credit_card, ..., phone_national_named, ...
    lang: str                      # en | zh (the carrier sentence)
    text: str
    value: str                     # as written in text, once
    accepts: frozenset[str]        # the detector types that count as found
    regions: tuple[str, ...] | None = None   # what the caller passes as the user's regions (None: the default)

    @property
    def span(self) -> tuple[int, int]:
        start = self.text.index(self.value)
        return start, start + len(self.value)


# Carrier sentences: "{v}" is the value; the Chinese ones put it right against Chinese characters in most cases.
TEMPLATES = {
    "email": (["Please email me at {v} after 6pm.", "Contact: {v}", "{v} is the address on my CV.", "(mail {v})"],
              ["邮箱{v}", "请发邮件到{v}，谢谢。", "我的邮箱是 {v} 。", "联系邮箱：{v}已验证"]),
    "credit_card": (["Refund to card {v}, expiry 09/27.", "Card number: {v}", "Charge {v} for the background check."],
                    ["卡号{v}已绑定", "请退款到银行卡{v}。", "信用卡 {v} ，有效期至2027年。"]),
    "cn_resident_id": (["ID card {v} was verified.", "Resident ID: {v}"],
                       ["身份证号{v}", "身份证号码：{v}，请核对。", "证件号{v}已登记"]),
    "us_ssn": (["SSN: {v}, DOB 1988-04-12.", "My social security number is {v}.", "ssn {v}"],
               ["SSN：{v}", "社会安全号码{v}，请保密。", "美国SSN是{v}"]),
    "passport": (["Passport No. {v}, expires 2031.", "passport number: {v}", "Passport {v} was scanned."],
                 ["护照号码{v}", "护照号：{v}，有效期至2030年。", "他的护照是{v}已过期"]),
    "iban": (["Pay the bonus to {v}.", "IBAN: {v}", "Salary account {v} (Deutsche Bank)."],
             ["工资请转入{v}（海外账户）。", "IBAN：{v}", "收款账号{v}已核实"]),
    "phone": (["Call me on {v} after 6pm.", "Phone: {v}", "Mobile {v}, WhatsApp too."],
              ["电话{v}", "手机：{v}，微信同号。", "请拨打{v}联系我"]),
    "phone_named": (["I live in {c}; call me on {v}.", "Based in {c}. Mobile: {v}", "{c} office: {v}"],
                    ["我在{c}，电话{v}", "{c}手机：{v}，微信同号。", "人在{c}，请拨打{v}"]),
}


def _sentences(kind: str, values: Iterable[str], accepts: Iterable[str], template: str | None = None,
               regions: Callable[[int], tuple[str, ...] | None] = lambda i: None,
               names: Callable[[int, str], str] | None = None) -> list[Example]:
    en, zh = TEMPLATES[template or kind]
    out = []
    for i, value in enumerate(values):
        for lang, forms in (("en", en), ("zh", zh)):
            form = forms[i % len(forms)].replace("{c}", names(i, lang) if names else "")
            out.append(Example(kind, lang, form.replace("{v}", value), value, frozenset(accepts), regions(i)))
    return out


# ---- values -------------------------------------------------------------------------------------------------------
def emails(rng: random.Random) -> list[str]:
    first = ["jane", "li.wei", "o_brien", "zhang-san", "m.rossi", "anna.k", "dev+jobs", "hr.team", "k2", "x.y.z"]
    hosts = ["example.com", "mail.example.org", "example.co.uk", "corp-mail.example.net", "example.cn", "uni.example.edu",
             "example.technology", "sub.domain.example.io", "example.com.cn", "example.de"]
    return [f"{rng.choice(first)}{rng.choice(['', str(rng.randint(1, 99))])}@{host}" for host in hosts for _ in range(10)]


_BRANDS = {  # name: (prefixes, lengths, groups)
    "visa": (["4"], [16, 13], (4, 4, 4, 4)), "mastercard": (["51", "53", "55", "2221", "2720"], [16], (4, 4, 4, 4)),
    "amex": (["34", "37"], [15], (4, 6, 5)), "discover": (["6011", "65", "644"], [16], (4, 4, 4, 4)),
    "jcb": (["3528", "3589"], [16], (4, 4, 4, 4)), "unionpay": (["62"], [16, 19], (4, 4, 4, 4, 3)),
    "diners": (["36", "38", "300"], [14], (4, 6, 4)),
}


def cards(rng: random.Random, per_brand: int = 20) -> list[str]:
    out = []
    for prefixes, lengths, groups in _BRANDS.values():
        for i in range(per_brand):
            length = lengths[i % len(lengths)]
            body = rng.choice(prefixes)
            body += "".join(rng.choice("0123456789") for _ in range(length - len(body) - 1))
            number = body + luhn.calc_check_digit(body)
            parts, at = [], 0
            for size in groups:
                if at < len(number):
                    parts.append(number[at:at + size])
                    at += size
            parts[-1] += number[at:]
            out.append([number, " ".join(parts), "-".join(parts)][i % 3])
    return out


def _counties() -> list[str]:
    """The county codes in python-stdnum's table (two-digit province lines, four-digit county lines under them)."""
    out, province = [], ""
    for line in (Path(ric.__file__).parent / "loc.dat").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^(\d{2}) ", line):
            province = m.group(1)
        elif (m := re.match(r"^  (\d{4}) county=\"([^\"]+)", line)) and not m.group(2).startswith("[") \
                and not m.group(1).endswith("00"):
            out.append(province + m.group(1))
    return out


def resident_ids(rng: random.Random, count: int = 120) -> list[str]:
    counties, out = _counties(), []
    while len(out) < count:
        born = datetime.date(1950, 1, 1) + datetime.timedelta(days=rng.randrange(20_000))
        body = f"{rng.choice(counties)}{born:%Y%m%d}{rng.randrange(1000):03d}"
        number = body + ric.calc_check_digit(body)
        if ric.is_valid(number):
            out.append(number if len(out) % 4 else f"{number[:6]} {number[6:14]} {number[14:]}")
    return out


def ssns(rng: random.Random, count: int = 120) -> list[str]:
    out = []
    while len(out) < count:
        digits = f"{rng.randrange(1, 900):03d}{rng.randrange(1, 100):02d}{rng.randrange(1, 10000):04d}"
        if ssn.is_valid(digits):
            out.append(ssn.format(digits))
    return out


def ssn_with_keyword(value: str, i: int) -> str:
    return value.replace("-", " ") if i % 3 == 1 else value  # the spaced form only after "SSN"


# Passport number formats with their issuers: CN (E/G + 8 digits, EA + 7), US (9 digits, letter + 8), UK (9 digits),
# IN (letter + 7), JP (2 letters + 7), KR (M + 8), CA (2 letters + 6), AU (letter(s) + 7), DE and FR (9 alphanumerics).
_PASSPORT_SHAPES = ["E########", "G########", "EA#######", "#########", "A########", "J#######", "TK#######",
                    "M########", "AB######", "PA#######", "C##X##T##", "##AA#####"]


def passports(rng: random.Random, per_shape: int = 10) -> list[str]:
    return ["".join(str(rng.randrange(10)) if c == "#" else c for c in shape)
            for shape in _PASSPORT_SHAPES for _ in range(per_shape)]


def _iban_structures() -> dict[str, str]:
    text = (Path(stdnum_iban.__file__).parent / "iban.dat").read_text(encoding="utf-8")
    return dict(re.findall(r'^([A-Z]{2}) .*bban="([^"]+)"', text, re.M))


def _random_bban(rng: random.Random, structure: str) -> str:
    chars = {"n": "0123456789", "a": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "c": "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    return "".join("".join(rng.choice(chars[kind]) for _ in range(int(n)))
                   for n, kind in re.findall(r"(\d+)!([nac])", structure))


def _doc_ibans() -> dict[str, str]:
    """The valid IBANs in python-stdnum's own docstrings (for countries whose national check a random BBAN fails)."""
    import stdnum
    found: dict[str, str] = {}
    for path in Path(stdnum.__file__).parent.rglob("*.py"):
        for value in re.findall(r"'([A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30})'", path.read_text(encoding="utf-8")):
            if stdnum_iban.is_valid(value):
                found.setdefault(value[:2], stdnum_iban.compact(value))
    return found


def _iban_forms(number: str, i: int) -> str:
    groups = [number[k:k + 4] for k in range(0, len(number), 4)]
    forms = [" ".join(groups), number, " ".join(groups).lower(), number.lower(), " ".join(groups).capitalize(),
             "-".join(groups), ".".join(groups).lower(), f"{number[:2]} {number[2:4]} {number[4:10]} {number[10:]}",
             "  ".join(groups), number[:4] + " " + number[4:].lower()]
    return forms[i % len(forms)]


def ibans(rng: random.Random, per_country: int = 3) -> list[str]:
    docs, out = _doc_ibans(), []
    for i, (country, structure) in enumerate(sorted(_iban_structures().items())):
        for k in range(per_country):
            number = None
            for _ in range(300):
                bban = _random_bban(rng, structure)
                candidate = country + stdnum_iban.calc_check_digits(country + "00" + bban) + bban
                if stdnum_iban.is_valid(candidate):
                    number = candidate
                    break
            number = number or docs.get(country)
            if number:
                out.append(_iban_forms(number, i * per_country + k))
    return out


def example_phones() -> list[tuple[str, phonenumbers.PhoneNumber]]:
    """(region, number) for the mobile and fixed-line example number of every region phonenumbers supports."""
    out, seen = [], set()
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for kind in (PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE):
            number = phonenumbers.example_number_for_type(region, kind)
            if number is not None and (region, number.national_number) not in seen:
                seen.add((region, number.national_number))
                out.append((region, number))
    return out


def country_name(region: str, lang: str) -> str:
    number = phonenumbers.example_number(region)
    return geocoder.country_name_for_number(number, lang) if number else ""


# ---- the sets -----------------------------------------------------------------------------------------------------
def pii_examples(seed: int = 23) -> list[Example]:
    rng = random.Random(seed)
    out = [*_sentences("email", emails(rng), {"email"}),
           *_sentences("credit_card", cards(rng), {"credit_card"}),
           *_sentences("cn_resident_id", resident_ids(rng), {"cn_resident_id"}),
           *_sentences("passport", passports(rng), {"passport"}),
           *_sentences("iban", ibans(rng), {"iban"})]
    values = ssns(rng)
    out += _sentences("us_ssn", [ssn_with_keyword(v, i) for i, v in enumerate(values)], {"us_ssn"})
    phones = example_phones()
    for kind, fmt in (("phone_international", PhoneNumberFormat.INTERNATIONAL), ("phone_e164", PhoneNumberFormat.E164)):
        out += _sentences(kind, [phonenumbers.format_number(n, fmt) for _, n in phones], PHONE_TYPES, "phone")
    national = [phonenumbers.format_number(n, PhoneNumberFormat.NATIONAL) for _, n in phones]
    regions = [region for region, _ in phones]
    # A number written the national way is read for the regions the text names or the caller passes (the user's).
    named = [i for i, region in enumerate(regions) if country_name(region, "en") and country_name(region, "zh")]
    out += _sentences("phone_national_named", [national[i] for i in named], PHONE_TYPES, "phone_named",
                      names=lambda k, lang: country_name(regions[named[k]], lang))
    out += _sentences("phone_national_region", national, PHONE_TYPES, "phone", regions=lambda i: (regions[i],))
    return out


def _benign_synthetic(rng: random.Random) -> list[str]:
    out = []
    for _ in range(60):
        day = datetime.date(1995, 1, 1) + datetime.timedelta(days=rng.randrange(11_000))
        out += [f"Interview on {day:%Y-%m-%d} at {rng.randrange(8, 19)}:{rng.choice(['00', '30'])}.",
                f"面试时间 {day.year}年{day.month}月{day.day}日 {rng.randrange(8, 19)}:30",
                f"Started {day:%d/%m/%Y}, left {day.year + 3}.{day.month:02d}.", f"发布于{day:%Y.%m.%d}，截止{day:%Y%m%d}",
                f"He worked there {day.year}-{day.year + rng.randrange(1, 9)} and {day:%b %d, %Y}.",
                f"Salary band {rng.randrange(10, 60)}000-{rng.randrange(60, 99)}000 RMB per month.",
                f"薪资 ¥{rng.randrange(8, 40)},000-{rng.randrange(40, 90)},000/月，年终奖{rng.randrange(2, 6)}个月",
                f"Budget ${rng.randrange(100, 999):,},{rng.randrange(1000):03d}.00 for {day.year}",
                f"Order #{rng.randrange(10**9, 10**10)} shipped; invoice INV-{day.year}-{rng.randrange(10**5):05d}.",
                f"订单号 {day:%Y%m%d}{rng.randrange(10**6):06d} 已发货", f"Ticket {rng.randrange(10**7, 10**8)} closed",
                f"Python 3.{rng.randrange(6, 13)}.{rng.randrange(10)}, "
                f"build 10.0.{rng.randrange(10**4, 10**5)}.{rng.randrange(4000)}",
                f"Grew revenue {rng.randrange(5, 95)}.{rng.randrange(10)}% and cut costs by {rng.randrange(5, 40)}%.",
                f"增长{rng.randrange(5, 300)}%，覆盖{rng.randrange(1000, 99999)}家门店",
                f"ISBN {isbn.format(_isbn(rng))}", f"ISBN {isbn.format(_isbn(rng, 10))}, {rng.randrange(100, 999)} pages",
                f"ZIP {rng.randrange(10000, 99999)}-{rng.randrange(10000):04d}; 邮编{rng.randrange(100000, 860000)}",
                f"Meeting ID {rng.randrange(100, 999)} {rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)}, "
                f"passcode {rng.randrange(10**5, 10**6)}",
                f"Employee ID {rng.randrange(10**7, 10**8)}, desk 7F-{rng.randrange(100, 999)}",
                f"Coordinates {rng.uniform(-80, 80):.6f}, {rng.uniform(-170, 170):.6f}",
                f"Server {rng.randrange(10, 250)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}:8080",
                f"{rng.randrange(1, 12)}:{rng.randrange(60):02d}-{rng.randrange(13, 23)}:{rng.randrange(60):02d}, "
                f"{day.year} Q{rng.randrange(1, 5)}"]
    return out


def _isbn(rng: random.Random, length: int = 13) -> str:
    """A valid ISBN that python-stdnum can hyphenate (a registered range)."""
    while True:
        if length == 13:
            body = "978" + "".join(str(rng.randrange(10)) for _ in range(9))
            number = body + ean.calc_check_digit(body)
        else:
            body = "".join(str(rng.randrange(10)) for _ in range(9))
            check = sum((10 - k) * int(d) for k, d in enumerate(body)) % 11
            number = body + "0123456789X"[(11 - check) % 11]
        if isbn.is_valid(number) and isbn.format(number).count("-") >= 3:
            return number


def _onet() -> list[str]:
    with ONET.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [f"O*NET {r['onet_soc_code']} {r['title']}: {r['description']}" for r in rows]


def _split(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?。！？；;])\s*|\n+|\s\|\s", text)
    return [p.strip() for p in parts if len(p.strip()) >= 12]


def benign_sentences(seed: int = 23) -> list[tuple[str, str]]:
    """(source, sentence): synthetic look-alikes, O*NET codes and descriptions, the demo's job posts, and the real
    recruiting texts where they are present."""
    out = [("synthetic", s) for s in _benign_synthetic(random.Random(seed))]
    out += [("onet", s) for s in _onet()]
    for line in DEMO_JOBS.read_text(encoding="utf-8").splitlines():
        out += [("demo_jobs", s) for s in _split(json.loads(line)["description"])] if line.strip() else []
    if REAL_BENIGN.exists():
        for line in REAL_BENIGN.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            out += [(row["category"], s) for s in _split(row["text"])]
    return out


# ---- measuring ----------------------------------------------------------------------------------------------------
def _find(find_pii, text: str, regions):
    if regions is not None and "regions" in inspect.signature(find_pii).parameters:
        return find_pii(text, regions=regions)
    return find_pii(text)


def recall(examples: list[Example], find_pii) -> dict[tuple[str, str], tuple[int, int, list[Example]]]:
    """(kind, lang) -> (found, total, misses): found means one match of an accepted type spans exactly the value."""
    table: dict[tuple[str, str], tuple[int, int, list[Example]]] = {}
    for example in examples:
        start, end = example.span
        hit = any(m.type in example.accepts and (m.start, m.end) == (start, end)
                  for m in _find(find_pii, example.text, example.regions))
        found, total, misses = table.get((example.kind, example.lang), (0, 0, []))
        table[(example.kind, example.lang)] = (found + hit, total + 1, misses if hit else [*misses, example])
    return table


def false_positives(sentences: list[tuple[str, str]], find_pii) -> list[tuple[str, str, list]]:
    return [(source, text, matches) for source, text in sentences if (matches := find_pii(text))]


def report(find_pii, out=sys.stdout) -> tuple[dict, list, int]:
    table = recall(pii_examples(), find_pii)
    print(f"{'type':<24} {'EN found':>12} {'EN %':>7} {'ZH found':>12} {'ZH %':>7}", file=out)
    for kind in dict.fromkeys(k for k, _ in table):
        cells = []
        for lang in ("en", "zh"):
            found, total, _ = table.get((kind, lang), (0, 0, []))
            cells.append(f"{f'{found}/{total}':>12} {100 * found / max(total, 1):>6.1f}%")
        print(f"{kind:<24} {' '.join(cells)}", file=out)
    benign = benign_sentences()
    fps = false_positives(benign, find_pii)
    print(f"benign sentences with a match: {len(fps)}/{len(benign)} ({100 * len(fps) / len(benign):.2f} %)", file=out)
    for source in dict.fromkeys(s for s, _ in benign):
        hits = sum(1 for s, _, _ in fps if s == source)
        print(f"  {source:<24} {hits:>4}/{sum(1 for s, _ in benign if s == source)}", file=out)
    return table, fps, len(benign)


if __name__ == "__main__":
    from pipelines.core.guardrails.pii import find_pii as _find_pii
    _table, _fps, _ = report(_find_pii)
    if "-v" in sys.argv:
        for (kind, lang), (_, _, misses) in _table.items():
            for miss in misses[:int(sys.argv[-1]) if sys.argv[-1].isdigit() else 8]:
                print("MISS", kind, lang, repr(miss.text), miss.regions)
        for source, text, matches in _fps:
            print("FP", source, [(m.type, m.value) for m in matches], repr(text[:160]))
