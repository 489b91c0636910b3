"""Text helpers of the candidate matcher: BM25 tokens, resume evidence per line, years of experience, places, phrases."""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

import jieba

from pipelines.core.text import CJK_CHAR, CJK_RANGES, Phrasebook
from pipelines.recruiter.skills import SkillVocabulary

jieba.setLogLevel(logging.WARNING)

_CJK = CJK_RANGES
_RUN = re.compile(rf"[{_CJK}]+|[a-z0-9\u00e0-\u024f][a-z0-9\u00e0-\u024f+#]*")
_STOP_EN = frozenset(
    "a about above after again all also am an and any are as at be because been before being below between both but by "
    "can could did do does doing down during each etc few for from further had has have having he her here hers him his "
    "how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over "
    "own per same she should so some such than that the their them then there these they this those through to too under "
    "until up us very via was we were what when where which while who whom why will with within would you your yours".split())
_STOP_ZH = frozenset("的 了 和 与 及 或 等 在 是 有 为 对 将 把 被 以 于 中 上 下 我 你 他 她 们 个 年 月 日 并 也 及其 以及 "
                     "其中 相关 进行 负责 熟悉 能够 具有 具备 以上 优先 一个 一些 我们 通过 主要".split())


def compact(text: str) -> str:
    """Folded without spaces or separators, so a skill the vocabulary lacks still meets "B2B销售" in "b2b 销售"."""
    return re.sub(r"[\s\-_.]+", "", fold(text))


def _stem(word: str) -> str:
    # Light on purpose: plurals and -ing/-ed meet their base form, and nothing else is cut that a skill name could lose.
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ing") and len(word) > 6:
        return word[:-3]
    if word.endswith("ed") and len(word) > 5:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


class Tokenizer:
    """English lower-cased, stop-worded and stemmed; Chinese cut by jieba with the skills' Chinese names as words."""

    def __init__(self, vocab: SkillVocabulary) -> None:
        # A tokenizer of our own, not jieba's global one: the skill words must not change other modules' cuts.
        self._jieba = jieba.Tokenizer()
        self._jieba.initialize()
        for word in vocab.jieba_words():
            if re.fullmatch(rf"[{_CJK}]+", word):
                self._jieba.add_word(word, freq=50_000)
        self._en: dict[str, str | None] = {}

    def __call__(self, text: str) -> list[str]:
        tokens: list[str] = []
        for match in _RUN.finditer((text or "").lower()):
            token = match.group()
            if token[0] >= "\u3400":
                # Dictionary words only (no HMM guesses at unknown ones), whole: search mode's extra parts of long words
                # ("工程师" in "推荐算法工程师") scored worse on the dev set and cost time.
                tokens += [w for w in self._jieba.cut(token, HMM=False) if len(w) > 1 and w not in _STOP_ZH]
                continue
            stem = self._en.get(token, "")
            if stem == "":
                stem = self._en[token] = None if token in _STOP_EN or token.isdigit() else _stem(token)
            if stem:
                tokens.append(stem)
        return tokens


# -- where a skill is mentioned: work experience is evidence, a skills list or a course is a claim ------------------

EVIDENCE = {"exp": 1.0, "other": 0.6, "list": 0.35, "edu": 0.2}
LIST_LINE_SKILLS = 5  # a line of this many short items outside a job entry reads as a keyword list
_ITEMS = re.compile(r"[,，、;；|｜/]|\band\b")
_HEADERS = {
    "exp": "experience|work experience|professional experience|employment|employment history|work history|career|"
           "projects|project experience|internships?|工作经历|工作经验|职业经历|项目经历|项目经验|实习经历|经历|项目",
    "list": "skills|technical skills|core skills|key skills|skills & tools|tools|tech stack|technologies|keywords|"
            "core competencies|competencies|expertise|stack|技能|专业技能|技能清单|核心能力|技术栈|个人技能|技能特长|掌握技能",
    "edu": "education|training|courses|certifications?|certificates?|certs|learning|languages|publications|"
           "教育|教育背景|教育经历|学历|培训|培训经历|证书|资格证书|专业资格|课程|语言|其他",
    "other": "summary|profile|about|about me|objective|personal statement|个人简介|自我评价|个人优势|概述|职业概述|求职意向",
}
_HEADER = re.compile(r"^[\W_]*(?:(?P<exp>{exp})|(?P<list>{list})|(?P<edu>{edu})|(?P<other>{other}))\b"
                     r"(?P<rest>[^:：\n]{{0,24}}[:：](?P<body>.*)|\s*(?:\([^)]*\))?\s*)$".format(**_HEADERS), re.I)
