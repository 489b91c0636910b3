"""classify_intent's fast keyword path (seed §2) in English and Chinese: a multi-step task goes to the planner,
an explicit workflow trigger to that workflow, a plain question or single action to the chat; None when the
words do not settle it (the model decides then, or the chat by default)."""

from __future__ import annotations

import re

from pipelines.recruiter.schemas import IntentDecision

# Each workflow's explicit triggers. Words alone ("interview", "email") are not triggers: the chat answers
# "who is in the interview stage?" and drafts one email; a workflow is a request to *do* the whole thing.
# Tried in order: a job launch also names its outreach, so the more specific workflow comes first.
_WORKFLOW_TRIGGERS: dict[str, tuple[str, ...]] = {
    "status_change": (
        r"\b(?:move|advance|promote|set|change|put|mark)\b.{0,60}?\b(?:to|as|into)\s+(?:the\s+)?"
        r"(?:new|screening|interview|offer|hired|rejected|withdrawn)\b",
        r"\breject\s+(?:candidate\s+)?[A-Z\u4e00-\u9fff][\w\u4e00-\u9fff.-]*",
        r"(?:把|将).{1,30}?(?:移到|移至|改为|改成|调到|推进到|设为|标记为).{0,6}?(?:新申请|筛选|初筛|面试|录用通知|offer|已录用|录用|拒绝|淘汰|撤回)",
        r"(?:拒绝|淘汰)(?:候选人)?\s*[A-Z\u4e00-\u9fff]",
    ),
    "job_launch": (
        r"\b(?:launch|post|open|publish)\b.{0,20}\b(?:a\s+|the\s+)?(?:new\s+)?(?:job|position|role|opening)\b",
        r"(?:发布|上线|新开).{0,6}(?:职位|岗位)",
    ),
    "bulk_outreach": (
        r"\b(?:send|email|reach out to)\b.{0,40}\b(?:all|every|top\s+\d+|these|them|candidates)\b.{0,40}"
        r"\b(?:outreach|emails?|about|for)\b",
        r"\bbulk\s+(?:outreach|email)", r"批量(?:发送|发|外联)", r"(?:给|向)(?:所有|这些|前\s*\d+\s*名?)(?:候选人)?发",
    ),
    "interview_scheduling": (
        r"\bschedul\w*\b.{0,30}\binterviews?\b", r"\bbook\b.{0,30}\binterviews?\b", r"安排.{0,10}面试", r"约.{0,6}面试",
    ),
    "pipeline_cleanup": (
        r"\bclean\s*up\b.{0,20}\bpipeline\b", r"\bpipeline\s+clean\s*-?up\b", r"\bstale\s+applications?\b",
        r"清理.{0,6}(?:管道|流程|漏斗|候选人池)", r"(?:管道|流程)清理",
    ),
    "candidate_review": (
        r"\breview\b.{0,30}\b(?:candidates?|applicants?|resumes?)\b.{0,30}\b(?:for|against)\b",
        r"审查.{0,10}(?:候选人|简历)", r"(?:候选人|简历)审查",
    ),
}
_STEP_VERBS = (r"\b(?:find|search|match|source)\b|找|搜索|匹配", r"\b(?:e-?mail|send|reach out|contact)\b|发邮件|邮件|联系",
               r"\bschedul\w*|\binterviews?\b|安排|面试", r"\b(?:review|screen)\b|筛选|审查",
               r"\b(?:parse|analy[sz]e)\b.{0,20}\b(?:jd|job description)\b|解析职位")
_SEQUENCE = re.compile(r"\bthen\b|\bafter that\b|\band finally\b|\bfollowed by\b|然后|之后|接着|再(?:给|安排|发)|最后", re.I)
_COMPILED = {kind: tuple(re.compile(p, re.I) for p in patterns) for kind, patterns in _WORKFLOW_TRIGGERS.items()}
_STEPS = tuple(re.compile(p, re.I) for p in _STEP_VERBS)


def keyword_intent(message: str) -> IntentDecision | None:
    text = " ".join((message or "").split())
    steps = [pattern.pattern for pattern in _STEPS if pattern.search(text)]
    if len(steps) >= 2 and _SEQUENCE.search(text):
        return IntentDecision(intent="plan", workflow_type=None,
                              reasoning=f"{len(steps)} kinds of step joined by a sequence word: a multi-step task")
    for kind, patterns in _COMPILED.items():
        if any(p.search(text) for p in patterns):
            return IntentDecision(intent="workflow", workflow_type=kind,
                                  reasoning=f"an explicit {kind.replace('_', ' ')} request")
    return None
