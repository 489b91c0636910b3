"""Career market data behind a provider interface (the seed's "MCP API"); offline data set by default."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from pipelines.core.paths import ASSETS_DIR

DEFAULT_MARKET_FILE = ASSETS_DIR / "market" / "career_market.json"


class MarketDataError(RuntimeError):
    """The market data source could not answer."""


@dataclass(frozen=True)
class Named:
    """An item of the data set with a Chinese and an English name."""

    id: str
    zh: str
    en: str

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Skill(Named):
    aliases: tuple[str, ...]
    category: str
    learn_weeks: int
    resources: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class Segment(Named):
    """An industry segment or a role specialization, matched by keywords."""

    keywords: tuple[str, ...]
    demand_index: int
    note_zh: str
    note_en: str
    extra_skills: tuple[str, ...] = ()

    def note(self, lang: str) -> str:
        return self.note_zh if lang == "zh" else self.note_en


@dataclass(frozen=True)
class Industry(Named):
    demand_index: int
    growth_rate_pct: float
    outlook: str
    trends_zh: tuple[str, ...]
    trends_en: tuple[str, ...]
    segments: tuple[Segment, ...]

    def trends(self, lang: str) -> tuple[str, ...]:
        return self.trends_zh if lang == "zh" else self.trends_en


@dataclass(frozen=True)
class Role(Named):
    aliases: tuple[str, ...]
    industry: str
    family: str
    demand_index: int
    openings_trend: str
    salary: dict[str, dict[str, list[int]]]
    required_skills: tuple[str, ...]
    nice_to_have: tuple[str, ...]
    summary_zh: str
    summary_en: str
    specializations: tuple[Segment, ...] = field(default=())

    def summary(self, lang: str) -> str:
        return self.summary_zh if lang == "zh" else self.summary_en


class MarketDataProvider(Protocol):
    """What the analysts ask of a market data source; a live API can implement the same calls."""

    source: str

    def find_role(self, text: str) -> Role | None: ...
    def find_roles(self, text: str) -> list[Role]: ...
    def role(self, role_id: str) -> Role | None: ...
    def roles(self) -> tuple[Role, ...]: ...
    def skill(self, skill_id: str) -> Skill | None: ...
    def skills_in(self, text: str) -> list[str]: ...
    def industry(self, industry_id: str) -> Industry | None: ...


def _segment(data: dict[str, Any]) -> Segment:
    return Segment(id=data["id"], zh=data["zh"], en=data["en"], keywords=tuple(k.lower() for k in data["keywords"]),
                   demand_index=int(data["demand_index"]), note_zh=data["note_zh"], note_en=data["note_en"],
                   extra_skills=tuple(data.get("extra_skills", ())))


# Occupational nouns and their activities mean the same role or skill: "UX design" asks for a UX designer.
_WORD_FORMS = {"engineering": "engineer", "design": "designer", "science": "scientist", "analytics": "analyst",
               "management": "manager", "marketing": "marketer", "teaching": "teacher", "nursing": "nurse",
               "development": "developer", "consulting": "consultant", "architecture": "architect",
               "accounting": "accountant", "programming": "programmer", "sales": "sale"}
_TOKEN = re.compile(r"[a-z0-9+#]+")


def _word(word: str) -> str:
    word = _WORD_FORMS.get(word, word)
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")):
        word = word[:-1]
    return _WORD_FORMS.get(word, word)


def normalize(text: str) -> str:
    """Lower-case text with English words in one form, padded so ' alias ' finds whole-word matches."""
    return " " + " ".join(_word(w) for w in _TOKEN.findall((text or "").lower())) + " "


class _Matcher:
    """Finds aliases in text: English ones as whole normalized words, Chinese ones as substrings."""

    def __init__(self, aliases: tuple[str, ...]) -> None:
        self.words = tuple({normalize(a) for a in aliases if a.isascii() and normalize(a).strip()})
        chars = [a.lower() for a in aliases if not a.isascii() and len(a) >= 2]
        # "我想做数据分析" names the work of a 数据分析师: match role names without their 师/员 suffix too.
        chars += [a[:-1] for a in chars if len(a) >= 4 and a.endswith(("师", "员"))]
        self.chars = tuple(dict.fromkeys(chars))

    def best(self, words: str, lowered: str) -> int:
        """Length of the longest alias found (0 when none): the most specific mention wins."""
        hits = [len(a) - 2 for a in self.words if a in words] + [len(a) for a in self.chars if a in lowered]
        return max(hits, default=0)


@cache
def matcher(aliases: tuple[str, ...]) -> _Matcher:
    """The matcher of a set of aliases or keywords, built once however often it is asked for."""
    return _Matcher(aliases)


def _scan(text: str) -> tuple[str, str]:
    return normalize(text), (text or "").lower()


class OfflineMarketData:
    """The shipped, illustrative data set in assets/market (see its README for where figures come from)."""

    def __init__(self, path: Path = DEFAULT_MARKET_FILE) -> None:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise MarketDataError(f"cannot read market data {path}: {exc}") from exc
        self.source = f"offline data set {Path(path).name} ({data['meta']['as_of']}, illustrative)"
        self.meta = data["meta"]
        self._skills = {sid: Skill(id=sid, zh=s["zh"], en=s["en"],
                                   aliases=tuple(a.lower() for a in [s["zh"], s["en"], *s["aliases"]]),
                                   category=s["category"], learn_weeks=int(s["learn_weeks"]),
                                   resources=tuple(s.get("resources", ())))
                        for sid, s in data["skills"].items()}
        self._industries = {i["id"]: Industry(
            id=i["id"], zh=i["zh"], en=i["en"], demand_index=int(i["demand_index"]),
            growth_rate_pct=float(i["growth_rate_pct"]), outlook=i["outlook"], trends_zh=tuple(i["trends_zh"]),
            trends_en=tuple(i["trends_en"]), segments=tuple(_segment(s) for s in i.get("segments", ())))
            for i in data["industries"]}
        self._roles = tuple(Role(
            id=r["id"], zh=r["zh"], en=r["en"], aliases=tuple(a.lower() for a in [r["zh"], r["en"], *r["aliases"]]),
            industry=r["industry"], family=r["family"], demand_index=int(r["demand_index"]),
            openings_trend=r["openings_trend"], salary=r["salary"], required_skills=tuple(r["required_skills"]),
            nice_to_have=tuple(r.get("nice_to_have", ())), summary_zh=r["summary_zh"], summary_en=r["summary_en"],
            specializations=tuple(_segment(s) for s in r.get("specializations", ()))) for r in data["roles"])
        self._role_by_id = {r.id: r for r in self._roles}
        self._role_matchers = {r.id: matcher(r.aliases) for r in self._roles}
        self._skill_matchers = {sid: matcher(skill.aliases) for sid, skill in self._skills.items()}

    def roles(self) -> tuple[Role, ...]:
        return self._roles

    def role(self, role_id: str) -> Role | None:
        return self._role_by_id.get(role_id)

    def find_roles(self, text: str) -> list[Role]:
        """Every role the text mentions, the most specific mention (longest alias) first."""
        words, lowered = _scan(text)
        scored = [(self._role_matchers[r.id].best(words, lowered), r) for r in self._roles]
        return [role for score, role in sorted(scored, key=lambda x: -x[0]) if score > 0]

    def find_role(self, text: str) -> Role | None:
        found = self.find_roles(text)
        return found[0] if found else None

    def skill(self, skill_id: str) -> Skill | None:
        return self._skills.get(skill_id)

    def skills_in(self, text: str) -> list[str]:
        words, lowered = _scan(text)
        return [sid for sid, matcher in self._skill_matchers.items() if matcher.best(words, lowered)]

    def industry(self, industry_id: str) -> Industry | None:
        return self._industries.get(industry_id)

    def industries(self) -> tuple[Industry, ...]:
        return tuple(self._industries.values())


@cache
def default_market() -> OfflineMarketData:
    return OfflineMarketData()


def matching_segments(segments: tuple[Segment, ...], focus_texts: list[str]) -> list[Segment]:
    """Segments whose keywords appear in any focus text, best demand first."""
    words, lowered = _scan(" \n".join(focus_texts))
    hits = [s for s in segments if matcher(s.keywords).best(words, lowered)]
    return sorted(hits, key=lambda s: -s.demand_index)