# A dated line with a degree is education, not a job; a course or bootcamp anywhere is learning, not work.
_DEGREE = re.compile(r"本科|硕士|博士|大专|专科|学士|研究生|bachelor|master'?s?\b|\bb\.?sc|\bm\.?sc|\bb\.?a\.?\b|ph\.?d|\bmba\b|"
                     r"diplom|degree|a-levels|abitur|high school|gymnasium|\bhons\b", re.I)
_COURSE = re.compile(r"udemy|coursera|edx\b|bootcamp|boot camp|tutorial|mooc|online course|"
                     r"在线学习|网课|培训|就业班|课程《", re.I)
# A line about what the candidate is learning, plans or lacks names skills they do not (yet) practise.
_ASPIRING = re.compile(r"\bnot yet\b|\bin progress\b|\(learning\)|\bcurrently learning\b|\bbasics\b|\bbeginners?\b|"
                       r"\baspiring\b|\b(?:want|hope|plan(?:ning)?|keen) to (?:learn|move into|get into)\b|"
                       r"尚未|未取得|暂未|备考|在考|预计|学习中|入门|计划学习|正在学习|正在了解|希望(?:转|从事|发展)", re.I)
# DATE_RANGE (pipelines.core.resume_files) with month names and the spellings it lacks: "2021.03 至今", "2021–heute",
# "Jan 2020 – Mar 2022"; it tells a resume from other text, this one has to find every job's span.
_RANGE = re.compile(r"((?:19|20)\d{2})(?:\s*[./年-]\s*(\d{1,2})(?!\d)月?)?(?:\s*(?:-|–|—|~|to|until|bis|至|到)\s*|\s*(?=至今))"
                    r"(?:[a-z]{3,9}\.?\s+)?((?:19|20)\d{2}(?:\s*[./年-]\s*\d{1,2}(?!\d))?|present|now|current|today|date|"
                    r"heute|ongoing|至今|现在)", re.I)
_BULLET = re.compile(r"^\s+|^[-–•·*▪◦●○■□>]|^\d+[.、)]")


def resume_lines(text: str) -> list[tuple[str, str]]:
    """(line, kind) per non-empty line, kind one of EVIDENCE's keys; a keyword list is recognised later by its size."""
    out: list[tuple[str, str]] = []
    section, in_entry = "other", False
    for raw in (text or "").splitlines():
        line = raw.strip()
        if not line:
            in_entry = False
            continue
        header = _HEADER.match(line) if len(line) <= 40 or ":" in line[:40] or "：" in line[:40] else None
        if header and (header.group("body") is not None or len(line) <= 40):
            section = next(k for k in EVIDENCE if header.group(k))
            in_entry = False
            line = raw = (header.group("body") or "").strip()  # "Skills: Java, Kafka" is a header and a line
            if not line:
                continue
        dated = bool(_RANGE.search(line))
        if _COURSE.search(line) or _ASPIRING.search(line) or ((section == "other" or dated) and _DEGREE.search(line)):
            out.append((line, "edu"))
        elif dated and section != "edu":
            in_entry = True
            out.append((line, "exp"))
        elif section == "exp" or (in_entry and (_BULLET.match(raw) or section == "other")):
            out.append((line, "exp"))
        else:
            in_entry = False
            out.append((line, section))
    return out


def _listing(line: str, vocab: SkillVocabulary) -> bool:
    """A line of many short items, most of them skills ("passionate about Java, Spring, Kafka, ...") is a keyword list."""
    items = [item for item in _ITEMS.split(line) if item.strip()]
    short = sum(len(item.split()) <= 3 and len(CJK_CHAR.findall(item)) <= 6 for item in items)
    return short >= LIST_LINE_SKILLS and short > 0.7 * len(items) and len(vocab.extract(line)) >= LIST_LINE_SKILLS


