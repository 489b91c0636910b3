"""iCan's report: the offline reporter's markdown in the client's language, and the studio's Report view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.core.markup import escape_markdown
from pipelines.core.text import Phrasebook, join_items
from pipelines.ican.occupations import occupation_by_code, skill_names, skills_vocabulary
from pipelines.ican.resume import flagged_note, flagged_passages
from pipelines.ican.riasec import type_name
from pipelines.ican.schemas import RIASEC

MEANING = {
    "R": ("喜欢动手、使用工具和机器，偏好具体、看得见成果的工作", "enjoys hands-on work with tools, machines or "
          "the outdoors, and likes results you can see"),
    "I": ("喜欢观察、分析和解决复杂问题，重视知识与逻辑", "likes to observe, analyse and solve complex problems; "
          "values knowledge and logic"),
    "A": ("富有想象力，喜欢创作和自我表达，偏好自由、不拘一格的环境", "is imaginative, enjoys creating and "
          "self-expression, and prefers open, unstructured settings"),
    "S": ("乐于助人、教导和照顾他人，重视合作与人际关系", "enjoys helping, teaching and caring for people; values "
          "cooperation and relationships"),
    "E": ("喜欢影响和带领他人、推动目标达成，愿意承担风险", "likes to lead and persuade, drive goals forward and "
          "take on risk"),
    "C": ("喜欢有条理、讲规则的工作，细致准确，擅长处理数据和流程", "likes orderly, well-defined work, is careful and "
          "accurate, and handles data and procedures well"),
}
GROWTH = {
    "R": ("考一个与目标岗位相关的技术证书，多做实际动手的项目。", "Earn a hands-on certification for your target "
          "field and build practical projects."),
    "I": ("选一个感兴趣的问题做小型研究或数据分析项目，并把结论写出来。", "Pick a question you care about and run a "
          "small research or data-analysis project; write up what you find."),
    "A": ("整理一个作品集，持续创作并公开分享，收集反馈。", "Build a portfolio, keep creating and share your work "
          "publicly to gather feedback."),
    "S": ("参加志愿服务或带新人，积累帮助、培训他人的实际经验。", "Volunteer or mentor newcomers to build real "
          "experience of helping and training people."),
    "E": ("主动牵头一个项目或活动，练习表达、谈判和决策。", "Volunteer to lead a project or event, and practise "
          "pitching, negotiating and deciding."),
    "C": ("系统学习一种数据或办公工具（如 Excel、SQL），把流程化的工作做精。", "Master a data or office tool (such "
          "as Excel or SQL) and get very good at structured work."),
}
SAY = Phrasebook({
    "title": ("# iCan 职业发展报告", "# iCan career report"),
    "summary": ("## 概要", "## Summary"),
    "profile": ("## RIASEC 兴趣画像", "## RIASEC profile"),
    "matches": ("## 最匹配的职业", "## Top matches"),
    "growth": ("## 发展建议", "## Development suggestions"),
    "target": ("你提到的目标 **{title}**（兴趣代码 {code}）在 {of} 个职业中排第 {rank} 位，匹配度 {score:.2f}。",
               "The career you named, **{title}** (interest code {code}), ranks {rank} of {of} with a score of "
               "{score:.2f}."),
    "next": ("## 下一步", "## Next steps"),
    "code": ("你的霍兰德代码是 **{code}**（{names}）。", "Your Holland code is **{code}** ({names})."),
    "top_match": ("与你最匹配的职业是 **{title}**。", "Your closest match is **{title}**."),
    "means": ("- **{letter} {name}**（{score}）：{meaning}。", "- **{letter} {name}** ({score}): {meaning}."),
    "evidence": ("  依据：{quotes}", "  Evidence: {quotes}"),
    "table": ("| 职业 | 兴趣代码 | 匹配度 | 理由 |\n|---|---|---|---|", "| Occupation | Interest code | Score | Why |\n|---|---|---|---|"),
    "skills_gap": ("- 最匹配的职业常用而你尚未提到的能力：{skills}。可以从中挑一两项重点补强。",
                   "- Skills your top matches rely on that you have not mentioned: {skills}. Pick one or two to build."),
    "step1": ("1. 找 {titles} 方向的从业者各聊一次，了解真实的工作日常。", "1. Talk to one person working as each of "
              "{titles} about what their days are really like."),
    "step2": ("2. 用两到四周完成一个体现 {name} 兴趣的小项目，写进简历。", "2. Spend two to four weeks on a small "
              "project that uses your {name} side, and add it to your resume."),
    "step3": ("3. 按目标职业的要求更新简历，突出相关的经历和技能。", "3. Update your resume for the target role, "
              "leading with the experience and skills it asks for."),
    "step4": ("4. 一个月后与咨询师复盘，调整方向。", "4. Review progress with your counselor in a month and adjust."),
    "forced": ("> 注：对话信息还不完整（{missing}），结果仅供参考，补充后可以重新分析。", "> Note: the conversation "
               "left gaps ({missing}); treat the results as a first view and re-run the analysis once they are filled."),
    "resume_issue": ("> 简历未被使用：{issue}", "> The resume was not used: {issue}"),
    "flagged": ("> 注：{note}", "> Note: {note}"),
    "flag": ("已标记", "flagged"),
    "waiting": ("_报告尚未生成：向导还在收集信息（已收到来访者 {turns} 条消息）。_",
                "_No report yet: the guide is still collecting information ({turns} client messages so far)._"),
})
FIELD_NAMES = {"education": ("学历", "education"), "experience": ("工作经历", "experience"), "skills": ("技能", "skills"),
               "interests": ("兴趣", "interests"), "values": ("价值观", "values"), "target": ("目标职业", "target")}


def match_title(match: Mapping[str, Any], lang: str) -> str:
    zh = match.get("title_zh")
    return f"{zh}（{match['title']}）" if lang == "zh" and zh else str(match["title"])


def _md(text: Any) -> str:
    """Outside text (the client's words, a file's name, a model's field) inside the report's Markdown."""
    return escape_markdown(text, line_breaks=False)


def _skills_gap(matches: list[Mapping[str, Any]], client_text: str, lang: str) -> list[str]:
    _, client_matcher, _ = skills_vocabulary()
    have = client_matcher.labels(client_text)
    counts: dict[str, int] = {}
    for match in matches[:5]:
        occupation = occupation_by_code().get(match["onet_soc_code"])
        for skill in occupation.skills if occupation else ():
            if skill not in have:
                counts[skill] = counts.get(skill, 0) + 1
    ranked = sorted(counts, key=lambda s: (-counts[s], s))
    return skill_names(ranked[:4], lang)


def write_report(state: Mapping[str, Any]) -> str:
    """The offline reporter: summary, what the RIASEC code means, top matches, suggestions, next steps."""
    lang = state.get("language") or "en"
    scores = state.get("riasec_scores") or {t: 0 for t in RIASEC}
    code = state.get("holland_code") or ""
    evidence = state.get("riasec_evidence") or {}
    matches = list(state.get("career_matches") or [])
    profile = state.get("structured_profile") or {}
    lines = [SAY("title", lang), "", SAY("summary", lang), ""]
    if profile.get("summary"):
        lines.append(_md(profile["summary"]))
    names = join_items([type_name(t, lang) for t in code], lang)
    lines.append(SAY("code", lang, code=_md(code), names=names) + (" " + SAY("top_match", lang, title=_md(
        match_title(matches[0], lang))) if matches else ""))
    if state.get("forced_analysis"):
        missing = [FIELD_NAMES[f][0 if lang == "zh" else 1] for f in state.get("missing_fields") or [] if f in FIELD_NAMES]
        lines += ["", SAY("forced", lang, missing=join_items(missing, lang) if missing else "—")]
    if state.get("resume_issue"):
        lines += ["", SAY("resume_issue", lang, issue=_md(state["resume_issue"]))]
    lines += ["", SAY("profile", lang), ""]
    for letter in sorted(RIASEC, key=lambda t: (t not in code, code.index(t) if t in code else RIASEC.index(t))):
        lines.append(SAY("means", lang, letter=letter, name=type_name(letter, lang), score=scores.get(letter, 0),
                         meaning=MEANING[letter][0 if lang == "zh" else 1]))
        quotes = [f"“{_md(q)}”" for q in evidence.get(letter, [])[:2]]
        if letter in code and quotes:
            lines.append(SAY("evidence", lang, quotes=join_items(quotes, lang)))
    lines += ["", SAY("matches", lang), "", SAY("table", lang)]
    for match in matches[:5]:
        lines.append(f"| {_md(match_title(match, lang))} | {_md(match.get('high_point_code', ''))} | "
                     f"{match['score']:.2f} | {_md(match['reason'])} |")
    target = state.get("target_match")
    if target:
        lines += ["", SAY("target", lang, title=_md(match_title(target, lang)),
                          code=_md(target.get("high_point_code", "")), rank=target["rank"], of=target["of"],
                          score=target["score"])]
    lines += ["", SAY("growth", lang), ""]
    lines += [f"- {GROWTH[t][0 if lang == 'zh' else 1]}" for t in code[:2]]
    said = "\n".join(t["content"] for t in state.get("conversation_history") or [] if t.get("role") == "user")
    gap = _skills_gap(matches, said + "\n" + (state.get("resume_text") or ""), lang)
    if gap:
        lines.append(SAY("skills_gap", lang, skills=join_items(gap, lang)))
    titles = join_items([_md(match_title(m, lang)) for m in matches[:3]], lang)
    lines += ["", SAY("next", lang), "", SAY("step1", lang, titles=titles),
              SAY("step2", lang, name=type_name(code[0], lang) if code else ""), SAY("step3", lang),
              SAY("step4", lang)]
    return "\n".join(lines).strip() + "\n"


def with_flagged_note(text: str, state: Mapping[str, Any]) -> str:
    """The report, whoever wrote it, with the note on the resume's passages that were not used, each quoted as
    text (escaped, so nothing in it formats or links) and marked flagged."""
    flagged = flagged_passages(state)
    if not flagged:
        return text
    lang = state.get("language") or "en"
    lines = ["", SAY("flagged", lang, note=flagged_note(len(flagged), lang))]
    lines += [f"> - ⚠ {SAY('flag', lang)}: “{_md(' '.join(str(p['text']).split()))}”" for p in flagged]
    return text.rstrip() + "\n" + "\n".join(lines) + "\n"


def build_report(state: Mapping[str, Any]) -> str:
    """The studio's Report tab: the final report, or where the session stands before it exists."""
    if state.get("final_report"):
        return str(state["final_report"])
    lang = state.get("language") or "en"
    turns = sum(1 for t in state.get("conversation_history") or [] if t.get("role") == "user")
    return SAY("waiting", lang, turns=turns)
