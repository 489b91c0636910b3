"""The run-trace PDF of real runs, read back with pypdf: header, steps, matrix, counters, metrics, report, secrets."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.core.pdf.trace_report import build_trace_pdf, when
from tests.conftest import scenario
from tests.support.driving import SATISFIED, run_with_answers
from tests.support.toy_pipeline import ToyContext, make_toy_spec
from tests.unit.career_navigator.test_with_chat_model import ANSWERS, model_session


def read(pdf: bytes) -> tuple[PdfReader, str]:
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
    reader = PdfReader(io.BytesIO(pdf))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def flat(text: str) -> str:
    """Extracted text with line breaks and runs of spaces as single spaces (cells wrap)."""
    return " ".join(text.split())


@pytest.fixture
def seed_run(studio, spec, settings):
    data = scenario("seed_example")
    session = studio.new_session(spec, data["input"], settings, scenario="seed_example")
    run_with_answers(session, data["answers"])
    return session


def test_a_finished_run_has_its_header_steps_matrix_counters_metrics_and_report(seed_run):
    reader, text = read(build_trace_pdf(seed_run))
    info = seed_run.thread
    pages = len(reader.pages)
    assert "Run trace · CareerNavigator" in text and reader.metadata.title == "Run trace · CareerNavigator"
    for expected in ("CareerNavigator (career_navigator)", "offline engine", seed_run.thread_id, "seed_example",
                     "completed", when(info.created_at), when(info.updated_at), "Page 1 of", f"Page {pages} of {pages}"):
        assert expected in text, expected
    completed = sum(1 for r in seed_run.records() if r.status == "completed")
    assert f"{completed} completed" in text
    # the step table: every node, the interrupted attempts, model calls
    for node in ("coordinator", "planner", "supervisor", "industry_researcher", "job_analyzer", "user_profiler",
                 "reporter", "collect_feedback", "goal_decomposer", "scheduler", "confirm_plan"):
        assert node in text, node
    assert "interrupted" in text and "Duration" in text and "Model" in text
    # the matrix: its legend and its fields
    for kind in ("set", "changed", "appended", "removed", "unchanged", "absent"):
        assert kind in text
    assert "Field evolution" in text and "final_plan" in text and "user_feedback_history" in text
    # counters against their limits
    assert re.search(r"Report iterations\s+iteration_count\s+1\s+3", text)
    assert "plan_revision_count" in text and "limit 3" in text
    assert "Mean latency per node" in text and "Timeline of the tasks" in text
    # the workflow's own report, after the trace
    report = seed_run.spec.report(seed_run.values())
    headings = [line.lstrip("# ").strip() for line in report.splitlines() if line.startswith("#")]
    assert headings and all(h in text for h in headings[:4])
    assert [o.title for o in reader.outline if not isinstance(o, list)][:5] == \
        ["Steps", "Field evolution", "Counters and limits", "Metrics", headings[0]]


def test_a_run_waiting_at_an_interrupt_and_a_run_with_only_its_input(studio, spec, settings):
    waiting = studio.new_session(spec, scenario("seed_example")["input"], settings, scenario="seed_example")
    waiting.run("end")
    assert waiting.status() == "waiting"
    _, text = read(build_trace_pdf(waiting))
    assert "waiting for an answer: " in text and "next: collect_feedback" in text
    assert "reporter" in text and "Page 1 of" in text

    fresh = studio.new_session(spec, scenario("clear_goal")["input"], settings)
    reader, text = read(build_trace_pdf(fresh))
    assert "1 completed" in text and "— (own input)" in text and "ready (paused between steps) · next: coordinator" in text
    assert "No node has run yet." in text
    assert "iteration_count" in text and "Page 1 of" in text


def test_a_failed_run_shows_its_error(studio, settings):
    context = ToyContext(deps=None, fail_in={"slow"})
    session = studio.new_session(make_toy_spec(context), {"topic": "kites"}, settings)
    session.run("end")
    assert session.status() == "failed"
    _, text = read(build_trace_pdf(session))
    assert "failed · next:" in text
    assert "RuntimeError: slow exploded" in text and "Last failure (step 2)" in text


def test_a_chinese_ican_run_keeps_its_chinese_text(studio, settings):
    ican = get_spec("ican")
    data = ican.scenario("zh_teacher_to_design")
    session = studio.new_session(ican, data.input, settings, scenario=data.name)
    run_with_answers(session, data.answers)
    assert session.status() == "completed"
    reader, text = read(build_trace_pdf(session))
    compact = "".join(text.split())
    assert "iCan职业发展报告" in compact and "霍兰德代码" in compact
    assert "zh_teacher_to_design" in text and "guide_node:collect_basic_info" in text
    assert re.search(r"Client messages \(analysis forced at the limit\)\s+client_turns\s+2\s+3", text)
    assert "Page 1 of" in text and len(reader.pages) >= 4


def test_a_long_loop_still_gives_a_readable_paginated_pdf(studio, settings):
    session = studio.new_session(make_toy_spec(ToyContext(deps=None)), {"topic": "kites", "max_rounds": 30}, settings)
    run_with_answers(session, [{"decision": "revise"}] * 29 + [{"decision": "approve"}])
    records = session.records()
    assert session.status() == "completed" and len(records) > 110
    reader, text = read(build_trace_pdf(session))
    pages = len(reader.pages)
    assert pages >= 5 and f"Page {pages} of {pages}" in text
    last = max(r.step for r in records)
    # every step is in the step table, and the matrix runs in tables of at most 18 steps with a key under each
    assert f"{last} publish" in flat(text)
    assert flat(text).count("field ") >= last // 18 + 1
    assert re.search(r"Revision rounds\s+rounds\s+29\s+30", text)


def test_the_api_key_never_reaches_the_pdf(tmp_path, spec):
    secret = "sk-secret-xyz"
    settings = load_settings(data_dir=str(tmp_path / "data"), api_key=secret)
    studio = Studio.from_settings(settings)
    try:
        data = scenario("seed_example")
        # a client who pastes the key into the feedback: the report quotes the feedback back
        data["answers"][0]["feedback_text"] += f" 我的密钥是 {secret}"
        session = studio.new_session(spec, data["input"], settings)
        run_with_answers(session, data["answers"])
        assert secret in str(session.values())  # the key is in the state, so the PDF had to mask it
        pdf = build_trace_pdf(session)
    finally:
        studio.close()
    _, text = read(pdf)
    assert secret not in text and secret.encode() not in pdf
    assert "我的密钥是 ***" in text  # the quote is there, the key is not


def test_a_run_on_a_chat_model_has_its_provider_and_tokens_per_node(studio, spec):
    session, _ = model_session(studio, spec, lambda name, messages: ANSWERS[name])
    run_with_answers(session, [SATISFIED, SATISFIED])
    _, text = read(build_trace_pdf(session))
    assert "openai · scripted" in text and "No tokens were reported" not in text
    assert "input tokens" in text and "output tokens" in text
    calls = sum(r.model_calls for r in session.records())
    assert f"Model calls {calls} · tokens {calls * 100:,} in / {calls * 40:,} out" in flat(text)


def test_the_report_pages_render_markdown_like_the_other_pdfs(studio, spec, settings):
    data = scenario("english_teacher_to_ux")
    session = studio.new_session(spec, data["input"], settings, scenario="english_teacher_to_ux")
    run_with_answers(session, data["answers"])
    report = session.spec.report(session.values())
    assert "*success:*" in report and "| Week |" in report  # what the report's Markdown asks for...
    reader, text = read(build_trace_pdf(session))
    assert "success:" in text and "*success:*" not in text  # ...italic, not asterisks
    assert re.search(r"^ ?Week\nTask\nHours\nDeliverable\n", text, re.M)  # each header whole: no "Wee/k"
    fonts = {str(f.get_object()["/BaseFont"]) for page in reader.pages for f in page["/Resources"]["/Font"].values()}
    assert "/Helvetica-Oblique" in fonts
