"""The Pipeline agent's offline rules: which applications are stale, stuck or duplicated, and what to do about
each, with the reason a recruiter reads before approving."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, UTC
from typing import Any

from pipelines.recruiter.answers import stage_name, t
from pipelines.recruiter.records import Candidate

OPEN_STAGES = ("new", "screening", "interview", "offer")
STALE_DAYS = 30   # an early-stage application nobody touched for a month is closed (the candidate has moved on)
STUCK_DAYS = 14   # later stages waiting two weeks get a follow-up, not a decision made for the recruiter


def _age_days(updated_at: Any, now: datetime) -> float:
    if isinstance(updated_at, str):
        updated_at = datetime.fromisoformat(updated_at)
    if updated_at.tzinfo is None:
        updated_at = updated_at.replace(tzinfo=UTC)
    return (now - updated_at).total_seconds() / 86400


def scan(rows: list[dict[str, Any]], people: list[Candidate], now: datetime) -> list[dict[str, Any]]:
    """Every open application with its age, and the candidate's email key for finding the same person twice."""
    email = {p.id: (p.email or "").strip().lower() for p in people}
    return [{"application_id": row["id"], "candidate_id": row["candidate_id"], "name": row.get("candidate_name") or "",
             "job_id": row["job_id"], "job_title": row.get("job_title") or "", "status": row["status"],
             "age_days": round(_age_days(row["updated_at"], now), 1),
             "email_key": email.get(row["candidate_id"], "")}
            for row in rows if row["status"] in OPEN_STAGES]


def categorize(items: list[dict[str, Any]], lang: str, stale_days: int = STALE_DAYS,
               stuck_days: int = STUCK_DAYS) -> list[dict[str, Any]]:
    """Proposals: close a stale early application (rejected), withdraw the later duplicate of one person's
    application to one job, follow up on a later stage that waits too long (no status change)."""
    proposals: list[dict[str, Any]] = []
    by_person_job: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        if item["email_key"]:
            by_person_job[(item["email_key"], item["job_id"])].append(item)
    duplicates: set[int] = set()
    for group in by_person_job.values():
        if len(group) > 1:
            keep, *others = sorted(group, key=lambda i: (i["age_days"] * -1, i["application_id"]))
            for other in others:
                duplicates.add(other["application_id"])
                proposals.append(_proposal(other, "duplicate", "withdrawn", t(
                    lang, f"The same person (same email) also applied as {keep['candidate_id']} for {other['job_id']}.",
                    f"同一人（邮箱相同）也以 {keep['candidate_id']} 申请了 {other['job_id']}。")))
    for item in items:
        if item["application_id"] in duplicates:
            continue
        days = int(item["age_days"])
        stage = stage_name(item["status"], lang)
        if item["status"] in ("new", "screening") and item["age_days"] >= stale_days:
            proposals.append(_proposal(item, "stale", "rejected", t(
                lang, f"No activity for {days} days at the {stage} stage: close it.",
                f"在{stage}阶段 {days} 天没有进展：建议关闭。")))
        elif item["status"] in ("interview", "offer") and item["age_days"] >= stuck_days:
            proposals.append(_proposal(item, "stuck", None, t(
                lang, f"Waiting {days} days at the {stage} stage: follow up with the candidate or the interviewers.",
                f"在{stage}阶段已等待 {days} 天：请跟进候选人或面试官。")))
    return sorted(proposals, key=lambda p: (p["category"], p["job_id"], p["candidate_id"]))


def _proposal(item: dict[str, Any], category: str, to_status: str | None, reason: str) -> dict[str, Any]:
    return {"id": f"{item['application_id']}", "application_id": item["application_id"],
            "candidate_id": item["candidate_id"], "name": item["name"], "job_id": item["job_id"],
            "job_title": item.get("job_title") or "",
            "status": item["status"], "category": category, "proposed_status": to_status, "reason": reason}
