"""What a recruiter's message names: job and candidate ids however they are written, in English and Chinese."""

from __future__ import annotations

from pipelines.recruiter.resolve import find_mentions


def test_an_id_written_straight_after_chinese_characters_is_found(recruiting):
    jobs, people = recruiting.jobs(), recruiting.candidates()
    for message in ("把J001所有候选人的情况告诉我", "J001的候选人有哪些？", "Who matches J001?", "看看C001和J001"):
        assert [job.id for job in find_mentions(message, jobs, people).jobs][:1] == ["J001"], message
    assert [p.id for p in find_mentions("看看C001和J001", jobs, people).candidates][:1] == ["C001"]
    assert not find_mentions("XJ001 and J0012345678", jobs, people).jobs  # parts of longer words name nothing
