"""Resumes: read PDF, DOCX, TXT or Markdown with langchain-community loaders, tell a resume from other text,
and extract the structured profile offline."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pipelines.core.resume_files import (  # noqa: F401 - iCan's pages and tests read them from here
    MAX_RESUME_BYTES, MAX_RESUME_CHARS, SUFFIXES, ResumeFileError, looks_like_resume, not_a_resume_message,
    not_a_resume_reason, read_resume,
)
from pipelines.core.resume_files import DATE_RANGE as _DATE_RANGE
from pipelines.core.guardrails.document_scan import flagged_count_message, scan_document
from pipelines.ican.occupations import client_skills, skill_names
from pipelines.ican.education import DEGREE_RANK, degree_in, field_after_degree, mentions_degree
from pipelines.ican.offline import extract_basic_info, years_of_experience
from pipelines.ican.schemas import EducationEntry, ExperienceEntry, StructuredProfile


_SCHOOL = re.compile(r"(?:University|College|Institute) of [A-Z][\w.&' ]*?(?=,|;|\s+\d|\s*$)|"
                     r"[A-Z][\w.&' ]+(?:University|College|Institute|School)|[\u4e00-\u9fff]{2,12}(?:大学|学院)")


def _education(lines: list[str]) -> list[EducationEntry]:
    entries = []
    for line in lines:
        degree = degree_in(line)
        if degree and len(line) < 200:
            year = re.search(r"(?:19|20)\d{2}", line)
            school = _SCHOOL.search(line)
            entries.append(EducationEntry(degree=degree, school=school.group(0).strip() if school else None,
                                          year=year.group(0) if year else None, field=field_after_degree(line)))
    return entries[:4]


def _title_and_organization(text: str) -> tuple[str | None, str | None]:
    for separator in (" — ", " – ", " | ", " at ", " @ ", "，"):
        if separator in text:
            title, organization = text.split(separator, 1)
            return title.strip()[:120] or None, organization.strip()[:120] or None
    return text.strip()[:120] or None, None


def _experience(lines: list[str]) -> tuple[list[ExperienceEntry], float | None]:
    """Entries from lines with a date range; the title is on that line, or on the line above it."""
    entries, years = [], 0.0
    for i, line in enumerate(lines):
        match = _DATE_RANGE.search(line)
        if not match or mentions_degree(line):
            continue
        start, end_text = int(match.group(1)), match.group(2).lower()
        years += max(0, (int(end_text) if end_text.isdigit() else datetime.date.today().year) - start)
        heading = _DATE_RANGE.sub("", line).strip(" |,-–—:·\t")
        if not heading and i > 0 and not _DATE_RANGE.search(lines[i - 1]):
            heading = lines[i - 1]
        title, organization = _title_and_organization(heading)
        summary = lines[i + 1] if i + 1 < len(lines) and not _DATE_RANGE.search(lines[i + 1]) else None
        entries.append(ExperienceEntry(title=title, organization=organization, period=match.group(0), summary=summary))
    return entries[:8], (years or None)


def screen(resume_text: str, flagged: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The resume as the engines may read it: `resume_text` without the passages that read like instructions to an
    AI, and `resume_flagged` listing them (with what was found) after those flagged before. The parser, the RIASEC
    evidence, the report and the PDF only ever see the clean text."""
    scanned = scan_document(resume_text or "")
    return {"resume_text": scanned.clean if scanned else resume_text or "",
            "resume_flagged": [*flagged, *(p.to_dict() for p in scanned.flagged)]}


