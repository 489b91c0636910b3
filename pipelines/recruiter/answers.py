"""The recruiter's answers drawn from the data, in English or Chinese: match lists with their reasons, job cards,
resume summaries, pipeline stages and outreach drafts. Plain text: nothing here is rendered as Markdown."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pipelines.core.resume_files import DATE_RANGE
from pipelines.core.text import clip
from pipelines.recruiter.records import Candidate, Job, Match

_STAGE_ZH = {"new": "新申请", "screening": "筛选", "interview": "面试", "offer": "录用通知", "hired": "已录用",
             "rejected": "已拒绝", "withdrawn": "已撤回"}


def t(lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh" else en


def stage_name(stage: str | None, lang: str) -> str:
    return _STAGE_ZH.get(stage or "", stage or "") if lang == "zh" else (stage or "")


def match_lines(matches: Sequence[Match], job: Job | None, lang: str) -> str:
    if not matches:
        return t(lang, "No candidate matches.", "没有匹配的候选人。")
    head = (t(lang, f"Best matches for {job.id} ({job.title}):", f"{job.id}（{job.title}）的最佳人选：") if job
            else t(lang, "Best matches:", "最佳人选："))
    lines = [head]
    for rank, match in enumerate(matches, start=1):
        lines.append(f"{rank}. {match.name} ({match.candidate_id}) — {t(lang, 'score', '得分')} {match.score:.2f}")
        lines.extend(f"   · {reason}" for reason in match.reasons[:3])
        if match.missing_skills:
            lines.append("   · " + t(lang, "Missing: ", "缺少：") + ", ".join(match.missing_skills))
        lines.extend(f"   · {note}" for note in match.filter_notes)
    return "\n".join(lines)


def job_card(job: Job, lang: str, short: bool = False) -> str:
    lines = [f"{job.id} — {job.title}"]
    if job.location:
        lines.append(t(lang, f"Location: {job.location}", f"地点：{job.location}"))
    if job.min_years is not None:
        lines.append(t(lang, f"Experience: {job.min_years:g}+ years", f"经验：{job.min_years:g} 年以上"))
    if job.skills:
        lines.append(t(lang, "Required skills: ", "必备技能：") + ", ".join(job.skills))
    lines.append(clip(" ".join(job.description.split()), 240 if short else 1200))
    return "\n".join(lines)


def _roles(resume: str, limit: int = 3) -> list[str]:
    lines = [line.strip(" -•·\t") for line in resume.splitlines() if line.strip()]
    return [clip(line, 140) for line in lines if DATE_RANGE.search(line)][:limit]


def candidate_summary(person: Candidate, lang: str, services: Any) -> tuple[str, bool]:
    """A resume summary from the data, and whether the resume carries instructions to an AI (quoted as data,
    never followed: the summary then says so)."""
    from pipelines.core.guardrails.document_scan import scan_document
    from pipelines.recruiter.skills import vocabulary

    vocab = vocabulary()
    scanned = scan_document(person.resume_text)  # the summary is written from the passages that were not flagged
    resume = scanned.clean
    skills = sorted({vocab.display(s, lang) for s in vocab.extract(resume)} |
                    {s for s in person.skills})
    lines = [f"{person.name} ({person.id})"]
    facts = []
    if person.location:
        facts.append(t(lang, f"based in {person.location}", f"常驻{person.location}"))
    if person.years_experience is not None:
        facts.append(t(lang, f"{person.years_experience:g} years of experience", f"{person.years_experience:g} 年经验"))
    if facts:
        lines.append(("; " if lang != "zh" else "；").join(facts))
    if skills:
        lines.append(t(lang, "Skills: ", "技能：") + ", ".join(skills[:15]))
    roles = _roles(resume)
    if roles:
        lines.append(t(lang, "Recent roles:", "近期经历："))
        lines.extend(f"  · {role}" for role in roles)
    education = [line for line in resume.splitlines()
                 if re.search(r"\b(?:B\.?Sc|BSc|BA|MSc|M\.?S\.|MBA|PhD|Bachelor|Master)\b|本科|学士|硕士|博士|大专", line)]
    if education:
        lines.append(t(lang, "Education: ", "教育：") + clip(education[0].strip(" -•·"), 140))
    if person.source_file:
        lines.append(t(lang, f"Resume file: {person.source_file}", f"简历文件：{person.source_file}"))
    flagged = bool(scanned)
    if flagged:
        lines.append(t(lang, "Note: this resume contains text addressed to an AI system. It was treated as data and "
                             "not followed; review the resume yourself.",
                       "注意：这份简历包含写给 AI 系统的指令。它被当作数据处理，没有被执行；请人工审阅这份简历。"))
    return "\n".join(lines), flagged


def status_lines(person: Candidate, rows: Sequence[dict[str, Any]], lang: str) -> str:
    if not rows:
        return t(lang, f"{person.name} ({person.id}) has no application yet.", f"{person.name}（{person.id}）还没有申请记录。")
    lines = [t(lang, f"{person.name} ({person.id}):", f"{person.name}（{person.id}）：")]
    for row in rows:
        when = str(row.get("updated_at") or "")[:10]
        lines.append(f"  · {row['job_id']} {row.get('job_title') or ''} — {stage_name(row['status'], lang)}"
                     + (t(lang, f" (since {when})", f"（{when} 起）") if when else ""))
    return "\n".join(lines)


def stage_lines(rows: Sequence[dict[str, Any]], stage: str | None, job: Job | None, lang: str) -> str:
    where = f" {job.id}" if job else ""
    label = stage_name(stage, lang)
    if not rows:
        return t(lang, f"Nobody is in {label}{where}.", f"{where}{label}阶段没有候选人。")
    lines = [t(lang, f"In {label}{where} ({len(rows)}):", f"{where}{label}阶段（{len(rows)} 人）：")]
    for row in rows[:50]:
        lines.append(f"  · {row.get('candidate_name') or row['candidate_id']} ({row['candidate_id']}) — {row['job_id']}")
    if len(rows) > 50:
        lines.append(t(lang, f"  … and {len(rows) - 50} more", f"  ……另有 {len(rows) - 50} 人"))
    return "\n".join(lines)


def outreach_draft(person: Candidate, job: Job | None, lang: str, matched: Sequence[str] = ()) -> dict[str, str]:
    """An outreach email personalised from the resume's matched skills and the job: {"to", "subject", "body"}.
    Nothing in it comes from outside the data, so the output check has nothing invented to catch."""
    role = job.title if job else t(lang, "roles on our team", "我们团队的职位")
    to = person.email or ""
    if lang == "zh":
        strengths = f"您在{'、'.join(matched)}方面的经验" if matched else "您的经历"
        body = (f"{person.name}，您好：\n\n我们正在招聘{role}，{strengths}让我们印象深刻。"
                "如果您有兴趣，我们很想和您聊聊这个机会。请回复本邮件告知您方便的时间。\n\n祝好")
        return {"to": to, "subject": f"{role} 机会", "body": body}
    strengths = f"your experience with {', '.join(matched)}" if matched else "your background"
    body = (f"Hi {person.name.split()[0] if person.name.split() else person.name},\n\nWe are hiring for {role}, and "
            f"{strengths} stood out to us. If you are open to it, we would love to tell you more about the role. "
            "Would you have 20 minutes this week or next?\n\nBest regards")
    return {"to": to, "subject": f"{role} opportunity", "body": body}


def draft_email_text(person: Candidate, job: Job | None, lang: str, services: Any) -> str:
    """An outreach draft for the chat; it is not sent (sending goes through the outbox and its approval)."""
    matched: Sequence[str] = ()
    if job is not None:
        explained = services.index().explain(job, person.id, lang=lang)
        matched = explained.matched_skills[:3] if explained else ()
    draft = outreach_draft(person, job, lang, matched)
    to = draft["to"] or t(lang, "(no email on file)", "（无邮箱）")
    if lang == "zh":
        return f"收件人：{to}\n主题：{draft['subject']}\n\n{draft['body']}\n\n（草稿，尚未发送）"
    return f"To: {to}\nSubject: {draft['subject']}\n\n{draft['body']}\n\n(Draft — not sent)"
