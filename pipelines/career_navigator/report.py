"""CareerNavigator's domain report: the integrated report, the goals and the final plan as markdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.core.markup import escape_markdown
from pipelines.core.text import Phrasebook, detect_language

HEAD = Phrasebook({
    "title": ("职业规划报告", "Career plan"),
    "empty": ("尚无报告：运行到 reporter 节点后这里会显示综合报告。",
              "No report yet: the integrated report appears here once the reporter has run."),
    "summary": ("执行摘要", "Executive summary"),
    "match": ("推荐方向：**{career}**（匹配度 {score:.0%}）", "Recommended direction: **{career}** (match {score:.0%})"),
    "iteration": ("本轮迭代", "This iteration"),
    "findings": ("关键发现", "Key findings"),
    "recommendations": ("建议", "Recommendations"),
    "analyses": ("分项分析", "The three analyses"),
    "self_insight": ("个人画像", "Self insight"),
    "industry_research": ("行业研究", "Industry research"),
    "career_analysis": ("岗位分析", "Career analysis"),
    "goals": ("职业目标", "Career goals"),
    "long_term_goals": ("长期目标", "Long term"),
    "medium_term_goals": ("中期目标", "Medium term"),
    "short_term_goals": ("短期目标", "Short term"),
    "plan": ("行动计划", "Action plan"),
    "week": ("周", "Week"),
    "task": ("任务", "Task"),
    "hours": ("小时", "Hours"),
    "deliverable": ("产出", "Deliverable"),
    "timeline": ("时间线", "Timeline"),
    "resources": ("学习资源", "Resources"),
    "notes": ("流程说明", "Workflow notes"),
    "feedback": ("反馈记录", "Feedback"),
    "criteria": ("衡量标准", "success"),
})


def _lang(state: Mapping[str, Any]) -> str:
    profile = state.get("user_profile") or {}
    return detect_language(str(profile.get("career_goals") or ""), str(profile.get("current_position") or ""))


def _t(text: Any) -> str:
    """A value from the state (the client's words, a model's text) as literal text on one line of Markdown,
    table cells included."""
    return escape_markdown("" if text is None else str(text), line_breaks=False)


def build_report(state: Mapping[str, Any]) -> str:
    lang = _lang(state)
    report = state.get("integrated_report") or {}
    goals = state.get("career_goals") or {}
    plan = state.get("final_plan") or {}
    lines = [f"# {HEAD('title', lang)}", ""]
    if not (report or goals or plan):
        return "\n".join(lines + [HEAD("empty", lang)])
    if report:
        match = report.get("career_match") or {}
        lines += [f"## {HEAD('summary', lang)}", "", _t(report.get("executive_summary", "")), "",
                  HEAD("match", lang, career=_t(match.get("recommended_career", "—")),
                       score=float(match.get("match_score", 0))), ""]
        if report.get("iteration_summary"):
            lines += [f"> **{HEAD('iteration', lang)}:** {_t(report['iteration_summary'])}", ""]
        lines += [f"### {HEAD('findings', lang)}", ""] + [f"- {_t(f)}" for f in report.get("key_findings", [])] + [""]
        lines += [f"### {HEAD('recommendations', lang)}", ""] + [f"{i}. {_t(r)}" for i, r in
                                                                  enumerate(report.get("recommendations", []), 1)] + [""]
        detailed = report.get("detailed_analysis") or {}
        if any(detailed.values()):
            lines += [f"### {HEAD('analyses', lang)}", ""]
            lines += [f"- **{HEAD(key, lang)}:** {_t(text)}" for key, text in detailed.items() if text] + [""]
    if goals:
        lines += [f"## {HEAD('goals', lang)}", ""]
        for horizon in ("long_term_goals", "medium_term_goals", "short_term_goals"):
            lines += [f"### {HEAD(horizon, lang)}", ""]
            for goal in goals.get(horizon, []):
                criteria = _t("; ".join(goal.get("success_criteria", [])))
                lines.append(f"- **{_t(goal['title'])}** ({_t(goal['timeframe'])}): {_t(goal['description'])}"
                             + (f" — *{HEAD('criteria', lang)}:* {criteria}" if criteria else ""))
            lines.append("")
    if plan:
        lines += [f"## {HEAD('plan', lang)}", "", _t(plan.get("schedule_overview", "")), "",
                  f"| {HEAD('week', lang)} | {HEAD('task', lang)} | {HEAD('hours', lang)} | {HEAD('deliverable', lang)} |",
                  "|---|---|---|---|"]
        lines += [f"| {_t(item['week'])} | {_t(item['title'])}: {_t(item['description'])} | {_t(item['hours'])} | "
                  f"{_t(item.get('deliverable', ''))} |" for item in plan.get("action_items", [])]
        lines += ["", f"### {HEAD('timeline', lang)}", ""]
        lines += [f"- **{_t(span)}:** {_t('; '.join(items))}" for span, items in (plan.get("timeline") or {}).items()]
        lines += ["", f"### {HEAD('resources', lang)}", ""] + [f"- {_t(r)}" for r in plan.get("resources", [])] + [""]
    notes = state.get("workflow_notes") or []
    if notes:
        lines += [f"## {HEAD('notes', lang)}", ""] + [f"- {_t(n)}" for n in notes] + [""]
    feedback = state.get("user_feedback_history") or []
    if feedback:
        lines += [f"## {HEAD('feedback', lang)}", ""]
        lines += [f"- {_t(f.get('stage'))} · {_t(f.get('satisfaction_level'))}: {_t(f.get('feedback_text') or '—')}"
                  for f in feedback]
    return "\n".join(lines).strip() + "\n"
