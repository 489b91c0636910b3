"""The offline engine for the guide: what the client said (need, mood, basic facts) and what the guide says back."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pipelines.core.text import Phrasebook
from pipelines.ican.education import degree_in, field_after_degree
from pipelines.ican.occupations import client_skills, skill_names
from pipelines.ican.riasec import interest_terms, value_terms
from pipelines.ican.schemas import BasicInfo, NeedAssessment

# The order the guide digs in: what the client enjoys first (the RIASEC profile rests on it), then the facts.
FIELD_ORDER = ("interests", "experience", "education", "skills", "values", "target")

SAY = Phrasebook({
    "welcome": ("你好，我是 iCan 职业向导。接下来我会问你几个问题，了解你的经历、兴趣和期望，然后为你做霍兰德（RIASEC）"
                "兴趣分析、匹配适合的职业，并生成一份职业发展报告。",
                "Hello, I'm the iCan career guide. I'll ask you a few questions about your background, what you "
                "enjoy and what you hope for, then work out your Holland (RIASEC) interest profile, match careers "
                "to it and write you a career report."),
    "ack_career_change": ("想换一个方向是很大的决定，愿意认真梳理已经迈出了重要一步。",
                          "Changing direction is a big decision, and taking the time to think it through is a good first step."),
    "ack_job_search": ("找工作的阶段常常让人心里没底，我们一起把你的优势理清楚。",
                       "Looking for work can feel uncertain; let's get clear on your strengths together."),
    "ack_direction": ("对方向感到迷茫很常见，我们从你喜欢做什么开始慢慢理清。",
                      "Feeling unsure about direction is very common; we'll sort it out starting from what you enjoy."),
    "ack_promotion": ("想在现有道路上更进一步，很好，我们看看你的兴趣和能力最适合往哪里发展。",
                      "Wanting to grow further is great; let's see where your interests and abilities point."),
    "ack_further_study": ("继续深造是重要的选择，了解自己的兴趣会让选择更有把握。",
                          "Further study is an important choice; knowing your interests will make it easier."),
    "ack_other": ("谢谢你的分享。", "Thank you for sharing that."),
    "calm": ("先别着急，一步一步来。", "There's no rush; we'll take it one step at a time."),
    "thanks": ("谢谢，这些信息很有帮助。", "Thank you, that helps."),
    "ask_education": ("你的学历和专业是什么？", "What did you study, and what is your highest degree?"),
    "ask_experience": ("你现在或最近做的是什么工作？做了几年，主要负责什么？",
                       "What is your current or most recent job, for how many years, and what are you responsible for?"),
    "ask_skills": ("你最擅长哪些技能或工具？可以举一两个你做得好的例子。",
                   "Which skills or tools are you best at? An example or two of things you did well would help."),
    "ask_interests": ("工作或生活中，哪些事情让你做起来最投入、最有成就感？有没有你不喜欢做的事？",
                      "Which activities, at work or outside it, absorb you most and feel most rewarding? "
                      "Is there anything you dislike doing?"),
    "ask_values": ("对你来说，一份理想的工作最重要的是什么？比如稳定、收入、创造、帮助他人或自主。",
                   "What matters most to you in a job: stability, income, creativity, helping others, independence?"),
    "ask_target": ("你心里有没有想尝试的职业或方向？", "Is there a career or direction you would like to try?"),
    "ask_open": ("还有什么你觉得重要、想让我了解的吗？", "Is there anything else you think I should know?"),
    "closing": ("谢谢！我已经了解得比较清楚了，接下来我会分析你的简历和兴趣类型，匹配合适的职业，并生成报告。",
                "Thank you! I have a clear enough picture now. Next I'll analyse your resume and interests, match "
                "careers and write your report."),
    "closing_forced": ("谢谢你的回答。我们先用目前的信息开始分析，报告里会注明哪些方面还可以再补充。",
                       "Thank you for your answers. Let's start the analysis with what we have; the report will note "
                       "what could still be filled in."),
})

_NEEDS = (
    ("career_change", ("转行", "转型", "换行业", "换工作", "换个方向", "career change", "change career", "switch",
                       "transition", "move into", "pivot")),
    ("further_study", ("考研", "读研", "留学", "深造", "考博", "graduate school", "grad school", "further study",
                       "master's program", "go back to school")),
    ("promotion", ("升职", "晋升", "加薪", "promotion", "promoted", "move up", "next level")),
    ("job_search", ("找工作", "求职", "失业", "应届", "毕业", "job hunting", "looking for a job", "job search",
                    "unemployed", "laid off", "graduating", "new grad")),
    ("direction", ("迷茫", "方向", "不知道", "困惑", "lost", "direction", "don't know what", "not sure what",
                   "unsure", "confused")),
)
_EMOTIONS = (
    ("anxious", ("焦虑", "担心", "压力", "紧张", "害怕", "anxious", "worried", "stress", "nervous", "scared", "afraid")),
    ("frustrated", ("烦", "沮丧", "累", "失望", "倦怠", "受够", "frustrat", "burned out", "burnt out", "exhausted",
                    "stuck", "fed up", "tired of")),
    ("confused", ("迷茫", "困惑", "不知道", "纠结", "lost", "confused", "unsure", "don't know", "not sure")),
    ("hopeful", ("期待", "希望", "兴奋", "憧憬", "excited", "hopeful", "looking forward", "eager")),
)


def _first(text: str, table) -> str | None:
    lowered = text.lower()
    return next((name for name, cues in table if any(c in lowered for c in cues)), None)


def assess_need(user_text: str, lang: str, first_turn: bool) -> NeedAssessment:
    need = _first(user_text, _NEEDS) or "other"
    emotion = _first(user_text, _EMOTIONS) or "neutral"
    ack = SAY(f"ack_{need}", lang) if first_turn else SAY("thanks", lang)
    if first_turn and emotion in {"anxious", "frustrated"}:
        ack += ("" if lang == "zh" else " ") + SAY("calm", lang)
    return NeedAssessment(need=need, emotion=emotion, acknowledgement=ack)


_NUMBERS_ZH = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_NUMBERS_EN = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10, "a couple of": 2, "a few": 3, "several": 4}
_YEARS_EN = re.compile(r"\b(\d{1,2}(?:\.\d)?|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few|several)"
                       r"\+?\s*(?:years?|yrs?)\b", re.I)
_YEARS_ZH = re.compile(r"(?<!\d)(\d{1,2}|[一两二三四五六七八九十]{1,2})\s*(?:多)?年(?!级|代)")
_MAJOR_EN = re.compile(r"\b(?:major(?:ed|ing)? in|degree in|studied|studying|graduated in|background in)\s+"
                       r"([a-z][a-z &/-]{2,40}?)(?=[,.;!?]| and | at | from | but |$)", re.I)
_MAJOR_ZH = re.compile(r"([\u4e00-\u9fff]{2,12})专业")
_MAJOR_ZH_LEAD = re.compile(r"是|读|的|在|了|毕业于|本科|硕士|博士|大专")
_ROLE_EN = re.compile(r"\b(?:i am|i'm|i work as|working as|work as|currently an?|my job is|job as)\s+(?:an?\s+|the\s+)?"
                      r"([a-z][a-z -]{2,40}?)(?=[,.;!?]| at | in | for | with | and | but | who |$)", re.I)
_ROLE_SUFFIXES_EN = ("er", "or", "ist", "ant", "ent", "ian", "man", "clerk", "nurse", "student", "officer", "lead",
                     "head", "director", "consultant", "engineer", "chef", "cook", "grad", "graduate", "assistant")
_ROLE_ZH = re.compile(r"(?:我是(?:一名|一个|个|名)?|当了?|做了?\d*年?的?|担任|从事|目前是|现在是)"
                      r"([\u4e00-\u9fffA-Za-z]{1,10}?(?:工程师|设计师|分析师|经理|老师|教师|师|员|生|会计|护士|主管|"
                      r"总监|专员|助理|顾问|运营|产品|开发|医生|律师|编辑|记者|司机|厨师|作家))")
_TARGET_EN = re.compile(r"\b(?:want to|wanna|hope to|plan to|would like to|'d like to|looking to|aim to|dream is to|"
                        r"thinking about|considering)\s+(?:becoming|become|be|work as|working as|move into|moving into|"
                        r"switch to|switching to|transition(?:ing)? (?:into|to)|get into|getting into|try)\s+"
                        r"(?:an?\s+)?([a-z][a-z &/-]{2,40}?)(?=[,.;!?]| but | because | or | and |$)", re.I)
_TARGET_ZH = re.compile(r"(?:想(?:要)?|希望|打算|计划|目标是|梦想是|考虑)(?:转行|转型|转到|转去|转)?(?:成为|当|做|从事|去做|去|到)"
                        r"(?:一名|一个|个)?([\u4e00-\u9fffA-Za-z]{2,12}?)(?=[，。,.；;！!？?、]|$|的工作|方面|相关|工作)")


def _number(token: str) -> float | None:
    token = token.lower()
    if token in _NUMBERS_EN:
        return float(_NUMBERS_EN[token])
    if token.replace(".", "", 1).isdigit():
        return float(token)
    if token == "十":
        return 10.0
    if len(token) == 2 and token[0] == "十":
        return 10.0 + _NUMBERS_ZH.get(token[1], 0)
    return float(_NUMBERS_ZH[token]) if token in _NUMBERS_ZH else None


def years_of_experience(text: str) -> float | None:
    values = [_number(m.group(1)) for m in list(_YEARS_EN.finditer(text)) + list(_YEARS_ZH.finditer(text))]
    values = [v for v in values if v is not None and 0 < v <= 50]
    return max(values) if values else None


def _role(text: str) -> str | None:
    for match in _ROLE_EN.finditer(text):
        role = match.group(1).strip()
        if role.lower().split()[-1].endswith(_ROLE_SUFFIXES_EN):
            return role
    match = _ROLE_ZH.search(text)
    return match.group(1) if match else None


def _major_zh(before: str) -> str | None:
    """The words before 专业, after the last filler: 我本科是汉语言文学 → 汉语言文学."""
    major = re.sub(r"^(?:我|学)+", "", _MAJOR_ZH_LEAD.split(before)[-1])
    return major if len(major) >= 2 else None


def extract_basic_info(user_text: str, lang: str) -> BasicInfo:
    major = _MAJOR_EN.search(user_text)
    major_zh = _MAJOR_ZH.search(user_text)
    target = _TARGET_EN.search(user_text) or _TARGET_ZH.search(user_text)
    return BasicInfo(
        education=degree_in(user_text), current_role=_role(user_text),
        major=major.group(1).strip() if major else field_after_degree(user_text) or (
            _major_zh(major_zh.group(1)) if major_zh else None),
        years_experience=years_of_experience(user_text), skills=skill_names(client_skills(user_text), lang),
        interests=interest_terms(user_text), values=value_terms(user_text),
        target=target.group(1).strip() if target else None)


def known_facts(info: Mapping[str, Any]) -> dict[str, Any]:
    """What the client has given: what they said, over what their resume says (`from_resume`)."""
    said = {name: value for name, value in info.items() if name != "from_resume" and value not in (None, "", [])}
    return {**(info.get("from_resume") or {}), **said}


def present_fields(info: Mapping[str, Any]) -> set[str]:
    """Which of the guide's fields the client has covered, in the conversation or in their resume."""
    info = known_facts(info)
    present = set()
    if info.get("education") or info.get("major"):
        present.add("education")
    if info.get("current_role") or info.get("years_experience"):
        present.add("experience")
    for name in ("skills", "interests", "values", "target"):
        if info.get(name):
            present.add(name)
    return present


def merge_info(old: Mapping[str, Any], new: BasicInfo) -> dict[str, Any]:
    """New facts fill in and extend what was known; a later answer never erases an earlier one."""
    merged = dict(old)
    for name, value in new.model_dump().items():
        if isinstance(value, list):
            merged[name] = list(dict.fromkeys([*(merged.get(name) or []), *value]))
        elif value not in (None, ""):
            merged[name] = value
    return merged