def skill_evidence(vocab: SkillVocabulary, lines: list[tuple[str, str]], listed: tuple[str, ...] = ()) -> dict[str, float]:
    """skill id -> how strongly the resume's lines (`resume_lines`) back it, by its best mention (EVIDENCE)."""
    # Lines of one kind are read as one block: the skills matcher's cost grows with the text read, so each line is
    # read once, and an ambiguous name ("Go") finds the context it needs among the other lines of its kind.
    blocks: dict[str, list[str]] = {kind: [] for kind in EVIDENCE}
    for line, kind in lines:
        blocks["list" if kind == "other" and _listing(line, vocab) else kind].append(line)
    best: dict[str, float] = {}
    for kind, block in blocks.items():
        for skill in vocab.extract("\n".join(block)) if block else ():
            best[skill] = max(best.get(skill, 0.0), EVIDENCE[kind])
    for name in listed:
        skill = vocab.normalise(name)
        if skill:
            best[skill] = max(best.get(skill, 0.0), EVIDENCE["list"])
    return best


# -- years of experience ----------------------------------------------------------------------------------------

_YEAR_MONTH = re.compile(r"((?:19|20)\d{2})(?:\s*[./年-]\s*(\d{1,2})(?!\d))?")
_NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                            "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_NUMBER = r"(\d{1,2}(?:\.\d)?|" + "|".join(_NUMBER_WORDS) + ")"
_CLAIM_EN = re.compile(rf"(?<![\w.]){_NUMBER}(?:\s+and\s+a\s+half)?\+?\s*(?:years?|yrs?)\b(?!\s+old)", re.I)
_ZH_NUMBER = r"(\d{1,2}(?:\.\d)?|[一二两三四五六七八九十]+)"
_CLAIM_ZH = re.compile(rf"(?:工作年限|工作经验|经验)[:：]?\s*{_ZH_NUMBER}\s*年(半)?|"
                       rf"{_ZH_NUMBER}\s*年(半)?(?:以上|多|左右)?[的\s]*[{_CJK}A-Za-z/+ ]{{0,12}}?(?:经验|工作)|"
                       r"工作\s*(\d{1,2})\s*年")


def _zh_number(text: str) -> float:
    if text[0].isdigit():
        return float(text)
    if text.startswith("十"):
        return 10 + _ZH_DIGITS.get(text[1:2], 0)
    return _ZH_DIGITS.get(text[0], 0) * (10 if "十" in text else 1) + (_ZH_DIGITS.get(text[-1], 0) if len(text) > 2 else 0)


def _claimed_years(text: str) -> float | None:
    """A number of years the resume's opening lines state ("Eight years in DevOps", "6 年 Java 开发经验")."""
    head = "\n".join((text or "").splitlines()[:8])
    m = _CLAIM_ZH.search(head)
    if m:
        number = next(g for g in (m.group(1), m.group(3), m.group(5)) if g)
        return _zh_number(number) + (0.5 if m.group(2) or m.group(4) else 0.0)
    m = _CLAIM_EN.search(head)
    if m:
        word = m.group(1).lower()
        return float(_NUMBER_WORDS.get(word, word)) + (0.5 if "half" in m.group(0).lower() else 0.0)
    return None


def resume_years(text: str, today: date | None = None, lines: list[tuple[str, str]] | None = None) -> float | None:
    """Years of work the resume's dated job entries cover (overlaps once), else the years it claims, else None."""
    today = today or date.today()
    now = today.year + (today.month - 1) / 12
    spans: list[tuple[float, float]] = []
    internships = False
    for line, kind in resume_lines(text) if lines is None else lines:
        if kind == "exp" and re.search(r"实习|intern(?!al|ation)", line, re.I):
            internships = internships or bool(_RANGE.search(line))
            continue  # internships are not the professional years a job asks for
        if kind != "exp":
            continue
        for m in _RANGE.finditer(line):
            start = int(m.group(1)) + (int(m.group(2)) - 1) / 12 if m.group(2) else float(m.group(1))
            ends = _YEAR_MONTH.findall(m.group(3))
            end = int(ends[0][0]) + (int(ends[0][1]) / 12 if ends[0][1] else 0.0) if ends else now
            if start < end <= now + 1:
                spans.append((start, min(end, now)))
    if not spans:
        claimed = _claimed_years(text)
        return 0.0 if claimed is None and internships else claimed
    total, (lo, hi) = 0.0, sorted(spans)[0]
    for start, end in sorted(spans)[1:]:
        if start > hi:
            total, lo = total + hi - lo, start
        hi = max(hi, end)
    return round(total + hi - lo, 1)


