"""A session's language: set by the first message (or chosen), switched only by a message clearly in the other one."""

import pytest

from pipelines.ican.language import clear_language, first_language, language_after

MIXED_EN = "I have a B.Sc. in Biology, 我也喜欢画画 and I want to work with data."
MIXED_ZH = "我做了6年UI设计，熟悉Figma、Photoshop和Sketch，也会一点HTML。"


@pytest.mark.parametrize("text,language", [
    ("Hi, I'm a lab technician and I feel stuck.", "en"),
    ("你好，我是一名初中语文老师，想转行。", "zh"),
    ("我是Java后端开发，用过Spring Boot、MySQL、Redis、Kafka", "zh"),  # Chinese with many English terms
    ("I work at 腾讯 in 北京 and I am a product manager.", "en"),  # English with Chinese names
    ("转行", "zh"),
    ("OK", "en"),
])
def test_the_first_message_sets_the_language(text, language):
    assert first_language(text) == language


@pytest.mark.parametrize("text", [
    "北京大学", "Python, SQL and Excel", "好的", "OK", "Figma", "我会Python、SQL、Excel和Photoshop",
    "My mother always said 我们家的孩子一定要当医生，不能做别的 and I hated it",
])
def test_a_short_mixed_or_names_only_message_is_in_no_clear_language(text):
    assert clear_language(text) is None


def test_a_message_is_clearly_in_the_language_most_of_it_is_written_in():
    assert clear_language(MIXED_EN) == "en" and clear_language(MIXED_ZH) == "zh"


def test_an_english_session_stays_english_with_a_chinese_clause():
    assert language_after("en", ["I feel stuck in my job.", MIXED_EN]) == "en"
    assert language_after("en", ["I feel stuck in my job.", "北京大学"]) == "en"


def test_a_chinese_session_stays_chinese_with_english_terms_and_names():
    assert language_after("zh", ["我想转行。", MIXED_ZH]) == "zh"
    assert language_after("zh", ["我想转行。", "Python, SQL and Excel"]) == "zh"
    assert language_after("zh", ["我想转行。", "OK"]) == "zh"


def test_a_clear_switch_changes_the_language_both_ways():
    assert language_after("en", ["I feel stuck.", "其实我更想用中文说：我想成为一名数据分析师。"]) == "zh"
    assert language_after("zh", ["我想转行。", "Actually, let me answer in English: I want to become a data analyst."]) \
        == "en"


def test_a_chosen_language_holds_for_the_first_message():
    assert language_after("en", ["你好，我是一名老师，想转行。"]) == "en"
    assert language_after(None, ["你好，我是一名老师，想转行。"]) == "zh"  # a state without one: from the first message


def test_a_whole_session_keeps_its_language_through_a_mixed_answer(start_ican):
    session = start_ican(raw_input="Hi, I'm a lab technician at a food testing company and I feel stuck.")
    session.run("end")
    session.resume(MIXED_EN)
    session.run("end")
    state = session.values()
    assert state["language"] == "en"
    guide = [t["content"] for t in state["conversation_history"] if t["role"] == "assistant"]
    assert guide[-1].isascii(), guide[-1]  # the guide still answers in English
    while session.status() == "waiting":
        session.resume("I'd love work where I can solve puzzles with data.")
        session.run("end")
    final = session.values()
    assert final["language"] == "en" and final["final_report"].startswith("# iCan career report")


def test_a_session_follows_a_clear_switch_to_chinese(start_ican):
    session = start_ican(raw_input="Hi, I feel stuck in my job.")
    session.run("end")
    session.resume("其实我更习惯用中文：我是一名化验员，做了四年，喜欢分析数据。")
    session.run("end")
    state = session.values()
    assert state["language"] == "zh"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in state["conversation_history"][-1]["content"])


def test_a_chosen_language_is_kept_for_a_first_message_in_the_other(start_ican):
    session = start_ican(raw_input="你好，我是一名老师，想转行做设计。", language="en")
    session.run("end")
    state = session.values()
    assert state["language"] == "en"
    assert "iCan career guide" in state["conversation_history"][1]["content"]
