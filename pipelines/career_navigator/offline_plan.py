"""Offline engine of CareerNavigator's integration and planning tasks: report, goals, schedule."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pipelines.career_navigator.market import MarketDataProvider
from pipelines.career_navigator.offline import read_profile, requirements, resources_for, skill_names
from pipelines.career_navigator.offline_text import SAY
from pipelines.career_navigator.plan_text import PLAN
from pipelines.career_navigator.schemas import (CareerGoal, CareerGoals, CareerMatch, FinalPlan, IntegratedReport,
                                                ScheduleItem)
from pipelines.core.text import clip, join_items


def skill_gaps(profile: Mapping[str, Any], focus: Sequence[str], market: MarketDataProvider,
               first: Sequence[str] = ()) -> list[str]:
    """Missing skill ids for the target role, those the client asked about first."""
    facts = read_profile(profile, market, focus=focus)
    required, _ = requirements(facts)
    missing = [s for s in required if s not in facts.have]
    asked = [s for s in first if s not in facts.have]  # "while teaching" from a teacher is context, not a wish
    return list(dict.fromkeys(asked + missing))


def integrate_report(profile: Mapping[str, Any], insight: Mapping[str, Any], industry: Mapping[str, Any],
                     career: Mapping[str, Any], iteration: int, feedback_text: str, focus: Sequence[str],
                     previous: Mapping[str, Any] | None, market: MarketDataProvider) -> IntegratedReport:
    facts = read_profile(profile, market, focus=focus)
    lang = facts.lang
    _, specs = requirements(facts)
    role = career.get("target_role") or "—"
    career_label = SAY("report.career_focus", lang, role=role, focus=join_items([s.name(lang) for s in specs], lang, 2)) \
        if specs else role
    primary = (industry.get("industries") or [{}])[0]
    summary = SAY("report.summary", lang, current=profile.get("current_position") or "—", career=career_label,
                  score=career.get("match_score", 0), strengths=join_items(insight.get("strengths", []), lang, 3),
                  gaps=join_items(insight.get("improvement_areas", []), lang, 3), industry=primary.get("name", "—"),
                  demand=primary.get("demand_index", "—"), growth=primary.get("growth_rate_pct", "—"))
    if focus:
        summary += " " + SAY("report.focus_summary", lang, focus=join_items(focus, lang))
    findings = [SAY("report.finding.match", lang, pct=insight.get("skill_match_pct", 0)),
                SAY("report.finding.salary", lang, role=role, salary=career.get("salary_band", "—"))]
    findings += [SAY("report.finding.trend", lang, trend=t) for t in (industry.get("trends") or [])[:2]]
    findings += [SAY("report.finding.segment", lang, segment=s["name"], demand=s["demand_index"], note=s.get("note", ""))
                 for s in (industry.get("focus_segments") or [])[:2]]
    findings += list(insight.get("focus_notes") or [])
    alternatives = [a["title"] for a in career.get("alternative_roles") or []]
    if alternatives:
        findings.append(SAY("report.finding.alt", lang, roles=join_items(alternatives, lang)))
    gaps = skill_gaps(profile, focus, market)
    recommendations = []
    for skill_id in gaps[:4]:
        skill = market.skill(skill_id)
        resource = next((r["title"] for r in resources_for(skill_id, market, lang)), None)
        recommendations.append(SAY("report.rec.skill", lang, skill=skill.name(lang), resource=resource) if resource
                               else SAY("report.rec.skill_plain", lang, skill=skill.name(lang)))
    topic = specs[0].name(lang) if specs else role
    recommendations += [SAY("report.rec.project", lang, topic=topic), SAY("report.rec.network", lang, role=role)]
    iteration_summary = None
    if iteration > 0:
        # A run from before feedback needed a reason may have none: say so instead of quoting nothing.
        key = "report.iteration" if (feedback_text or "").strip() else "report.iteration_no_text"
        iteration_summary = SAY(key, lang, n=iteration + 1, feedback=clip(feedback_text, 60),
                                focus=join_items(focus, lang) if focus else SAY("report.focus_unchanged", lang),
                                changes=_changes(previous, career_label, gaps, industry, market, lang))
    return IntegratedReport(executive_summary=summary,
                            career_match=CareerMatch(recommended_career=career_label,
                                                     match_score=float(career.get("match_score", 0))),
                            key_findings=findings, recommendations=recommendations, iteration_summary=iteration_summary)


def _changes(previous: Mapping[str, Any] | None, career_label: str, gaps: Sequence[str], industry: Mapping[str, Any],
             market: MarketDataProvider, lang: str) -> str:
    if not previous:
        return SAY("report.change.none", lang)
    changes = []
    old_career = (previous.get("career_match") or {}).get("recommended_career")
    if old_career and old_career != career_label:
        changes.append(SAY("report.change.career", lang, old=old_career, new=career_label))
    old_text = " ".join(previous.get("recommendations") or [])
    new_skills = [n for n in skill_names(gaps[:4], market, lang) if n not in old_text]
    if new_skills:
        changes.append(SAY("report.change.gaps", lang, skills=join_items(new_skills, lang)))
    old_findings = " ".join(previous.get("key_findings") or [])
    new_segments = [s["name"] for s in industry.get("focus_segments") or [] if s["name"] not in old_findings]
    if new_segments:
        changes.append(SAY("report.change.segments", lang, segments=join_items(new_segments, lang)))
    return ("；" if lang == "zh" else "; ").join(changes) if changes else SAY("report.change.none", lang)


def _timeframe(key: str, pace: str, lang: str) -> str:
    return PLAN(f"timeframe.{key}.{pace}", lang)


def decompose_goals(profile: Mapping[str, Any], direction: str, focus: Sequence[str], pace: str,
                    first_skills: Sequence[str], market: MarketDataProvider) -> CareerGoals:
    facts = read_profile(profile, market, focus=focus)
    lang = facts.lang
    _, specs = requirements(facts)
    role = facts.target.name(lang) if facts.target else direction
    topic = specs[0].name(lang) if specs else role
    industry = market.industry(facts.target.industry) if facts.target else None
    gaps = skill_gaps(profile, focus, market, first=first_skills)
    short = []
    for skill_id in gaps[:3]:
        skill = market.skill(skill_id)
        resource = next((r["title"] for r in resources_for(skill_id, market, lang)), "")
        short.append(CareerGoal(title=PLAN("goal.short.title", lang, skill=skill.name(lang)),
                                description=PLAN("goal.short.desc", lang, skill=skill.name(lang), role=role),
                                timeframe=_timeframe("short", pace, lang),
                                success_criteria=[c for c in (PLAN("goal.short.c1", lang, resource=resource) if resource else "",
                                                              PLAN("goal.short.c2", lang, skill=skill.name(lang))) if c],
                                related_skills=[skill.name(lang)]))
    if not short:
        short.append(CareerGoal(title=PLAN("goal.short.deepen", lang, role=role),
                                description=PLAN("goal.short.deepen_desc", lang, topic=topic),
                                timeframe=_timeframe("short", pace, lang),
                                success_criteria=[PLAN("goal.short.c2", lang, skill=topic)], related_skills=[topic]))
    medium = [CareerGoal(title=PLAN("goal.medium.role", lang, role=direction),
                         description=PLAN("goal.medium.role_desc" if specs else "goal.medium.role_desc_plain", lang,
                                          role=role, topic=topic),
                         timeframe=_timeframe("medium", pace, lang),
                         success_criteria=[PLAN("goal.medium.c1", lang, topic=topic), PLAN("goal.medium.c2", lang)],
                         related_skills=skill_names(gaps[3:6], market, lang)),
              CareerGoal(title=PLAN("goal.medium.network", lang,
                                    industry=industry.name(lang) if industry else direction),
                         description=PLAN("goal.medium.network_desc", lang, role=role),
                         timeframe=_timeframe("medium", pace, lang),
                         success_criteria=[PLAN("goal.medium.c3", lang)], related_skills=[])]
    long = [CareerGoal(title=PLAN("goal.long.title", lang, role=direction),
                       description=PLAN("goal.long.desc", lang, topic=topic),
                       timeframe=_timeframe("long", pace, lang),
                       success_criteria=[PLAN("goal.long.c1", lang, topic=topic), PLAN("goal.long.c2", lang)],
                       related_skills=[])]
    return CareerGoals(long_term_goals=long, medium_term_goals=medium, short_term_goals=short)


def build_schedule(profile: Mapping[str, Any], goals: Mapping[str, Any], focus: Sequence[str], pace: str,
                   first_skills: Sequence[str], market: MarketDataProvider) -> FinalPlan:
    """An 8-to-12-week plan: one block of weeks per skill gap, then a project and the applications."""
    facts = read_profile(profile, market, focus=focus)
    lang = facts.lang
    _, specs = requirements(facts)
    role = facts.target.name(lang) if facts.target else "—"
    topic = specs[0].name(lang) if specs else role
    hours = int(profile.get("weekly_hours") or 8)
    gaps = skill_gaps(profile, focus, market, first=first_skills)[:5]
    if not gaps and facts.target:
        gaps = [s for s in facts.target.nice_to_have if s not in facts.have][:3] or list(facts.target.required_skills[:2])
    study = sum(market.skill(s).learn_weeks for s in gaps) * 8 / hours
    total = min(12, max(8, math.ceil(study) + 2 + {"slower": 2, "faster": -2}.get(pace, 0)))
    blocks = _allocate(gaps, total - 2, market)
    items, timeline, week = [], {}, 1
    for skill_id, weeks in blocks:
        skill = market.skill(skill_id)
        name = skill.name(lang)
        resource = next((r["title"] for r in resources_for(skill_id, market, lang)), name)
        for offset in range(weeks):
            phase = "learn" if offset == 0 else ("practice" if offset < weeks - 1 or weeks == 2 else "apply")
            items.append(ScheduleItem(week=week + offset, title=PLAN("week.title", lang, week=week + offset, skill=name),
                                      description=PLAN(f"week.{phase}", lang, skill=name, resource=resource, role=role),
                                      skill=name, hours=hours, deliverable=PLAN(f"deliverable.{phase}", lang, skill=name)))
        timeline[_weeks(week, week + weeks - 1, lang)] = [PLAN("timeline.skill", lang, skill=name)]
        week += weeks
    for key in ("project", "jobs"):
        items.append(ScheduleItem(week=week, title=PLAN(f"week.{key}.title", lang, week=week, topic=topic, role=role),
                                  description=PLAN(f"week.{key}.desc", lang, topic=topic, role=role), skill=None,
                                  hours=hours, deliverable=PLAN(f"deliverable.{key}", lang, topic=topic)))
        timeline[_weeks(week, week, lang)] = [PLAN(f"timeline.{key}", lang, topic=topic, role=role)]
        week += 1
    resources = []
    for skill_id in gaps:
        resources += [PLAN("resource", lang, title=r["title"], kind=PLAN(f"kind.{r['kind']}", lang))
                      for r in resources_for(skill_id, market, lang)[:2]]
    overview = PLAN("overview", lang, weeks=total, hours=hours, skills=join_items(skill_names(gaps, market, lang), lang),
                    topic=topic, pace=PLAN(f"pace.{pace}", lang))
    if profile.get("constraints"):
        overview += (" " if lang == "en" else "") + PLAN(
            "overview.constraints", lang, constraints=join_items([str(c) for c in profile["constraints"]], lang))
    return FinalPlan(schedule_overview=overview,
                     total_weeks=total, action_items=items, timeline=timeline, resources=list(dict.fromkeys(resources)))


def _weeks(start: int, end: int, lang: str) -> str:
    return PLAN("week.single", lang, start=start) if start == end else PLAN("week.range", lang, start=start, end=end)


def _allocate(gaps: Sequence[str], weeks: int, market: MarketDataProvider) -> list[tuple[str, int]]:
    """Share the study weeks among the gaps in proportion to how long each takes to learn (at least one each)."""
    gaps = list(gaps)[:weeks]
    if not gaps:
        return []
    needs = [market.skill(s).learn_weeks for s in gaps]
    shares = [max(1, math.floor(weeks * n / sum(needs))) for n in needs]
    index = 0
    while sum(shares) < weeks:
        shares[index % len(shares)] += 1
        index += 1
    while sum(shares) > weeks:
        largest = shares.index(max(shares))
        shares[largest] -= 1
    return list(zip(gaps, shares))
