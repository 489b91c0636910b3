"""RIASEC scoring offline: each type in both languages, negation, evidence, and accuracy on unseen sets."""

import json
from pathlib import Path

import pytest

from pipelines.ican.riasec import score_riasec

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ican"

PROFILES = [
    ("R", "I like fixing engines and building furniture in my garage; I'd rather work outdoors with my hands."),
    ("R", "我喜欢修理电器、组装电脑，周末常去户外爬山，更喜欢动手干活。"),
    ("I", "I enjoy reading research papers and running experiments to figure out why something happens."),
    ("I", "我喜欢钻研数学难题，做实验，分析数据背后的原因。"),
    ("A", "I write short stories, compose music and love designing posters; I need room to be creative."),
    ("A", "我平时喜欢画画、摄影和写小说，希望工作能发挥创意。"),
    ("S", "Helping people is what I love: I volunteer at a shelter, tutor kids and listen to friends' problems."),
    ("S", "我喜欢帮助别人，做过志愿者，也喜欢给学生讲课、照顾老人。"),
    ("E", "I like leading a team, pitching ideas to clients and negotiating deals; one day I'll start my own business."),
    ("E", "我喜欢带团队、做销售、谈判，以后想自己创业当老板。"),
    ("C", "I'm very organised: I keep spreadsheets, do the bookkeeping and like following clear procedures."),
    ("C", "我做事细心，喜欢整理文件、做表格和记账，按流程办事让我安心。"),
]


@pytest.mark.parametrize("expected,text", PROFILES)
def test_each_type_leads_on_a_clear_description(expected, text):
    evidence = score_riasec(text)
    assert evidence.holland_code()[0] == expected, evidence.raw
    scores = evidence.scores()
    assert all(0 <= v <= 100 for v in scores.values()) and scores[expected] >= 40
    assert evidence.evidence[expected], "the score is backed by quoted phrases"


def test_a_dislike_counts_against_the_type():
    liked = score_riasec("I enjoy selling and negotiating.").raw["E"]
    disliked = score_riasec("I don't enjoy selling and I hate negotiating.").raw["E"]
    assert liked > 0 >= disliked
    assert score_riasec("我不喜欢销售，对谈判也没兴趣。").raw["E"] <= 0


def test_evidence_quotes_the_client():
    evidence = score_riasec("On weekends I repair old bikes. I also like reading about physics.").evidence
    assert any("repair old bikes" in quote for quote in evidence["R"])


def test_the_resume_counts_half():
    said_only = score_riasec("I like teaching.").raw["S"]
    with_resume = score_riasec("I like teaching.", "Taught classes; trained new staff; counselled students.").raw["S"]
    assert with_resume > said_only


def test_nothing_said_gives_zero_scores_and_a_stable_code():
    evidence = score_riasec("")
    assert set(evidence.scores().values()) == {0} and evidence.holland_code() == "RIA"


def _accuracy(name: str) -> tuple[float, float]:
    items = [json.loads(line) for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    top1 = sum(score_riasec(i["text"]).holland_code()[0] == i["primary"] for i in items) / len(items)
    top2 = sum(i["primary"] in score_riasec(i["text"]).holland_code()[:2] for i in items) / len(items)
    return top1, top2


def test_accuracy_on_the_dev_set():
    top1, top2 = _accuracy("riasec_dev.jsonl")
    assert top1 >= 0.85 and top2 >= 0.95, (top1, top2)


def test_accuracy_on_the_holdout_set():
    """Written by a separate helper that never saw the lexicon; never tuned against."""
    top1, top2 = _accuracy("riasec_holdout.jsonl")
    assert top1 >= 0.75 and top2 >= 0.88, (top1, top2)