def flagged_passages(state: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The resume's flagged passages as the state keeps them ({"text", "reasons"}), those with a text only."""
    return [p for p in state.get("resume_flagged") or [] if isinstance(p, Mapping) and p.get("text")]


def flagged_note(count: int, lang: str) -> str:
    """What the page, the report and the PDF say about the resume's passages left out."""
    return (f"简历中有 {count} 段文字像是写给 AI 的指令，未被使用。" if lang == "zh"
            else flagged_count_message(count, "the resume"))


def _lines(resume_text: str) -> list[str]:
    return [line.strip(" •*-#\t") for line in (resume_text or "").splitlines() if line.strip(" •*-#\t")]


def years_given(said_years: float | None, resume_text: str) -> tuple[float | None, bool]:
    """(years of experience, whether it is an estimate): the figure the client gave in the conversation, else what
    the resume's dates add up to (an estimate: dates miss gaps, part-time work and jobs left off), else a figure the
    resume's text gives ("7 years of cardiac care")."""
    if said_years:
        return said_years, False
    dated = _experience(_lines(resume_text))[1] if resume_text else None
    if dated:
        return dated, True
    return (years_of_experience(resume_text) if resume_text else None), False


def resume_facts(resume_text: str) -> dict[str, Any]:
    """What a resume already tells the guide: the highest degree and its field, the latest role, the years (with
    whether they are an estimate from its dates). Only what it gives is set."""
    lines = _lines(resume_text)
    education, (experience, _) = _education(lines), _experience(lines)
    highest = min(education, key=lambda e: DEGREE_RANK.get(e.degree or "", len(DEGREE_RANK)), default=None)
    years, estimated = years_given(None, resume_text)
    facts = {"education": highest.degree if highest else None, "major": highest.field if highest else None,
             "current_role": experience[0].title if experience else None, "years_experience": years}
    facts = {name: value for name, value in facts.items() if value}
    if years:
        facts["years_estimated"] = estimated
    return facts


def profile_from(resume_text: str, said: str, collected: Mapping[str, Any], lang: str) -> StructuredProfile:
    """The offline resume parser: the resume's sections when there is one, else what the client said."""
    spoken = extract_basic_info(said, lang)
    target = collected.get("target") or spoken.target
    if not resume_text:
        education = [EducationEntry(degree=spoken.education, field=spoken.major)] if spoken.education or spoken.major else []
        experience = [ExperienceEntry(title=spoken.current_role)] if spoken.current_role else []
        return StructuredProfile(source="conversation", education=education, experience=experience,
                                 years_experience=spoken.years_experience, skills=spoken.skills, target=target,
                                 summary=summary(spoken.current_role, spoken.years_experience, target, lang))
    lines = _lines(resume_text)
    experience, _ = _experience(lines)
    skills = skill_names(client_skills(resume_text + "\n" + said), lang)
    first = lines[0] if lines else ""
    name = first if len(first) <= 40 and not re.search(r"\d|@|resume|简历", first, re.I) else None
    role = experience[0].title if experience else spoken.current_role
    years, estimated = years_given(spoken.years_experience, resume_text)
    return StructuredProfile(source="resume+conversation" if said.strip() else "resume", name=name,
                             education=_education(lines), experience=experience, years_experience=years,
                             skills=skills, target=target, summary=summary(role, years, target, lang, estimated))


def keep_client_facts(profile: StructuredProfile, said_years: float | None, said_degree: str | None,
                      resume_text: str, lang: str) -> StructuredProfile:
    """The profile with what the client gave kept as given, whoever parsed it (a model may work the years out from
    the resume's dates): the client's years of experience, stated, beat an estimate, and the degree they named is
    among the education entries. A summary written around another figure is written again."""
    years, estimated = years_given(said_years, resume_text)
    update: dict[str, Any] = {}
    if years and not estimated and profile.years_experience != years:
        update["years_experience"] = years
        if profile.years_experience is not None:
            role = next((e.title for e in profile.experience if e.title), None)
            update["summary"] = summary(role, years, profile.target, lang)
    if said_degree and said_degree not in {e.degree for e in profile.education}:
        update["education"] = [EducationEntry(degree=said_degree), *profile.education]
    return profile.model_copy(update=update) if update else profile


def summary(role: str | None, years: float | None, target: str | None, lang: str, estimated: bool = False) -> str:
    """One line on the client: role, years (\"about\" only for an estimate), where they want to go."""
    if lang == "zh":
        parts = [f"目前/最近的角色：{role}" if role else "",
                 (f"约 {years:g} 年经验" if estimated else f"{years:g} 年经验") if years else "",
                 f"希望发展方向：{target}" if target else ""]
        return "；".join(p for p in parts if p) or "来访者尚未提供详细的背景信息。"
    parts = [f"current or latest role: {role}" if role else "",
             (f"about {years:g} years of experience" if estimated else f"{years:g} years of experience") if years else "",
             f"wants to move towards {target}" if target else ""]
    text = "; ".join(p for p in parts if p) or "the client has not given much background yet"
    return text[0].upper() + text[1:] + "."
