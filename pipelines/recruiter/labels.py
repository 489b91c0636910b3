"""What the recruiter's internal values mean to a reader, in English and Chinese: workflow types, agents, step modes,
cleanup categories and a cleanup that changes no stage. Plan texts, cards and the data page say these words; the
raw values (`chain`, `jd`, `interrupt`, `None`) stay in the state, the database and the JSON a model writes."""

from __future__ import annotations

from pipelines.recruiter.answers import stage_name, t
from pipelines.recruiter.schemas import PlanStep

WORKFLOWS: dict[str, tuple[str, str]] = {
    "status_change": ("Status change", "状态变更"),
    "job_launch": ("Job launch", "职位发布"),
    "bulk_outreach": ("Bulk outreach", "批量外联"),
    "candidate_review": ("Candidate review", "候选人审查"),
    "interview_scheduling": ("Interview scheduling", "面试安排"),
    "pipeline_cleanup": ("Pipeline cleanup", "招聘管道清理"),
    "chain": ("Several workflows in a row", "多个流程依次进行"),
}
AGENTS: dict[str, tuple[str, str]] = {
    "supervisor": ("Supervisor", "主管"),
    "jd": ("Job description agent", "职位描述助手"),
    "resume": ("Resume agent", "简历助手"),
    "matching": ("Matching agent", "匹配助手"),
    "communication": ("Communication agent", "沟通助手"),
    "scheduling": ("Scheduling agent", "日程助手"),
    "pipeline": ("Pipeline agent", "招聘管道助手"),
}
MODES: dict[str, tuple[str, str]] = {
    "sequential": ("after the previous step", "按顺序"),
    "parallel": ("in parallel", "并行"),
    "interrupt": ("waits for your approval", "等待你批准"),
}
CATEGORIES: dict[str, tuple[str, str]] = {
    "stale": ("no activity for too long", "长期没有进展"),
    "stuck": ("waiting too long in a late stage", "在后期阶段等待过久"),
    "duplicate": ("the same person applied twice", "同一人重复申请"),
}
NO_NEXT_STAGE = ("no next stage (follow up)", "不变更阶段（跟进）")


def _said(table: dict[str, tuple[str, str]], value: object, lang: str) -> str:
    """The reader's words for `value`; a value the table does not know (a model's own word) as it is."""
    words = table.get(str(value or ""))
    return t(lang, *words) if words else str(value or "—")


def workflow_label(kind: object, lang: str = "en") -> str:
    return _said(WORKFLOWS, kind, lang)


def agent_label(agent: object, lang: str = "en") -> str:
    return _said(AGENTS, agent, lang)


def mode_label(mode: object, lang: str = "en") -> str:
    return _said(MODES, mode or "sequential", lang)


def step_line(step: PlanStep, lang: str = "en") -> str:
    """'3. Supervisor (waits for your approval): Approve the shortlist' — a plan's step as the chat shows it."""
    mode = "" if step.mode == "sequential" else t(lang, f" ({mode_label(step.mode, lang)})", f"（{mode_label(step.mode, lang)}）")
    return f"{step.step}. {agent_label(step.agent, lang)}{mode}{t(lang, ': ', '：')}{step.action}"


def category_label(category: object, lang: str = "en") -> str:
    return _said(CATEGORIES, category, lang)


def target_stage(status: str | None, lang: str = "en") -> str:
    """Where a cleanup moves an application: a stage, or no next stage (a follow-up changes nothing)."""
    return stage_name(status, lang) if status else t(lang, *NO_NEXT_STAGE)


def cleanup_line(proposal: dict, job_title: str = "", lang: str = "en") -> str:
    """'王磊 (C120) · J001 Data Engineer: interview → no next stage (follow up) · waiting too long in a late stage'."""
    job = " ".join(p for p in (str(proposal.get("job_id") or ""), job_title) if p)
    return (f"{proposal.get('name') or proposal.get('candidate_id')} ({proposal.get('candidate_id')}) · {job}: "
            f"{stage_name(proposal.get('status'), lang)} → {target_stage(proposal.get('proposed_status'), lang)} · "
            f"{category_label(proposal.get('category'), lang)}")
