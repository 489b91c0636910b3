"""The chat's actions: which one a message asks for (the keyword fallback of parse_response, and the offline
engine's choice), and running it against the data with the role and the action limits (process_action)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pipelines.recruiter.answers import (
    candidate_summary, draft_email_text, job_card, match_lines, stage_lines, status_lines, t,
)
from pipelines.recruiter.resolve import Mentions
from pipelines.recruiter.schemas import READ_ACTIONS, RECRUITER_ONLY_ACTIONS, Action

_DRAFT = re.compile(r"\b(?:draft|write|compose|prepare)\b.{0,40}\b(?:e-?mail|message|note)\b|\boutreach\b|"
                    r"(?:起草|写|拟|准备).{0,10}(?:邮件|外联|消息)", re.I)
_SUMMARY = re.compile(r"\bsummar|\bresume\b|\bcv\b|\bprofile\b|\btell me about\b|\bwho is\b|"
                      r"总结|概括|简历|介绍一下|是谁", re.I)
_STATUS = re.compile(r"\bstage\b|\bstatus\b|\bwhere is\b|\bprogress\b|进度|阶段|状态|到哪", re.I)
_LIST = re.compile(r"\bwho(?:'s| is| are)\b.{0,20}\bin\b|\blist\b|\bshow\b.{0,20}\b(?:stage|pipeline)\b|"
                   r"哪些|有谁|列出|名单", re.I)
_MATCH = re.compile(r"\bmatch|\bfit|\bbest\b|\btop\s*\d*\b|\bsuitable\b|\bshortlist|\bcandidates?\s+for\b|"
                    r"\bwho\b.{0,30}\bfor\b|\bfind\b|\bsearch\b|适合|匹配|人选|推荐|找", re.I)
_JOBS = re.compile(r"\bjobs?\b|\bopenings?\b|\bpositions?\b|\broles?\b|\bvacanc|职位|岗位|工作机会|招聘", re.I)
_TOP = re.compile(r"\btop\s*(\d{1,2})\b|前\s*(\d{1,2})\s*(?:名|个|位)?")


def keyword_action(message: str, mentions: Mentions, role: str) -> Action | None:
    """The action the words ask for, or None for a plain question."""
    text = message or ""
    job = mentions.jobs[0].id if mentions.jobs else None
    person = mentions.candidates[0].id if mentions.candidates else None
    top = next((int(g) for m in _TOP.finditer(text) for g in m.groups() if g), 5)
    if role != "recruiter":
        if job:
            return Action(type="show_job", job_id=job)
        return Action(type="search_jobs", query=text[:500]) if _JOBS.search(text) or _MATCH.search(text) else None
    if _DRAFT.search(text) and person:
        return Action(type="draft_email", candidate_id=person, job_id=job)
    if person and _STATUS.search(text):
        return Action(type="candidate_status", candidate_id=person)
    if mentions.stage and (_LIST.search(text) or not person):
        return Action(type="list_stage", job_id=job, status=mentions.stage)
    if person and (_SUMMARY.search(text) or not job):
        return Action(type="show_candidate", candidate_id=person)
    if job and _MATCH.search(text):
        return Action(type="search_candidates", job_id=job, top=min(top, 20))
    if job:
        return Action(type="show_job", job_id=job)
    if _JOBS.search(text) and not re.search(r"candidates?|候选人|人选", text, re.I):
        return Action(type="search_jobs", query=text[:500])
    if _MATCH.search(text):
        return Action(type="search_candidates", query=text[:500], top=min(top, 20))
    return None


@dataclass
class ActionResult:
    """What an action did: `status` done | refused | not_found | limited, the text shown, and data for the state."""

    action: dict[str, Any]
    status: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def as_state(self) -> dict[str, Any]:
        return {**self.action, "status": self.status, "result": self.data}


def run_action(action: Action, *, services: Any, role: str, lang: str, actor: str) -> ActionResult:
    """Run one action: read actions directly, write actions only for recruiters and within the limits."""
    spec = action.model_dump(exclude_none=True)
    if action.type in RECRUITER_ONLY_ACTIONS and role != "recruiter":
        return ActionResult(spec, "refused", t(lang, "Only recruiters can do that; job seekers can search and read jobs.",
                                               "只有招聘人员可以执行此操作；求职者可以搜索和查看职位。"))
    store = services.store
    job = store.job(action.job_id) if action.job_id else None
    person = store.candidate(action.candidate_id) if action.candidate_id else None
    if action.job_id and job is None:
        return ActionResult(spec, "not_found", t(lang, f"There is no job {action.job_id}.", f"没有职位 {action.job_id}。"))
    if action.candidate_id and person is None:
        return ActionResult(spec, "not_found", t(lang, f"There is no candidate {action.candidate_id}.",
                                                 f"没有候选人 {action.candidate_id}。"))
    if action.type == "search_candidates":
        from pipelines.recruiter.records import Job

        target = job or Job("query", action.query or "", action.query or "")
        matches = services.index().rank(target, top=action.top, lang=lang)
        return ActionResult(spec, "done", match_lines(matches, job, lang),
                            {"matches": [{"candidate_id": m.candidate_id, "score": round(m.score, 4)} for m in matches]})
    if action.type == "search_jobs":
        from pipelines.recruiter.job_search import rank_jobs

        found = rank_jobs(store.jobs(), action.query or "", top=action.top)
        return ActionResult(spec, "done", "\n\n".join(job_card(j, lang, short=True) for j in found) if found else
                            t(lang, "No job matches that.", "没有符合的职位。"), {"jobs": [j.id for j in found]})
    if action.type == "show_job":
        return ActionResult(spec, "done", job_card(job, lang), {"job_id": job.id})
    if action.type == "show_candidate":
        text, flagged = candidate_summary(person, lang, services)
        return ActionResult(spec, "done", text, {"candidate_id": person.id, "resume_flagged": flagged})
    if action.type == "candidate_status":
        rows = store.applications(candidate_id=person.id)
        return ActionResult(spec, "done", status_lines(person, rows, lang),
                            {"applications": [{"job_id": r["job_id"], "status": r["status"]} for r in rows]})
    if action.type == "list_stage":
        rows = store.applications(job_id=action.job_id, status=action.status)
        return ActionResult(spec, "done", stage_lines(rows, action.status, job, lang),
                            {"candidates": [r["candidate_id"] for r in rows]})
    if action.type == "draft_email":
        return ActionResult(spec, "done", draft_email_text(person, job, lang, services),
                            {"candidate_id": person.id, "job_id": job.id if job else None, "sent": False})
    if action.type == "update_status":
        return update_status(spec, services, person, job, action.status, lang, actor)
    raise AssertionError(f"unhandled action {action.type}")  # the schema's Literal lists every type


def update_status(spec: dict[str, Any], services: Any, person: Any, job: Any, status: str | None, lang: str,
                  actor: str, note: str = "") -> ActionResult:
    """A status change, counted against the daily limit before it is written; its history is kept."""
    if person is None or job is None or not status:
        return ActionResult(spec, "refused", t(lang, "A status change needs a candidate, a job and a stage.",
                                               "状态变更需要候选人、职位和阶段。"))
    decision = services.limiter.take("status_changes", 1)
    if not decision.allowed:
        return ActionResult(spec, "limited", t(lang, decision.message, f"已达到每日状态变更上限（{decision.limit}）。"),
                            {"limit": decision.limit, "used": decision.used})
    change = services.store.set_status(person.id, job.id, status, actor=actor, note=note)
    before = change["from_status"] or t(lang, "no application", "无申请")
    return ActionResult(spec, "done", t(lang, f"{person.name} ({person.id}) for {job.id}: {before} → {status}.",
                                        f"{person.name}（{person.id}）在 {job.id}：{before} → {status}。"), change)


def is_read(action: Action) -> bool:
    return action.type in READ_ACTIONS
