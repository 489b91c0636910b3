"""Which jobs, candidates and pipeline stages a message names: by id, by a candidate's full or unique first name,
by a job's title words, and by the recent conversation ("this job", "她") when the message itself names none."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipelines.core.text import name_key
from pipelines.recruiter.records import Candidate, Job

# Bounded by ASCII letters and digits only: Chinese characters count as word characters, and "把J001所有" names J001.
_ID = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{1,4}-?\d{1,6}(?![A-Za-z0-9])")
_WORD = re.compile(r"[a-z0-9+#.]+|[\u4e00-\u9fff]")
_STOP = frozenset("a an the of for to and or in on at with who what which is are be me my our show find list "
                  "candidates candidate job jobs role position engineer senior junior".split())
STAGE_WORDS: dict[str, tuple[str, ...]] = {
    "new": ("new", "applied", "新申请", "新投递", "新"),
    "screening": ("screening", "screen", "筛选", "初筛"),
    "interview": ("interview", "interviews", "interviewing", "面试"),
    "offer": ("offer", "offers", "录用通知", "发offer"),
    "hired": ("hired", "hire", "已录用", "入职", "录用"),
    "rejected": ("rejected", "reject", "declined", "拒绝", "淘汰"),
    "withdrawn": ("withdrawn", "withdrew", "withdraw", "撤回", "放弃"),
}


@dataclass(frozen=True)
class Mentions:
    jobs: tuple[Job, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    stage: str | None = None


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _name_hits(text: str, people: Sequence[Candidate]) -> list[Candidate]:
    lowered = text.lower()
    folded = name_key(text)  # names compare as the import stores them: one line, case folded
    full = [c for c in people if c.name and name_key(c.name) in folded]
    if full:
        return full
    # a unique first or last name, as a whole word (Latin names only: Chinese given names are too short to trust)
    by_part: dict[str, list[Candidate]] = {}
    for person in people:
        for part in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", person.name):
            by_part.setdefault(part.lower(), []).append(person)
    hits = []
    for part, owners in by_part.items():
        if len(owners) == 1 and re.search(rf"(?<![A-Za-z]){re.escape(part)}(?![A-Za-z])", lowered):
            hits.append(owners[0])
    return hits


def stage_in(text: str) -> str | None:
    lowered = text.lower()
    for stage, words in STAGE_WORDS.items():
        for word in words:
            if re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", lowered) if word.isascii() else word in lowered:
                return stage
    return None


def find_mentions(text: str, jobs: Sequence[Job], people: Sequence[Candidate],
                  history: Sequence[str] = ()) -> Mentions:
    """What `text` names; jobs and candidates it does not name are looked for in `history`, newest first."""
    found = _mentions_in(text, jobs, people)
    if found.jobs and found.candidates:
        return found
    for earlier in reversed(history):
        before = _mentions_in(earlier, jobs, people, by_title=False)
        found = Mentions(found.jobs or before.jobs, found.candidates or before.candidates, found.stage)
        if found.jobs and found.candidates:
            break
    return found


def _mentions_in(text: str, jobs: Sequence[Job], people: Sequence[Candidate], by_title: bool = True) -> Mentions:
    ids = {token.upper() for token in _ID.findall(text)}
    job_hits = [job for job in jobs if job.id.upper() in ids]
    person_hits = [c for c in people if c.id.upper() in ids] or _name_hits(text, people)
    if not job_hits and by_title:
        words = _words(text)
        scored = sorted(((len(words & _words(job.title)) / max(len(_words(job.title)), 1), job.id, job)
                         for job in jobs), key=lambda item: (-item[0], item[1]))
        if scored and scored[0][0] >= 0.5 and (len(scored) == 1 or scored[0][0] > scored[1][0]):
            job_hits = [scored[0][2]]
    return Mentions(tuple(job_hits), tuple(dict.fromkeys(person_hits)), stage_in(text))
