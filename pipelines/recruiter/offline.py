"""The recruiter's offline engine: deterministic, bilingual answers drawn only from the data (it names no job or
candidate the database does not hold), in the same `reply + ACTION: {...}` form a model writes."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pipelines.core.guardrails.findings import Finding
from pipelines.core.text import clip
from pipelines.recruiter.actions import keyword_action
from pipelines.recruiter.answers import stage_name, t
from pipelines.recruiter.records import Candidate, Job
from pipelines.recruiter.resolve import find_mentions

_GREETING = re.compile(r"^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|你好|您好|嗨|早上好|下午好)\b", re.I)

def job_brief(job: Job) -> dict[str, Any]:
    return {"id": job.id, "title": job.title, "location": job.location, "skills": list(job.skills),
            "min_years": job.min_years}


def candidate_brief(person: Candidate) -> dict[str, Any]:
    return {"id": person.id, "name": person.name, "location": person.location,
            "years_experience": person.years_experience, "skills": list(person.skills)[:10]}


def _help(lang: str) -> str:
    return t(lang, "I can answer from the recruiting data: who matches a job (\"who matches J001?\"), what stage a "
                   "candidate is in, a resume summary, who is in a pipeline stage, a job's details, or an outreach "
                   "draft (\"draft an email to C001 about J001\").",
             "我可以根据招聘数据回答：谁适合某个职位（“谁适合 J001？”）、候选人处于哪个阶段、简历总结、某阶段有哪些候选人、"
             "职位详情，或起草外联邮件（“给 C001 写一封关于 J001 的邮件”）。")


def _lead(action: Any, store: Any, lang: str) -> str:
    job = store.job(action.job_id) if action.job_id else None
    person = store.candidate(action.candidate_id) if action.candidate_id else None
    leads = {
        "search_candidates": (t(lang, f"Here are the candidates who fit {job.id} ({job.title}) best, with why:",
                                f"以下是最适合 {job.id}（{job.title}）的候选人及理由：") if job else
                              t(lang, "Here are the candidates closest to what you describe:", "以下是与您描述最接近的候选人：")),
        "search_jobs": t(lang, "These openings fit what you describe:", "以下职位符合您的描述："),
        "show_job": t(lang, "Here is the job:", "职位详情如下："),
        "show_candidate": t(lang, f"Here is a summary of {person.name}'s resume:" if person else "Here is the resume:",
                            f"{person.name} 的简历摘要：" if person else "简历摘要："),
        "candidate_status": t(lang, "Here is where they stand:", "当前进展如下："),
        "list_stage": t(lang, f"Candidates in {stage_name(action.status, lang)}:",
                        f"处于{stage_name(action.status, lang)}阶段的候选人："),
        "draft_email": t(lang, "Here is a draft you can edit before sending:", "以下是可在发送前修改的草稿："),
        "update_status": t(lang, "Updating the status:", "正在更新状态："),
    }
    return leads[action.type]


def chat_reply(message: str, role: str, lang: str, services: Any, history: Sequence[str] = ()) -> str:
    """What the offline engine answers: a lead sentence and the action that fetches the facts."""
    store = services.store
    mentions = find_mentions(message[:4000], store.jobs(), store.candidates(), list(history)[-4:])
    action = keyword_action(message, mentions, role)
    if action is None:
        if _GREETING.search(message):
            return t(lang, "Hello! ", "您好！") + _help(lang)
        return _help(lang)
    return f"{_lead(action, store, lang)}\nACTION: {json.dumps(action.model_dump(exclude_none=True), ensure_ascii=False)}"


def blocked_reply(lang: str, over_long: bool, findings: Sequence[Finding]) -> str:
    """A clear reply that says what to do and does not repeat or explain the attack."""
    if over_long:
        detail = next((f.message for f in findings if f.check == "input_length"), "")
        return t(lang, f"{detail} Please shorten it or split it into several messages.",
                 f"{detail} 请缩短内容或分成几条消息发送。")
    return t(lang, "I can't act on that message: it contains instructions aimed at changing how I work. Ask me about "
                   "jobs, candidates or the pipeline.",
             "我无法处理这条消息：它包含试图改变我工作方式的指令。请询问职位、候选人或招聘流程相关的问题。")


def withheld_reply(lang: str) -> str:
    return t(lang, "I withheld my answer because it did not pass the safety checks. Please rephrase your request.",
             "我的回答未通过安全检查，已被拦截。请换一种方式提问。")


def limit_finding(text: str) -> Finding:
    return Finding(check="action_rate_limit", severity="blocked", message=clip(text, 300))
