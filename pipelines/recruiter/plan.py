"""The planner's checks and offline plans (seed §5.3, §6): the guardrail check of a plan (role, email quota,
batch cap, model-call budget) and the deterministic bilingual plans of the five workflows and the chain."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from pipelines.core.guardrails.findings import Finding
from pipelines.recruiter.answers import t
from pipelines.recruiter.intent import keyword_intent
from pipelines.recruiter.plan_edit import MAX_TOP, _CANDIDATE_WORDS, _cut_emails, _reestimate, _touches_email, without_emails
from pipelines.recruiter.schemas import PLAN_WORKFLOW_TYPES, EstimatedActions, Plan, PlanStep, _lang



# --- validation (seed §6) --------------------------------------------------------------------------------------
class PlanValidation(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    plan: Plan
    ok: bool
    reasons: list[str] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)


def _recruiter_only(step: PlanStep) -> bool:
    if step.agent in ("communication", "pipeline"):
        return True
    return step.agent == "matching" and bool(_CANDIDATE_WORDS.search(step.action))


def validate_plan(plan: Plan, *, role: str, emails_left_today: int, batch_cap: int, model_call_budget: int,
                  emails_per_day: int = 50) -> PlanValidation:
    """The guardrails on a plan before it is shown: a job seeker may not run recruiter-only steps, an email
    estimate over the batch cap or over what is left today is cut (nothing left: the email steps are refused),
    a model-call estimate over the budget is cut, and a plan without steps is refused. ok is False when the plan
    (or a part of it) is refused; the plan returned is the cut one."""
    lang = plan.lang
    reasons: list[str] = []
    findings: list[Finding] = []

    def say(check: str, severity: str, en: str, zh: str, **detail: Any) -> None:
        reasons.append(f"{en} {zh}" if lang == "zh" else en)
        findings.append(Finding(check, severity, en, detail))  # type: ignore[arg-type]

    if not plan.steps:
        say("output_format", "blocked", "The plan has no steps.", "计划没有任何步骤。")
        return PlanValidation(plan=plan, ok=False, reasons=reasons, findings=findings)
    if role != "recruiter":
        barred = [s for s in plan.steps if _recruiter_only(s)]
        if barred:
            agents = ", ".join(dict.fromkeys(s.agent for s in barred))
            say("action_role", "blocked", f"A job seeker may not run this plan: its {agents} steps are for recruiters only.",
                f"求职者不能执行此计划：其中的 {agents} 步骤仅限招聘方使用。", role=role, agents=agents)
            return PlanValidation(plan=plan, ok=False, reasons=reasons, findings=findings)

    ok = True
    emails = plan.estimated_actions.emails
    emails_planned = emails > 0 or any(_touches_email(s) and s.agent == "communication" for s in plan.steps)
    left = max(emails_left_today, 0)
    if emails_planned and left == 0:
        used = max(emails_per_day - left, 0)
        say("action_rate_limit", "blocked",
            f"The daily limit of {emails_per_day} emails is reached: {used} used today, 0 left.",
            f"今天的邮件已达每日上限 {emails_per_day} 封：今天已发送 {used} 封，剩余 0 封。",
            action="send_email", used=used, limit=emails_per_day, left=0)
        removed = [s for s in plan.steps if _touches_email(s)]
        plan = without_emails(plan)
        say("action_rate_limit", "blocked", f"The email steps are refused ({', '.join(str(s.step) for s in removed)}).",
            f"发送邮件的步骤被拒绝（{', '.join(str(s.step) for s in removed)}）。", steps=[s.step for s in removed])
        ok = False
        if not plan.steps:
            return PlanValidation(plan=plan, ok=False, reasons=reasons, findings=findings)
    elif emails > 0:
        n = emails
        if n > batch_cap:
            say("action_rate_limit", "warning",
                f"A batch of {n} emails is over the cap of {batch_cap} per batch: the plan is cut to {batch_cap}.",
                f"一批 {n} 封邮件超过每批上限 {batch_cap} 封：计划已削减为 {batch_cap} 封。",
                action="send_email", requested=n, cap=batch_cap)
            n = batch_cap
        if n > left:
            used = max(emails_per_day - left, 0)
            say("action_rate_limit", "warning",
                f"Only {left} of the daily {emails_per_day} emails are left today ({used} used): the plan is cut to {left}.",
                f"今天每日 {emails_per_day} 封邮件只剩 {left} 封（已用 {used} 封）：计划已削减为 {left} 封。",
                action="send_email", requested=n, left=left, limit=emails_per_day)
            n = left
        if n != emails:
            plan = _cut_emails(plan, n)
    calls = plan.estimated_actions.api_calls
    if calls > model_call_budget:
        say("action_rate_limit", "warning",
            f"The plan needs about {calls} model calls, over the budget of {model_call_budget} per operation: "
            f"it is cut to {model_call_budget} and stops there.",
            f"计划约需 {calls} 次模型调用，超过每次操作 {model_call_budget} 次的预算：已削减为 {model_call_budget} 次，"
            f"到达后停止。", requested=calls, budget=model_call_budget)
        plan = plan.model_copy(update={"estimated_actions": EstimatedActions(
            emails=plan.estimated_actions.emails, api_calls=model_call_budget)})
    return PlanValidation(plan=plan, ok=ok, reasons=reasons, findings=findings)


# --- offline plans (seed §5.3) -------------------------------------------------------------------------------------
def _texts(n: int, job: str, n_people: int) -> dict[str, tuple[str, str]]:
    """Each step's action, (English, Chinese)."""
    return {
        "parse_jd": (f"Parse the job description{job} and extract its requirements", f"解析职位描述{job}并提取职位需求"),
        "search_rank": (f"Search and rank the top {n} matching candidates{job}", f"搜索并排名前 {n} 名匹配的候选人{job}"),
        "draft": (f"Draft a personalised outreach email for each of the top {n} candidates, in parallel",
                  f"并行为前 {n} 名候选人各生成一封个性化外联邮件"),
        "approve_send": ("Approve sending the emails", "审批发送邮件"),
        "send": ("Send the approved emails", "发送已批准的邮件"),
        "guardrails": ("Check the email batch against the guardrails (daily limit, batch cap)",
                       "按护栏批量检查邮件（每日上限、批量上限）"),
        "parse_resumes": (f"Parse the resumes of {n_people} candidate(s) and extract skills and experience",
                          f"解析 {n_people} 位候选人的简历，提取技能与经历"),
        "handoff_match": (f"Handoff: match and rank the candidates against the job{job}",
                          f"交接：将候选人与职位进行匹配分析与排名{job}"),
        "confirm_suggestions": ("Confirm the suggested status changes", "确认建议的状态变更"),
        "update_status": ("Update the candidates' pipeline status", "更新候选人的管道状态"),
        "load": (f"Load the {n_people} candidate(s) and the job{job}", f"加载 {n_people} 位候选人和职位{job}"),
        "propose_slots": ("Propose interview time slots", "提议面试时间段"),
        "choose_slot": ("Choose and confirm the interview time", "选择并确认面试时间"),
        "send_invitation": ("Draft and send the interview invitation emails", "生成并发送面试邀请邮件"),
        "scan": ("Scan the pipeline for stale applications", "扫描管道中停滞的申请"),
        "categorize": ("Categorize the applications (advance, follow up, reject)", "对申请分类（推进、跟进、拒绝）"),
        "approve_cleanup": ("Approve the cleanup actions", "审批清理操作"),
        "execute": ("Execute the approved actions", "执行已批准的操作"),
        "approve_shortlist": ("Approve the candidate shortlist", "审批候选人名单"),
        "approve_emails": ("Approve the emails", "审批邮件"),
        "schedule_replies": ("Schedule interviews for the candidates who reply", "为回复的候选人安排面试"),
        "confirm_time": ("Confirm the interview times", "确认面试时间"),
    }


