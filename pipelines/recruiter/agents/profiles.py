"""What the Resume and JD agents read out of a resume or a job offline: skills with the evidence behind them,
experience, education and contact (masked), and a job's must-have vs nice-to-have requirements."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pipelines.core.guardrails.document_scan import scan_document
from pipelines.recruiter.match_text import EVIDENCE, resume_lines, resume_years, skill_evidence
from pipelines.recruiter.records import Candidate, Job
from pipelines.recruiter.skills import SkillVocabulary

# Where a job text turns from what it needs to what would be welcome.
_NICE = re.compile(r"nice[- ]to[- ]have|\bbonus\b|\ba plus\b|\bpreferred\b|\bideally\b|\bdesirable\b|加分|优先|更佳|最好",
                   re.I)
_SENTENCE = re.compile(r"(?<=[.!?。！？；;\n])")


def evidence_label(weight: float) -> str:
    """How a skill shows in the resume: in work experience, mentioned, only listed, or only studied."""
    return next((kind for kind, value in EVIDENCE.items() if weight >= value), "edu")


def resume_profile(person: Candidate, vocab: SkillVocabulary, mask: Callable[[Sequence[str]], list[str]],
                   lang: str = "en") -> dict[str, Any]:
    """Skills (with where they show), years, education lines, contact masked by `mask` (the session's vault, all
    texts in one go), and whether the resume carries instructions to an AI (then it is data only, and says so)."""
    scanned = scan_document(person.resume_text)  # a flagged passage is never evidence of a skill or of years
    lines = resume_lines(scanned.clean)
    evidence = skill_evidence(vocab, lines, person.skills)
    skills = [{"id": skill, "name": vocab.display(skill, lang), "evidence": evidence_label(weight)}
              for skill, weight in sorted(evidence.items(), key=lambda item: (-item[1], item[0]))]
    years = person.years_experience if person.years_experience is not None else resume_years(scanned.clean, lines=lines)
    email, phone, *education = mask([person.email or "", person.phone or "",
                                     *(line for line, kind in lines if kind == "edu")][:5])
    contact = {"email": email or None, "phone": phone or None}
    return {"candidate_id": person.id, "name": person.name, "skills": skills,
            "years": round(years, 1) if years is not None else None, "education": education,
            "location": person.location, "contact": contact, "flagged": bool(scanned),
            "flag_reasons": list(scanned.reasons)}


def job_profile(job: Job, vocab: SkillVocabulary, lang: str = "en") -> dict[str, Any]:
    """The job's must-have skills (its list, or what its text asks for), the nice-to-have ones its text names after
    words like "nice to have" / "加分", the minimum years and the place."""
    must = [s for s in (vocab.normalise(name) for name in job.skills) if s]
    scanned = scan_document(job.description or "")  # a flagged passage asks for nothing
    nice_text, need_text = [], []
    for sentence in _SENTENCE.split(scanned.clean):
        (nice_text if _NICE.search(sentence) else need_text).append(sentence)
    if not must:
        must = vocab.extract_ordered(job.title + "\n" + "\n".join(need_text))
    covered = vocab.expand(must)
    nice = [s for s in vocab.extract_ordered("\n".join(nice_text)) if s not in covered]
    return {"job_id": job.id, "title": job.title, "must_have": [vocab.display(s, lang) for s in dict.fromkeys(must)],
            "must_have_ids": list(dict.fromkeys(must)), "nice_to_have": [vocab.display(s, lang) for s in nice],
            "unknown_skills": [name for name in job.skills if not vocab.normalise(name)],
            "min_years": job.min_years, "location": job.location, "flagged": bool(scanned),
            "flag_reasons": list(scanned.reasons)}
