"""Offline intake: the coordinator's routing (and its refusals, which decide whatever a model says: attempts to change
its instructions, and what sensitive_asks declines, whole or in part), the locale, and the perception stage's questions
and summary."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pipelines.core.guardrails.injection import detect_injection
from pipelines.core.text import clip, main_language
from pipelines.deep_research.schemas import CoordinatorVerdict, DstQuestion, DstQuestions, Route
from pipelines.deep_research.sensitive_asks import ASKS, screen

_GREETING = re.compile(
    r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|thanks?( you)?|thank you|how are you|who are you|what can you "
    r"do|你好|您好|嗨|早上好|下午好|晚上好|谢谢|多谢|你是谁|你能做什么)[\s!?.,！？。，~]*"
    r"(there|again|so much|very much|啊|呀)?[\s!?.,！？。，~]*$", re.I)
def locale_of(text: str, given: str | None = None) -> str:
    """The session's locale: the one given, else Chinese when Chinese carries the question."""
    if given in ("en-US", "zh-CN"):
        return given
    return "zh-CN" if main_language(text) == "zh" else "en-US"


def is_zh(locale: str | None) -> bool:
    return str(locale or "").lower().startswith("zh")


def coordinate(text: str, locale: str | None = None) -> CoordinatorVerdict:
    locale = locale_of(text, locale)
    zh = is_zh(locale)
    if _GREETING.match(text or ""):
        reply = ("你好！我是研究助手：请提出一个问题，我会在你的文档中检索、制定计划并写出带引用的报告。" if zh else
                 "Hello! I am a research assistant: ask me a question and I will search your documents, plan the "
                 "research and write a report that cites its sources.")
        return CoordinatorVerdict(route=Route.SMALL_TALK, reply=reply, locale=locale)
    if detect_injection(text or "", source="user"):
        reply = ("抱歉，这个请求我不能协助：它试图改变我的指令。" if zh else
                 "Sorry, I cannot help with this request: it tries to change my instructions.")
        return CoordinatorVerdict(route=Route.DECLINE, reply=reply, locale=locale)
    screened = screen(text or "")
    asks = _joined([ASKS[category][0 if zh else 1] for category in screened.categories], zh)
    if screened.whole:
        reply = (f"抱歉，这个请求我不能协助：它要求我{asks}。" if zh else
                 f"Sorry, I cannot help with this request: it asks me to {asks}.")
        return CoordinatorVerdict(route=Route.DECLINE, reply=reply, locale=locale)
    topic = " ".join(screened.kept.split())
    if not screened.declined:
        return CoordinatorVerdict(route=Route.RESEARCH, locale=locale, research_topic=topic)
    left_out = _joined([f"“{clip(part, 120)}”" for part in screened.declined], zh)
    reply = (f"请求中的{left_out}我不会去做：它要求我{asks}。其余部分我会继续研究：{topic}" if zh else
             f"I left out {left_out}: it asks me to {asks}, which I do not do. I will research the rest: {topic}")
    return CoordinatorVerdict(route=Route.RESEARCH, reply=reply, locale=locale, research_topic=topic)


def _joined(parts: list[str], zh: bool) -> str:
    if zh:
        return "、".join(parts[:-1]) + ("和" if len(parts) > 1 else "") + parts[-1] if parts else ""
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else ""


_KNOWN = {
    "language": re.compile(r"\bin (english|chinese)\b|用(中文|英文)|(中文|英文)(报告|回答|撰写)", re.I),
    "format": re.compile(r"\b(table|tables|bullet|bullets|chart|one page|short report|memo)\b|表格|要点|列表|图表", re.I),
    "depth": re.compile(r"\b(brief|briefly|short|quick|in depth|detailed|thorough|comprehensive)\b|简要|简短|详细|深入|全面",
                        re.I),
    "sources": re.compile(r"\b(according to|based on|from the|in the)\b.{0,40}\b(report|minutes|survey|brief|plan|"
                          r"guideline|documents?|notes|release)\b|根据.{0,20}(报告|文件|纪要|调查|规划|指南)", re.I),
}
_QUESTIONS = {
    "sources": ("应优先依据哪些资料？可选的集合：{collections}。", "Which sources should the research rely on? "
                "Collections available: {collections}."),
    "language": ("报告用什么语言撰写？", "Which language should the report be written in?"),
    "depth": ("需要简要、标准还是详尽的报告？", "How deep should it go: brief, standard or thorough?"),
    "format": ("报告有格式要求吗（如表格、要点、篇幅）？", "Any format wishes (tables, bullet points, length)?"),
}


def dst_questions(query: str, locale: str, collections: Sequence[str]) -> DstQuestions:
    """What the query already says about the user's constraints, and a question for each slot it leaves open."""
    zh = is_zh(locale)
    known = {slot: match.group(0) for slot, pattern in _KNOWN.items() if (match := pattern.search(query or ""))}
    names = "、".join(collections) if zh else ", ".join(collections)
    questions = [DstQuestion(slot=slot, question=text[0 if zh else 1].format(collections=names or "—"))
                 for slot, text in _QUESTIONS.items() if slot not in known]
    return DstQuestions(known=known, questions=questions)


_LABELS = {"sources": ("资料", "Sources"), "language": ("语言", "Language"), "depth": ("深度", "Depth"),
           "format": ("格式", "Format")}


def summarize_dst(known: Mapping[str, str], answers: Mapping[str, str], skipped: bool, locale: str) -> str:
    """The constraints in one line: stated in the question, answered in the form, or the defaults."""
    zh = is_zh(locale)
    defaults = {"sources": ("全部可用资料", "all available resources"), "language": ("与问题相同", "the question's"),
                "depth": ("标准", "standard"), "format": ("DeerFlow 报告结构", "DeerFlow's report structure")}
    parts = []
    for slot, label in _LABELS.items():
        value = " ".join(str(answers.get(slot) or known.get(slot) or "").split())[:200]
        parts.append(f"{label[0 if zh else 1]}: {value or defaults[slot][0 if zh else 1]}")
    lead = ("用户跳过了偏好问题。" if zh else "The user skipped the questions. ") if skipped else ""
    return lead + ("；".join(parts) if zh else "; ".join(parts))
