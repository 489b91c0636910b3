"""CareerNavigator's domain report: the integrated report, the goals and the final plan as markdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


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
        lines += [f"## {HEAD('summary', lang)}", "", report.get("executive_summary", ""), "",
                  HEAD("match", lang, career=match.get("recommended_career", "—"), score=float(match.get("match_score", 0))), ""]
        if report.get("iteration_summary"):
            lines += [f"> **{HEAD('iteration', lang)}:** {report['iteration_summary']}", ""]
        lines += [f"### {HEAD('findings', lang)}", ""] + [f"- {f}" for f in report.get("key_findings", [])] + [""]
        lines += [f"### {HEAD('recommendations', lang)}", ""] + [f"{i}. {r}" for i, r in
                                                                  enumerate(report.get("recommendations", []), 1)] + [""]
        detailed = report.get("detailed_analysis") or {}
        if any(detailed.values()):
            lines += [f"### {HEAD('analyses', lang)}", ""]
            lines += [f"- **{HEAD(key, lang)}:** {text}" for key, text in detailed.items() if text] + [""]
    if goals:
        lines += [f"## {HEAD('goals', lang)}", ""]
        for horizon in ("long_term_goals", "medium_term_goals", "short_term_goals"):
            lines += [f"### {HEAD(horizon, lang)}", ""]
            for goal in goals.get(horizon, []):
                criteria = "; ".join(goal.get("success_criteria", []))
                lines.append(f"- **{goal['title']}** ({goal['timeframe']}): {goal['description']}"
                             + (f" — *{HEAD('criteria', lang)}:* {criteria}" if criteria else ""))
            lines.append("")
    if plan:
        lines += [f"## {HEAD('plan', lang)}", "", plan.get("schedule_overview", ""), "",
                  f"| {HEAD('week', lang)} | {HEAD('task', lang)} | {HEAD('hours', lang)} | {HEAD('deliverable', lang)} |",
                  "|---|---|---|---|"]
        lines += [f"| {item['week']} | {_cell(item['title'])}: {_cell(item['description'])} | {item['hours']} | "
                  f"{_cell(item.get('deliverable', ''))} |" for item in plan.get("action_items", [])]
        lines += ["", f"### {HEAD('timeline', lang)}", ""]
        lines += [f"- **{span}:** {'; '.join(items)}" for span, items in (plan.get("timeline") or {}).items()]
        lines += ["", f"### {HEAD('resources', lang)}", ""] + [f"- {r}" for r in plan.get("resources", [])] + [""]
    notes = state.get("workflow_notes") or []
    if notes:
        lines += [f"## {HEAD('notes', lang)}", ""] + [f"- {n}" for n in notes] + [""]
    feedback = state.get("user_feedback_history") or []
    if feedback:
        lines += [f"## {HEAD('feedback', lang)}", ""]
        lines += [f"- `{f['stage']}` · {f['satisfaction_level']}: {f['feedback_text'] or '—'}" for f in feedback]
    return "\n".join(lines).strip() + "\n"
