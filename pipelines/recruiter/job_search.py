"""Jobs for a free-text query (a job seeker's "Python jobs in Shanghai"): skills named, title words, location."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipelines.recruiter.records import Job

_WORD = re.compile(r"[a-z0-9+#]+|[\u4e00-\u9fff]{2}")
_STOP = frozenset("a an the of for to and or in on at with any me my i want find show job jobs role roles position "
                  "positions opening openings looking work 职位 岗位 工作 找个 我想".split())


def _words(text: str) -> set[str]:
    lowered = text.lower()
    return {w for w in _WORD.findall(lowered) if w not in _STOP}


def rank_jobs(jobs: Sequence[Job], query: str, top: int = 5) -> list[Job]:
    """The jobs that share the query's skills, title words or city, best first; none when nothing is shared."""
    from pipelines.recruiter.skills import vocabulary

    vocab = vocabulary()
    wanted_skills, words = vocab.extract(query), _words(query)
    scored = []
    for job in jobs:
        job_skills = vocab.extract(" ".join((job.title, " ".join(job.skills), job.description)))
        score = 3.0 * len(wanted_skills & job_skills) + 2.0 * len(words & _words(job.title))
        score += 0.5 * len(words & _words(job.description))
        if job.location and job.location.lower() in query.lower():
            score += 2.0
        if score > 0:
            scored.append((score, job.id, job))
    return [job for _, _, job in sorted(scored, key=lambda item: (-item[0], item[1]))[:top]]
