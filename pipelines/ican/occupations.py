"""O*NET 30.2 occupations and the skills vocabulary, and the career matcher that ranks them for a client."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from pipelines.core.paths import ASSETS_DIR
from pipelines.core.text import join_items
from pipelines.ican.lexicon import Term, TermMatcher
from pipelines.ican.schemas import RIASEC, CareerMatch

OCCUPATIONS_DIR = ASSETS_DIR / "occupations"
SKILLS_PATH = ASSETS_DIR / "ican" / "skills.json"
INTEREST_WEIGHT, SKILL_WEIGHT, TARGET_BONUS = 0.75, 0.25, 0.08
SKILLS_FOR_FULL_FIT = 3  # sharing three of the client's skills counts as a full skill fit
TOP_MATCHES = 10


@dataclass(frozen=True)
class Occupation:
    code: str
    title: str
    title_zh: str
    interests: tuple[float, ...]  # O*NET OI scores 1–7 in RIASEC order
    high_point_code: str
    description: str
    skills: frozenset[str]


@dataclass(frozen=True)
class Skill:
    id: str
    en: str
    zh: str


@cache
def skills_vocabulary() -> tuple[dict[str, Skill], TermMatcher, TermMatcher]:
    """Skills by id, the matcher for a client's words (EN+ZH) and the one for O*NET descriptions."""
    data = json.loads(SKILLS_PATH.read_text(encoding="utf-8"))
    skills, client_terms, occupation_terms = {}, [], []
    for item in data["skills"]:
        skills[item["id"]] = Skill(item["id"], item["en"], item["zh"])
        client_terms += [Term(t, 1.0, item["id"]) for t in item.get("client_en", []) + item.get("client_zh", [])]
        occupation_terms += [Term(t, 1.0, item["id"]) for t in item.get("occupation_en", [])]
    return skills, TermMatcher(client_terms), TermMatcher(occupation_terms)


def client_skills(text: str) -> list[str]:
    """Skill ids the client claims (negated mentions such as "I can't code" left out), in the order said."""
    _, matcher, _ = skills_vocabulary()
    ordered: list[str] = []
    for hit in matcher.find(text):
        if not hit.negated and hit.term.label not in ordered:
            ordered.append(hit.term.label)
    return ordered


def skill_names(skill_ids: Sequence[str], lang: str) -> list[str]:
    skills = skills_vocabulary()[0]
    return [(skills[s].zh if lang == "zh" else skills[s].en) for s in skill_ids if s in skills]


@cache
def occupations() -> tuple[Occupation, ...]:
    _, _, description_matcher = skills_vocabulary()
    with (OCCUPATIONS_DIR / "onet_titles_zh.csv").open(encoding="utf-8", newline="") as handle:
        zh_titles = {row["onet_soc_code"]: row["title_zh"] for row in csv.DictReader(handle)}
    with (OCCUPATIONS_DIR / "occupation_interests.csv").open(encoding="utf-8", newline="") as handle:
        return tuple(Occupation(
            code=row["onet_soc_code"], title=row["title"], title_zh=zh_titles.get(row["onet_soc_code"], ""),
            interests=tuple(float(row[t]) for t in RIASEC), high_point_code=row["high_point_code"],
            description=row["description"], skills=frozenset(description_matcher.labels(row["description"])))
            for row in csv.DictReader(handle))


@cache
def occupation_by_code() -> dict[str, Occupation]:
    return {o.code: o for o in occupations()}


def _centered(values: Sequence[float]) -> list[float]:
    mean = sum(values) / len(values)
    return [v - mean for v in values]


def interest_fit(client: Sequence[float], occupation: Sequence[float]) -> float:
    """Cosine of the two profiles after centring each: it compares their shape (which types stand out),
    not their level, so a client who scores everything low still matches by what stands out."""
    a, b = _centered(client), _centered(occupation)
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return 0.0 if norm == 0 else sum(x * y for x, y in zip(a, b)) / norm