# each workflow: (agent, text key, mode), in order (seed §5.3)
ORCHESTRATIONS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "job_launch": (("jd", "parse_jd", "sequential"), ("matching", "search_rank", "sequential"),
                   ("communication", "draft", "parallel"), ("supervisor", "approve_send", "interrupt"),
                   ("communication", "send", "sequential")),
    "bulk_outreach": (("matching", "search_rank", "sequential"), ("communication", "draft", "parallel"),
                      ("supervisor", "guardrails", "sequential"), ("supervisor", "approve_send", "interrupt"),
                      ("communication", "send", "sequential")),
    "candidate_review": (("resume", "parse_resumes", "sequential"), ("matching", "handoff_match", "sequential"),
                         ("supervisor", "confirm_suggestions", "interrupt"), ("pipeline", "update_status", "sequential")),
    "interview_scheduling": (("matching", "load", "sequential"), ("scheduling", "propose_slots", "sequential"),
                             ("supervisor", "choose_slot", "interrupt"),
                             ("communication", "send_invitation", "sequential")),
    "pipeline_cleanup": (("pipeline", "scan", "sequential"), ("pipeline", "categorize", "sequential"),
                         ("supervisor", "approve_cleanup", "interrupt"), ("pipeline", "execute", "sequential")),
    "chain": (("jd", "parse_jd", "sequential"), ("matching", "search_rank", "sequential"),
              ("supervisor", "approve_shortlist", "interrupt"), ("communication", "draft", "parallel"),
              ("supervisor", "approve_emails", "interrupt"), ("communication", "send", "sequential"),
              ("scheduling", "schedule_replies", "sequential"), ("supervisor", "confirm_time", "interrupt")),
}