# -- places -----------------------------------------------------------------------------------------------------

# Local spellings the vocabulary's places table does not list (it has the English and Chinese names).
_LOCAL_NAMES = {"münchen": "munich", "muenchen": "munich", "köln": "cologne", "wien": "vienna", "zürich": "zurich",
                "genève": "geneva", "lisboa": "lisbon", "milano": "milan", "roma": "rome", "praha": "prague",
                "warszawa": "warsaw", "bruxelles": "brussels", "bengaluru": "bangalore", "new delhi": "delhi",
                "nyc": "new_york"}
_OPEN_EN = re.compile(r"\b(?:open|willing|happy|ready|able|keen|glad|plan(?:ning)?|can|could)\s+(?:to\s+)?relocat\w*|"
                      r"\bopen\s+to\s+relocation|\brelocation\s*[:：]?\s*(?:yes|ok|possible|welcome)", re.I)
_TOWARDS = re.compile(r"\b(?:relocat\w*|mov(?:e|ing)|commut\w*)\s+to\b|(?:愿意|可以?|接受|计划|准备|即将)[^，。；\n]{0,6}?"
                      r"(?:到|去|来|搬到|迁往|前往|调往)", re.I)
_NOT_EN = re.compile(r"\b(?:not|no|never|unable|cannot|can't|won't|don't|only)\b[^.\n]{0,40}$", re.I)
_OPEN_ZH = re.compile(r"(?:可|愿意|能|接受)(?:接受)?(?:异地|外地|外派|搬迁|迁居|调动|全国)|城市不限|地点不限|全国均可")
_NOT_ZH = re.compile(r"不考虑|只考虑|不接受(?:异地|外地)|暂不考虑")


_COMBINING = re.compile(r"[\u0300-\u036f]")


def fold(text: str) -> str:
    """Case-folded without accents, so "Düsseldorf", "dusseldorf" and "DÜSSELDORF" meet."""
    text = (text or "").casefold()
    return text if text.isascii() else _COMBINING.sub("", unicodedata.normalize("NFKD", text))


@dataclass(frozen=True)
class Place:
    """Where a job is or a candidate lives: a known city (and its country), else the folded text; remote matches all."""

    city: str | None = None
    country: str | None = None
    text: str = ""
    remote: bool = False
    label: str = ""  # as written, for places the table lacks
    cities: tuple[str, ...] = ()  # every city named: "Shanghai or Beijing"

    @property
    def known(self) -> bool:
        return bool(self.city or self.country or self.text)