def _targets_title(target: str, occupation: Occupation) -> bool:
    target = (target or "").strip().lower()
    if len(target) < 2:
        return False
    title = occupation.title.lower()
    title_zh = occupation.title_zh.lower()
    return target in title or bool(title_zh and title_zh in target) or title.rstrip("s") in target


@dataclass(frozen=True)
class RankedOccupation:
    score: float
    fit: float
    occupation: Occupation
    shared: list[str]  # the client's skills its description names
    named: bool  # the client named it as their target


def rank_occupations(scores: Mapping[str, float], skill_ids: Sequence[str], target: str = "") -> list[RankedOccupation]:
    """Every occupation scored by interest fit, adjusted by shared skills and a named target, best first."""
    client = [float(scores.get(t, 0)) for t in RIASEC]
    wanted = set(skill_ids)
    ranked = []
    for occ in occupations():
        fit = interest_fit(client, occ.interests)
        shared = [s for s in skill_ids if s in occ.skills]
        skill_fit = min(1.0, len(shared) / min(SKILLS_FOR_FULL_FIT, len(wanted))) if wanted else 0.0
        score = INTEREST_WEIGHT * (fit + 1) / 2 + SKILL_WEIGHT * skill_fit
        named = bool(target) and _targets_title(target, occ)
        if named:
            score += TARGET_BONUS
        ranked.append(RankedOccupation(min(1.0, score), fit, occ, shared, named))
    ranked.sort(key=lambda r: (-r.score, r.occupation.code))
    return ranked


def _as_match(ranked: RankedOccupation, scores: Mapping[str, float], lang: str) -> CareerMatch:
    occ, shared = ranked.occupation, skill_names(ranked.shared, lang)
    top_types = [t for t, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:2]]
    return CareerMatch(onet_soc_code=occ.code, title=occ.title, title_zh=occ.title_zh if lang == "zh" else None,
                       score=round(ranked.score, 3), interest_fit=round(ranked.fit, 3), skill_overlap=shared,
                       high_point_code=occ.high_point_code, reason=match_reason(occ, ranked.fit, top_types, shared, lang))


def match_careers(scores: Mapping[str, float], skill_ids: Sequence[str], lang: str, target: str = "",
                  limit: int = TOP_MATCHES) -> list[CareerMatch]:
    """The best `limit` occupations for the client, with their reasons."""
    return [_as_match(r, scores, lang) for r in rank_occupations(scores, skill_ids, target)[:limit]]


def career_matches(scores: Mapping[str, float], skill_ids: Sequence[str], lang: str,
                   target: str = "") -> tuple[list[CareerMatch], dict | None]:
    """The top matches, and where the occupation the client named stands among all of them (it may be far
    from the top ten), from one ranking."""
    ranked = rank_occupations(scores, skill_ids, target)
    top = [_as_match(r, scores, lang) for r in ranked[:TOP_MATCHES]]
    named = next(((rank, r) for rank, r in enumerate(ranked, start=1) if r.named), None)
    if named is None:
        return top, None
    rank, entry = named
    return top, {"target": target, "rank": rank, "of": len(ranked), **_as_match(entry, scores, lang).model_dump()}


def match_reason(occ: Occupation, fit: float, client_top: Sequence[str], shared: Sequence[str], lang: str) -> str:
    common = [t for t in client_top if t in occ.high_point_code] or list(occ.high_point_code[:1])
    if lang == "zh":
        text = f"职业兴趣代码 {occ.high_point_code}，与你突出的 {join_items(common, lang)} 型兴趣相符（兴趣契合度 {fit:.2f}）"
        return text + (f"；用到你的技能：{join_items(shared, lang, 4)}。" if shared else "。")
    text = (f"O*NET interest code {occ.high_point_code} shares your strong {join_items(common, lang)} "
            f"interests (interest fit {fit:.2f})")
    return text + (f"; uses your skills: {join_items(shared, lang, 4)}." if shared else ".")
