"""Offline engine of CareerNavigator's analysis tasks: deterministic, driven by the profile and market data."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipelines.career_navigator.market import MarketDataProvider, Role, Segment, matching_segments
from pipelines.career_navigator.offline_text import SAY
from pipelines.career_navigator.schemas import (CareerAnalysis, FeedbackAdjustments, GoalAnalysis, IndustryBrief,
                                                IndustryResearch, PlanningStrategy, RoleOption, SegmentBrief,
                                                SelfInsight)
from pipelines.core.text import detect_language, join_items

_TIMEFRAME = re.compile(r"(\d+|[一二两三四五六七八九十半]+)\s*(个月|个?星期|周|年|months?|years?|weeks?)|年底|年内|"
                        r"by (19|20)\d\d|this year|next year|明年|今年", re.IGNORECASE)
_MOTIVE = re.compile(r"因为|热爱|兴趣|喜欢|热情|because|passion|love|enjoy|interested in", re.IGNORECASE)
_SLOWER = re.compile(r"太快|太紧|压力太大|慢一点|放慢|更多时间|时间不够|too fast|too tight|slower|more time|overwhelm",
                     re.IGNORECASE)
_FASTER = re.compile(r"太慢|更快|加快|尽快|缩短|too slow|faster|sooner|speed\b.{0,12}\bup|quicker|shorter|hurry", re.IGNORECASE)
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5,
            "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_HOURS = re.compile(r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|[一两二三四五六七八九十])"
                    r"\s*(?:个)?\s*(?:hours?|hrs?|h\b|小时)", re.IGNORECASE)
_TOPICS = {"focus.salary": r"薪资|薪酬|工资|待遇|收入|salary|pay|compensation|income",
           "focus.remote": r"远程|居家|灵活办公|remote|hybrid|flexible",
           "focus.balance": r"加班|生活平衡|work-life|balance|burnout",
           "focus.portfolio": r"作品|项目经验|portfolio|project experience",
           "focus.transition": r"转型|转岗|转行|转产品|switch|transition|career change"}
FAMILY_TRAITS = {"engineering": "trait.engineering", "data": "trait.data", "product": "trait.product",
                 "design": "trait.design", "business": "trait.business", "marketing": "trait.business",
                 "finance": "trait.business"}


@dataclass
class ProfileFacts:
    """What the engine reads from a profile once, for every task."""

    lang: str
    target: Role | None
    current: Role | None
    skills: list[str]  # skill ids the client lists
    transferable: list[str]  # skill ids the current role implies
    years: float
    focus: list[str] = field(default_factory=list)
    target_named: bool = True  # False when the client named no role and the engine suggests the best fit

    @property
    def have(self) -> set[str]:
        return set(self.skills) | set(self.transferable)

    @property
    def region(self) -> str:
        return "CN" if self.lang == "zh" else "US"


def best_fit_role(wanted: set[str], have: set[str], exclude: set[str], market: MarketDataProvider) -> Role | None:
    """For clients who name no role: the role that uses most of the skills their goal mentions ("get into
    machine learning"), then the one whose requirements they already cover best, then the higher demand."""
    def uses(role: Role) -> set[str]:
        return set(role.required_skills) | set(role.nice_to_have) | {s for sp in role.specializations for s in sp.extra_skills}

    ranked = sorted((r for r in market.roles() if r.id not in exclude),
                    key=lambda r: (-len(wanted & uses(r)), -len(wanted & set(r.required_skills)),
                                   -len(have & set(r.required_skills)) / len(r.required_skills), -r.demand_index, r.id))
    return ranked[0] if ranked else None


def read_profile(profile: Mapping[str, Any], market: MarketDataProvider, request: str = "",
                 focus: Sequence[str] = ()) -> ProfileFacts:
    current = market.find_role(str(profile.get("current_position") or ""))
    named = market.find_roles(str(profile.get("target_role") or "")) or market.find_roles(
        f"{profile.get('career_goals') or ''} \n{request}")
    # "from teaching into UX design" names both roles: the target is the one that is not the current role.
    target = next((r for r in named if current is None or r.id != current.id), named[0] if named else None)
    listed = market.skills_in(" \n".join(str(s) for s in profile.get("skills") or []) + " \n" + str(profile.get("major") or ""))
    transferable = [s for s in (current.required_skills if current else ()) if s not in listed]
    target_named = target is not None
    if target is None:
        wanted = set(market.skills_in(f"{profile.get('career_goals') or ''} \n{request}"))
        target = best_fit_role(wanted, set(listed) | set(transferable), {current.id} if current else set(), market)
    lang = detect_language(str(profile.get("career_goals") or ""), str(profile.get("current_position") or ""),
                           request, " ".join(str(s) for s in profile.get("skills") or []))
    return ProfileFacts(lang=lang, target=target, current=current, skills=listed, transferable=transferable,
                        years=float(profile.get("years_of_experience") or 0), focus=list(focus),
                        target_named=target_named)


def skill_names(ids: Sequence[str], market: MarketDataProvider, lang: str) -> list[str]:
    return [s.name(lang) for s in (market.skill(i) for i in ids) if s]


def resources_for(skill_id: str, market: MarketDataProvider, lang: str) -> list[dict[str, str]]:
    """Learning resources a client can use: own language first; English clients get no Chinese-only titles."""
    skill = market.skill(skill_id)
    pool = [r for r in skill.resources if lang == "zh" or r.get("lang") != "zh"] if skill else []
    return sorted(pool, key=lambda r: r.get("lang") != lang)


def requirements(facts: ProfileFacts) -> tuple[list[str], list[Segment]]:
    """The target role's required skills plus those of the specializations the feedback focuses on."""
    if facts.target is None:
        return [], []
    specs = matching_segments(facts.target.specializations, facts.focus) if facts.focus else []
    required = list(facts.target.required_skills)
    for spec in specs:
        required += [s for s in spec.extra_skills if s not in required]
    return required, specs


def analyse_goal(profile: Mapping[str, Any], request: str, market: MarketDataProvider) -> GoalAnalysis:
    facts = read_profile(profile, market, request)
    goals_text = f"{profile.get('career_goals') or ''} {profile.get('target_role') or ''} {request}"
    specific = bool(facts.target and matching_segments(facts.target.specializations, [goals_text]))
    checks = [
        ("clarity.target_role", 25, facts.target_named),
        ("clarity.background", 10, bool(profile.get("current_position")) and profile.get("years_of_experience") is not None),
        ("clarity.skills", 10, len(profile.get("skills") or []) >= 3),
        ("clarity.timeframe", 15, bool(profile.get("timeframe")) or bool(_TIMEFRAME.search(goals_text))),
        ("clarity.constraints", 15, bool(profile.get("constraints")) and bool(profile.get("weekly_hours"))),
        ("clarity.education", 5, bool(profile.get("education"))),
        ("clarity.specificity", 10, specific),
        ("clarity.motivation", 10, len(profile.get("interests") or []) >= 2 or bool(_MOTIVE.search(goals_text))),
    ]
    score = sum(points for _, points, ok in checks if ok)
    found = [SAY(key, facts.lang) for key, _, ok in checks if ok]
    missing = [SAY(key, facts.lang) for key, _, ok in checks if not ok]
    return GoalAnalysis(is_goal_clear=score > 70, clarity_score=score,
                        target_role=facts.target.name(facts.lang) if facts.target and facts.target_named else None,
                        missing_information=missing,
                        reasoning=SAY("clarity.reasoning", facts.lang, score=score, found=join_items(found, facts.lang),
                                      missing=join_items(missing, facts.lang)))


def plan_strategy(profile: Mapping[str, Any], goal: Mapping[str, Any], market: MarketDataProvider) -> PlanningStrategy:
    facts = read_profile(profile, market)
    lang = facts.lang
    role = facts.target.name(lang) if facts.target else SAY("plan.no_role", lang)
    industry = market.industry(facts.target.industry) if facts.target else None
    industry_name = industry.name(lang) if industry else role
    missing = goal.get("missing_information") or []
    gap_note = SAY("plan.gap_note", lang, missing=join_items(missing, lang, 4)) if missing else ""
    current = str(profile.get("current_position") or "—")
    questions = [SAY(f"plan.question.{key}", lang) for key in ("target_role", "timeframe", "constraints")
                 if SAY(f"clarity.{key}", lang) in missing]
    return PlanningStrategy(
        strategy=SAY("plan.strategy", lang, score=goal.get("clarity_score", 0), role=role, industry=industry_name,
                     gap_note=gap_note).strip(),
        analysis_priorities=[SAY("plan.priority.transfer", lang, role=role),
                             SAY("plan.priority.market", lang, industry=industry_name),
                             SAY("plan.priority.path", lang, current=current, role=role)],
        open_questions=questions)


def feedback_adjustments(feedback_text: str, profile: Mapping[str, Any], market: MarketDataProvider) -> FeedbackAdjustments:
    """Focus areas drawn from the feedback: role specializations, industry segments, skills and topics it names."""
    facts = read_profile(profile, market)
    lang = detect_language(feedback_text) if feedback_text.strip() else facts.lang
    segments: list[Segment] = []
    if facts.target is not None:
        segments += matching_segments(facts.target.specializations, [feedback_text])
        industry = market.industry(facts.target.industry)
        segments += matching_segments(industry.segments, [feedback_text]) if industry else []
    focus = [s.name(lang) for s in segments]
    keywords = sorted({k for s in segments for k in s.keywords if k in feedback_text.lower()})
    skills = skill_names(market.skills_in(feedback_text), market, lang)
    focus += [s for s in skills if s not in focus]
    focus += [SAY(key, lang) for key, pattern in _TOPICS.items() if re.search(pattern, feedback_text, re.IGNORECASE)]
    pace = "slower" if _SLOWER.search(feedback_text) else ("faster" if _FASTER.search(feedback_text) else "same")
    hours = _HOURS.search(feedback_text)
    weekly_hours = (int(hours.group(1)) if hours.group(1).isdigit() else _NUMBERS[hours.group(1).lower()]) if hours else None
    focus = list(dict.fromkeys(focus))[:5]
    note = SAY("focus.note", lang, focus=join_items(focus, lang)) if focus else SAY("focus.none", lang)
    return FeedbackAdjustments(focus_areas=focus, keywords=keywords + skills, pace=pace, notes=note,
                               weekly_hours=weekly_hours if weekly_hours and 1 <= weekly_hours <= 80 else None)


def profile_insight(profile: Mapping[str, Any], focus: Sequence[str], market: MarketDataProvider) -> SelfInsight:
    facts = read_profile(profile, market, focus=focus)
    lang = facts.lang
    required, specs = requirements(facts)
    matched = [s for s in required if s in facts.have]
    missing = [s for s in required if s not in facts.have]
    family = facts.current.family if facts.current else "other"
    traits = SAY(FAMILY_TRAITS.get(family, "trait.other"), lang).split("|")
    strengths = list(dict.fromkeys(traits + skill_names(matched, market, lang)))[:6]
    gaps = skill_names(missing, market, lang)
    pct = round(100 * len(matched) / len(required)) if required else 0
    notes = []
    for spec in specs:
        lacking = skill_names([s for s in spec.extra_skills if s not in facts.have], market, lang)
        notes.append(SAY("insight.focus", lang, focus=spec.name(lang), skills=join_items(lacking, lang)) if lacking
                     else SAY("insight.focus_ok", lang, focus=spec.name(lang)))
    role = facts.target.name(lang) if facts.target else "—"
    return SelfInsight(
        summary=SAY("insight.summary", lang, role=role, matched=len(matched), total=len(required), pct=pct,
                    strengths=join_items(strengths, lang, 3), gaps=join_items(gaps, lang, 3)),
        strengths=strengths, improvement_areas=gaps, transferable_skills=skill_names(
            [s for s in facts.transferable if s in required], market, lang),
        skill_match_pct=pct, focus_notes=notes)


def research_industry(profile: Mapping[str, Any], focus: Sequence[str], market: MarketDataProvider) -> IndustryResearch:
    facts = read_profile(profile, market, focus=focus)
    lang = facts.lang
    ids = [r.industry for r in (facts.target, facts.current) if r]
    industries = [i for i in (market.industry(x) for x in dict.fromkeys(ids)) if i] or list(market.industries())[:1]
    primary = industries[0]
    pool = list(primary.segments) + list(facts.target.specializations if facts.target else ())
    segments = matching_segments(tuple(pool), list(focus)) if focus else []
    shown = segments or sorted(pool, key=lambda s: -s.demand_index)[:2]
    focus_line = SAY("industry.focus", lang, segments=join_items([s.name(lang) for s in segments], lang)) if segments else ""
    return IndustryResearch(
        summary=SAY("industry.summary", lang, industry=primary.name(lang), demand=primary.demand_index,
                    growth=primary.growth_rate_pct, outlook=SAY(f"outlook.{primary.outlook}", lang),
                    focus=focus_line).strip(),
        industries=[IndustryBrief(name=i.name(lang), demand_index=i.demand_index, growth_rate_pct=i.growth_rate_pct,
                                  outlook=SAY(f"outlook.{i.outlook}", lang)) for i in industries],
        trends=list(primary.trends(lang)),
        focus_segments=[SegmentBrief(name=s.name(lang), demand_index=s.demand_index, note=s.note(lang)) for s in shown],
        outlook=SAY(f"outlook.{primary.outlook}", lang))


def salary_level(facts: ProfileFacts) -> str:
    level = 0 if facts.years < 3 else (1 if facts.years < 8 else 2)
    if facts.current is None or facts.target is None or facts.current.family != facts.target.family:
        level = max(0, level - 1)  # a move into a new family usually starts a level lower
    return ("junior", "mid", "senior")[level]


def salary_band(role: Role, facts: ProfileFacts) -> str:
    level = salary_level(facts)
    low, high = role.salary[facts.region][level]
    return SAY(f"salary.{facts.region}", facts.lang, low=low, high=high, level=SAY(f"level.{level}", facts.lang))


def match_score(facts: ProfileFacts, required: Sequence[str]) -> float:
    coverage = sum(1 for s in required if s in facts.have) / len(required) if required else 0.0
    same_family = facts.current is not None and facts.target is not None and facts.current.family == facts.target.family
    experience = min(facts.years, 10) / (10 if same_family else 20)
    demand = (facts.target.demand_index / 100) if facts.target else 0.0
    return round(0.6 * coverage + 0.2 * experience + 0.2 * demand, 2)


def analyse_career(profile: Mapping[str, Any], focus: Sequence[str], market: MarketDataProvider) -> CareerAnalysis:
    facts = read_profile(profile, market, focus=focus)
    lang = facts.lang
    target = facts.target or (facts.current or market.roles()[0])
    facts.target = target
    required, specs = requirements(facts)
    missing = [s for s in required if s not in facts.have]
    score = match_score(facts, required)
    level = SAY(f"level.{salary_level(facts)}", lang)
    topic = specs[0].name(lang) if specs else target.name(lang)
    others = sorted((r for r in market.roles() if r.id not in {target.id, facts.current.id if facts.current else ""}),
                    key=lambda r: (-len(facts.have & set(r.required_skills)), -r.demand_index, r.id))[:3]
    shown_specs = specs or sorted(target.specializations, key=lambda s: -s.demand_index)[:2]
    suggested = "" if facts.target_named else SAY("career.suggested", lang) + " "
    return CareerAnalysis(
        summary=suggested + SAY("career.summary", lang, role=target.name(lang), role_summary=target.summary(lang),
                    demand=target.demand_index, salary=salary_band(target, facts), score=score),
        target_role=target.name(lang), match_score=score, salary_band=salary_band(target, facts),
        demand=SAY("career.demand", lang, demand=target.demand_index,
                   trend=SAY(f"outlook.{target.openings_trend}", lang)),
        required_skills=skill_names(required, market, lang), missing_skills=skill_names(missing, market, lang),
        entry_path=[SAY("path.inside", lang, role=target.name(lang)),
                    SAY("path.close_gaps", lang, skills=join_items(skill_names(missing, market, lang), lang, 3)),
                    SAY("path.project", lang, topic=topic),
                    SAY("path.apply", lang, level=level, role=target.name(lang))],
        alternative_roles=[RoleOption(title=r.name(lang),
                                      fit_pct=round(100 * len(facts.have & set(r.required_skills)) / len(r.required_skills)),
                                      reason=SAY("alt.reason", lang, n=len(facts.have & set(r.required_skills))))
                           for r in others],
        focus_specializations=[SegmentBrief(name=s.name(lang), demand_index=s.demand_index, note=s.note(lang))
                               for s in shown_specs])