_EMAIL_REQ = re.compile(r"\be-?mail|\bsend\b|\breach out\b|\boutreach\b|\bcontact\b|发邮件|邮件|外联|联系", re.I)
_SCHEDULE_REQ = re.compile(r"\bschedul\w*|\binterviews?\b|\bbook\b.{0,20}\bslots?\b|安排.{0,6}面试|面试|约.{0,4}时间", re.I)
_REVIEW_REQ = re.compile(r"\breview\b|\bscreen\b|\bresumes?\b|\bcv\b|审查|审核|简历|筛选", re.I)
_CLEANUP_REQ = re.compile(r"\bclean\s*-?up\b|\bstale\b|\btidy\b|清理|停滞|整理", re.I)
_LAUNCH_REQ = re.compile(r"\blaunch\b|\bpost\b|\bpublish\b|\bnew (?:job|role|position|opening)\b|\bjd\b|"
                         r"job description|发布|新开|上线|职位描述|解析职位", re.I)
_JOB_REQ = re.compile(r"\bthis (?:job|role|position)\b|\bfor (?:the|a|our)\b.{0,30}\b(?:job|role|position)\b|"
                      r"这个(?:职位|岗位)|该(?:职位|岗位)", re.I)


def infer_workflow(message: str) -> str:
    """The plan's workflow type from the message's words (English or Chinese)."""
    text = " ".join((message or "").split())
    decision = keyword_intent(text)
    if decision and decision.intent == "workflow" and decision.workflow_type in PLAN_WORKFLOW_TYPES:
        return decision.workflow_type
    email, schedule = bool(_EMAIL_REQ.search(text)), bool(_SCHEDULE_REQ.search(text))
    if email and schedule:
        return "chain"
    if _CLEANUP_REQ.search(text):
        return "pipeline_cleanup"
    if email:
        return "job_launch" if (_LAUNCH_REQ.search(text) or _JOB_REQ.search(text)) else "bulk_outreach"
    if schedule:
        return "interview_scheduling"
    if _REVIEW_REQ.search(text):
        return "candidate_review"
    if decision and decision.intent == "plan":
        return "chain"
    return "job_launch" if _LAUNCH_REQ.search(text) or _JOB_REQ.search(text) else "bulk_outreach"


def offline_plan(message: str, workflow_type: str | None, lang: str, *, job_id: str | None = None,
                 candidate_ids: Sequence[str] = (), top: int = 10, cap: int | None = None) -> Plan:
    """The seed §5.3 orchestration of a workflow (None: inferred from the message), with action texts in the
    message's language; estimated emails = top (capped at `cap`, and at 50) when the plan emails candidates."""
    lang = _lang(lang, message)
    kind = workflow_type if workflow_type in ORCHESTRATIONS else infer_workflow(message)
    n = max(1, min(top, MAX_TOP, cap or MAX_TOP))
    if kind in ("candidate_review", "interview_scheduling") and candidate_ids:
        n = min(len(candidate_ids), MAX_TOP, cap or MAX_TOP)
    job = (f"（职位 {job_id}）" if lang == "zh" else f" for job {job_id}") if job_id else ""
    texts = _texts(n, job, n)
    steps = [PlanStep(step=i, agent=agent, action=t(lang, *texts[key]), mode=mode)  # type: ignore[arg-type]
             for i, (agent, key, mode) in enumerate(ORCHESTRATIONS[kind], 1)]
    goal = " ".join((message or "").split())[:2000] or t(lang, kind.replace("_", " "), kind)
    plan = Plan(goal=goal, workflow_type=kind, steps=steps).renumbered()  # type: ignore[arg-type]
    return _reestimate(plan, n)


