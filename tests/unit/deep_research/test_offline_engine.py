"""The offline engine's parts on made-up passages: tokens for compounds and possessives, cross-language extraction,
a sentence given with the one it leans on, sentences an earlier step gave left out, and the report citing each
sentence once per step."""

from __future__ import annotations

from pipelines.deep_research.citations import check, number_refs
from pipelines.deep_research.glossary import equivalents
from pipelines.deep_research.offline.compose import compose_report
from pipelines.deep_research.offline.extract import extract
from pipelines.deep_research.retrieval import TOKENIZE
from pipelines.deep_research.schemas import Plan, Step


def _passage(ref: str, text: str, document: str = "a.md") -> dict:
    return {"ref": ref, "text": text, "title": "", "section": "", "document": document}


def test_hyphenated_compounds_yield_their_parts_and_possessives_their_noun():
    tokens = TOKENIZE("The night-shift ratio and today's non-compliance")
    assert {"night", "shift", "night-shift", "ratio", "today", "compliance"} <= set(tokens)
    assert "today's" not in tokens


def test_general_words_have_chinese_equivalents_both_ways():
    assert "短缺" in equivalents("shortage") and "shortage" in equivalents("短缺")
    assert "准点率" in equivalents("punctuality")


def test_a_chinese_passage_answers_an_english_step_through_the_glossary():
    passages = [_passage("P1", "The ferry operator reported a shortage of spare parts. Weather delayed three sailings."),
                _passage("P2", "由于零部件短缺，渡轮公司推迟了新航线。新航线将于2026年开通。", "b.md")]
    found = extract("Which shortage caused the delay?", passages, limit=4)
    assert found[0].text == "由于零部件短缺，渡轮公司推迟了新航线。" and found[0].ref == "P2"


def test_a_sentence_that_leans_on_the_one_before_is_given_with_it():
    passages = [_passage("P1", "Harbour crane availability was 84% in 2022. It rose to 91% in 2023 after a refit.")]
    found = extract("What did the refit in 2023 change?", passages, limit=1)
    assert found[0].text == "Harbour crane availability was 84% in 2022. It rose to 91% in 2023 after a refit."


def test_sentences_an_earlier_step_gave_are_left_out():
    passages = [_passage("P1", "Crane availability was 84% in 2022. Crane downtime fell by half in 2023.")]
    found = extract("crane availability downtime", passages, limit=3, skip=["Crane availability was 84% in 2022."])
    assert [e.text for e in found] == ["Crane downtime fell by half in 2023."]


def test_the_report_cites_every_sentence_and_a_step_that_found_only_what_was_said_is_no_gap():
    text = "Harbour crane availability was 84% in 2022. It rose to 91% in 2023 after a refit."
    item = {**_passage("P1", text), "step": 0, "kind": "passage", "passage_id": "x1",
            "findings": [{"text": text, "rank": 0}]}
    again = {**item, "step": 1}
    plan = Plan(locale="en-US", has_enough_context=False, thought="", title="Cranes",
                steps=[Step(title="Find: crane availability", description="d"),
                       Step(title="Find: crane refit", description="d")])
    report = compose_report({"locale": "en-US", "data_collections": [item, again], "original_query": "Cranes?"}, plan)
    key_points, body = report.split("## Detailed analysis")
    assert key_points.count("It rose to 91%") == 1 and "2022. [[P1]] It rose" in body
    refit = body.split("### Find: crane refit")[1].split("##")[0]
    assert "It rose to 91%" in refit and "do not say" not in refit  # said again under its step, not a gap
    numbered, citations = number_refs(report.replace("{citations}", ""), [item])
    assert check(numbered, citations)["unsupported"] == []
