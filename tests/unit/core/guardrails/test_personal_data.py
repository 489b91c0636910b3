"""The one policy for personal identifiers: masked with the run's vault where text enters, never kept in clear."""

from __future__ import annotations

import json

from langchain_core.messages import HumanMessage
from pypdf import PdfReader

from pipelines.core.guardrails.personal_data import mask_fields, mask_personal
from pipelines.core.pdf.trace_report import build_trace_pdf
from pipelines.core.registry import get_spec
from pipelines.core.storage.runstore import RunStore
from pipelines.ican.pdf_report import ican_pdf

RESIDENT_ID, PHONE = "11010519491231002X", "13812345678"
FIRST = f"你好，我叫李明，身份证号{RESIDENT_ID}，电话 {PHONE}，想从实验室转做数据分析。"


def _pdf_text(data: bytes) -> str:
    import io

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_every_string_in_nested_values_and_chat_messages_is_masked_once_per_value(tmp_path):
    runs = RunStore(f"sqlite:///{tmp_path / 'runs.sqlite'}")
    value = {"history": [{"role": "user", "content": f"call {PHONE}"}], "messages": [HumanMessage(f"id {RESIDENT_ID}")],
             "again": f"{PHONE} once more", "count": 3}
    masked = mask_personal(runs.vault, "t1", value)
    assert PHONE not in json.dumps(masked["history"]) and masked["again"].startswith("[PHONE_CN_1]")
    assert masked["history"][0]["content"] == "call [PHONE_CN_1]"  # one value, one placeholder, across fields
    assert masked["messages"][0].content == "id [CN_RESIDENT_ID_1]" and masked["count"] == 3
    assert runs.vault.entries("t1") == {"[PHONE_CN_1]": PHONE, "[CN_RESIDENT_ID_1]": RESIDENT_ID}
    assert runs.vault.entries("another run") == {}
    assert mask_fields(runs.vault, "t1", {"a": PHONE, "b": PHONE}, ["a"]) == {"a": "[PHONE_CN_1]", "b": PHONE}


def test_an_ican_session_keeps_no_identifier_in_clear_anywhere_it_shows(studio, settings):
    ican = get_spec("ican")
    session = studio.new_session(ican, {"raw_input": FIRST}, settings)
    session.run("interrupt")
    session.resume(f"我的邮箱是 li.ming@example.com，备用电话 {PHONE}")
    session.run("end")
    for _ in range(3):
        if session.status() != "waiting":
            break
        session.resume("没有了，谢谢")
        session.run("end")
    info = studio.runs.get_thread(session.thread_id)
    state = session.values()
    shown = {"title": info.title, "input": json.dumps(info.input, ensure_ascii=False),
             "state": json.dumps(state, ensure_ascii=False, default=str),
             "records": json.dumps([r.changes for r in session.records()], ensure_ascii=False, default=str),
             "trace pdf": _pdf_text(build_trace_pdf(session)), "report pdf": _pdf_text(ican_pdf(state))}
    for where, text in shown.items():
        for value in (RESIDENT_ID, PHONE, "li.ming@example.com"):
            assert value not in text, (where, value)
    assert "[CN_RESIDENT_ID_1]" in info.title and "[PHONE_CN_1]" in shown["state"]
    assert studio.runs.vault.entries(session.thread_id)["[CN_RESIDENT_ID_1]"] == RESIDENT_ID  # kept in the vault
    studio.runs.delete_thread(session.thread_id)
    assert studio.runs.vault.entries(session.thread_id) == {}  # and gone with the run


def test_a_fork_that_types_an_identifier_into_a_persons_field_keeps_it_masked(studio, settings):
    ican = get_spec("ican")
    session = studio.new_session(ican, {"raw_input": "I want to change careers"}, settings)
    first = session.history()[-1]
    session.fork(first.checkpoint_id, {"raw_input": f"call me on {PHONE}"}, as_node=None)
    assert session.values()["raw_input"] == "call me on [PHONE_CN_1]"


def test_a_national_number_of_the_users_region_is_masked_in_a_run_when_the_settings_name_that_region(studio, settings):
    recruiter_words = {"raw_input": "I am Tom, a lab technician in Leeds; call me on 07400 123456 after five."}
    ican = get_spec("ican")
    without = studio.new_session(ican, recruiter_words, settings)
    assert "07400 123456" in without.values()["raw_input"]  # not a number of China or the US, nor of this text's script
    with_gb = studio.new_session(ican, recruiter_words, settings.with_overrides(phone_regions="GB"))
    assert "07400 123456" not in json.dumps(with_gb.values(), ensure_ascii=False)
    assert "07400 123456" not in studio.runs.get_thread(with_gb.thread_id).title
    assert "07400 123456" in studio.runs.vault.entries(with_gb.thread_id).values()
