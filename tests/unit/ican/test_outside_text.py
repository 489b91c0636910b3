"""Text from outside in iCan: over-long messages get their length and the limit, runs are named by the client's
first words, and the client's words stay words in the report and its PDF."""

import io

import pytest
from pypdf import PdfReader

from pipelines.core.markup import sanitize_markdown
from pipelines.core.errors import InvalidInput
from pipelines.ican.report import write_report

HOSTILE = "I love data ![x](http://evil.example/p.png) <img src=x> **now** | and *this*"


def pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_an_over_long_message_says_its_length_and_the_limit(start_ican):
    with pytest.raises(InvalidInput, match="The message is 4,001 characters; the limit is 4,000: shorten it"):
        start_ican(raw_input="x" * 4001)
    session = start_ican(raw_input="I feel stuck.")
    session.run("end")
    before = session.values()["conversation_history"]
    with pytest.raises(InvalidInput, match="The message is 200,000 characters; the limit is 4,000"):
        session.resume("y" * 200_000)
    assert session.values()["conversation_history"] == before and session.status() == "waiting"


def test_a_run_is_titled_by_the_clients_first_words(start_ican, studio):
    session = start_ican(raw_input="  Hi,\n  I'm a lab technician at a food testing company.   Lately I feel stuck "
                                   "and I'm not sure what to do next.")
    title = studio.runs.get_thread(session.thread_id).title
    assert title == "Hi, I'm a lab technician at a food testing company. Lately…"
    assert studio.runs.get_thread(start_ican(raw_input="我想转行。").thread_id).title == "我想转行。"


def test_the_clients_words_stay_words_in_the_report_and_the_pdf(ican):
    state = {"language": "en", "holland_code": "IAS", "riasec_scores": {"I": 80, "A": 60, "S": 40},
             "riasec_evidence": {"I": [HOSTILE]}, "resume_issue": "**cv**.pdf is empty",
             "structured_profile": {"summary": "Current role: <b>boss</b>"},
             "career_matches": [{"onet_soc_code": "15-2051.00", "title": "Data | Scientists", "score": 0.7,
                                 "reason": "fits *well*", "high_point_code": "IC"}],
             "conversation_history": [{"role": "user", "content": HOSTILE}]}
    report = write_report(state)
    for raw in ("![x](", "<img src=x>", "**now**", "<b>boss</b>", "**cv**", "*well*"):
        assert raw not in report, raw
    text = " ".join(pdf_text(ican.pdf({**state, "final_report": report})).split())
    # the PDF shows what the client wrote, as written: no backslashes, no formatting taken from it
    assert "I love data ![x](http://evil.example/p.png) <img src=x> **now** | and *this*" in text
    assert "**cv**.pdf is empty" in text and "Data | Scientists" in text and "fits *well*" in text


def test_escaped_outside_text_passes_the_sanitiser_unchanged():
    report = write_report({"language": "en", "holland_code": "I", "riasec_evidence": {"I": ["I like <b>data</b>"]},
                           "riasec_scores": {"I": 90}})
    assert sanitize_markdown(report) == report