def _alternation(names: list[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{alternatives})(?![a-z])")


class Places:
    """The vocabulary's places table: city and country names in English, Chinese and local spellings, remote words."""

    def __init__(self, table: dict[str, Any]) -> None:
        self.names: dict[str, tuple[str, str]] = {}
        self.country_of: dict[str, str] = {}
        cities: dict[str, str] = {}
        for city in table.get("cities", []):
            zh = next((n for n in city["names"] if CJK_CHAR.search(n)), city["names"][0])
            self.names[city["id"]] = (city["names"][0], zh)
            self.country_of[city["id"]] = city.get("country", "")
            for name in city["names"]:
                cities.setdefault(fold(name), city["id"])
        for local, city_id in _LOCAL_NAMES.items():
            if city_id in self.names:
                cities.setdefault(fold(local), city_id)
        countries = {fold(name): c["id"] for c in table.get("countries", []) for name in c["names"]}
        self._city_ids, self._country_ids = cities, countries
        self._cities, self._countries = _alternation(list(cities)), _alternation(list(countries))
        self._remote = _alternation([fold(w) for w in table.get("remote", [])]) if table.get("remote") else None

    def cities(self, text: str) -> list[str]:
        return list(dict.fromkeys(self._city_ids[m.group()] for m in self._cities.finditer(fold(text))))

    def countries(self, text: str) -> list[str]:
        return list(dict.fromkeys(self._country_ids[m.group()] for m in self._countries.finditer(fold(text))))

    def is_remote(self, text: str) -> bool:
        return bool(self._remote and self._remote.search(fold(text)))

    def display(self, place: Place, lang: str = "en") -> str:
        if place.city:
            names = [self.names[city][1 if lang.startswith("zh") else 0] for city in place.cities or (place.city,)]
            return ("、" if lang.startswith("zh") else " / ").join(names)
        return place.label

    def place(self, text: str) -> Place:
        cities = self.cities(text)
        if cities:
            return Place(cities[0], self.country_of.get(cities[0]), cities=tuple(cities))
        countries = self.countries(text)
        name = re.split(r"[,，(（·|｜—-]", text)[0].strip()
        return Place(None, countries[0] if countries else None, "" if fold(name) in self._country_ids else fold(name),
                     label=" ".join(text.split())[:40])

    def of_job(self, location: str | None) -> Place:
        if not (location or "").strip():
            return Place()
        place = self.place(location or "")
        return Place(place.city, place.country, place.text, self.is_remote(location or ""), place.label, place.cities)

    def of_candidate(self, location: str | None, resume: str) -> tuple[Place, frozenset[str]]:
        """Where the candidate lives (the field, else the resume's first lines) and the cities they would work in
        ("*": anywhere, as they say they would relocate)."""
        text = (location or "").strip()
        if self.is_remote(text) and not (self.cities(text) or self.countries(text)):
            text = ""  # "Remote" says how they want to work, not where they are
        if not text:
            head = [line for line in (resume or "").splitlines() if line.strip()][:3]
            hint = re.search(r"(?:现居|居住地|所在地|所在城市|期望城市|城市|location|based in)[:：\s]*([^\n，,。|｜]{2,20})",
                             resume or "", re.I)
            text = next((line for line in head if self.cities(line) or self.countries(line)), hint.group(1) if hint else "")
        home = self.place(text) if text else Place()
        return Place(home.city, home.country, home.text, label=home.label), frozenset(home.cities) | self._willing(resume)

    def _willing(self, resume: str) -> frozenset[str]:
        """Cities the resume says the candidate would move or commute to; "*" for any."""
        text = resume or ""
        if _NOT_ZH.search(text) and not _OPEN_ZH.search(text):
            return frozenset()
        out: set[str] = set()
        for m in _TOWARDS.finditer(text):
            if not _NOT_EN.search(text[max(0, m.start() - 40):m.start()]):
                out.update(self.cities(text[m.end():m.end() + 30]))
        for m in _OPEN_EN.finditer(text):
            if not _NOT_EN.search(text[max(0, m.start() - 40):m.start()]):
                out.add("*")
        if _OPEN_ZH.search(text):
            out.add("*")
        return frozenset(out)


@cache
def places_of(vocab: SkillVocabulary) -> Places:
    return Places(vocab.places)


# -- what a recruiter reads ---------------------------------------------------------------------------------------

PHRASES = Phrasebook({
    "skills_all": ("具备全部 {n} 项必备技能：{names}", "Has all {n} required skills: {names}"),
    "skills_some": ("具备 {n} 项必备技能中的 {k} 项：{names}", "Has {k} of {n} required skills: {names}"),
    "skills_none": ("不具备 {n} 项必备技能中的任何一项", "Has none of the {n} required skills"),
    "skill_one": ("具备必备技能：{names}", "Has the required skill: {names}"),
    "skill_lacking": ("不具备必备技能：{missing}", "Lacks the required skill: {missing}"),
    "listed_only": ("（{names} 仅见于技能清单，工作经历未体现）", " ({names}: listed, not in work experience)"),
    "years": ("{years} 年工作经验", "{years} years of experience"),
    "years_min": ("{years} 年工作经验（岗位要求 {min} 年以上）", "{years} years of experience (the job asks {min}+)"),
    "years_unknown": ("工作年限不详", "Years of experience unknown"),
    "years_short": ("工作年限不足：{years} 年，岗位要求 {min} 年",
                    "Below the minimum experience: {years} years, the job asks {min}"),
    "remote": ("远程岗位，不限地点", "Remote role: any location"),
    "here": ("现居{home}", "Based in {home}"),
    "willing": ("现居{home}，愿意到{city}工作", "Based in {home}, open to working in {city}"),
    "elsewhere": ("现居{home}，岗位在{city}", "Based in {home}; the job is in {city}"),
    "place_unknown": ("所在地不详，岗位在{city}", "Location unknown; the job is in {city}"),
    "text_only": ("按简历与岗位描述的相近程度排序", "Ranked by how closely the resume matches the job description"),
})
