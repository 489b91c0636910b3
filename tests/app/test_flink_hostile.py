"""Hostile text on the Flink pages: what a user, a file or a model wrote shows as written, never as a link, an
image, HTML or formatting; the CSV export neutralises formulas."""

import csv
import io
import json
import re

from pipelines.core.markup import unescape_markdown
from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.flink_diagnosis import services
from tests.app.conftest import no_errors

HOSTILE = ("![x](http://evil.example/p.png) [click](javascript:alert(1)) <img src=x onerror=alert(1)> "
           "**bold** :red[red]")
# Each would be markup if it reached st.markdown unescaped.
UNSAFE = [re.compile(p) for p in (r"!\[", r"(?<!\\)\]\(", r"(?<!\\)<img", r"(?<!\\)\*\*bold", r":red\[")]
TRACE = f"java.lang.OutOfMemoryError: Java heap space {HOSTILE}\n\tat org.example.Job.run(Job.java:42)"


def rendered(app) -> list[str]:
    """Every text of the page that Streamlit renders as Markdown."""
    texts = [e.value for kind in ("markdown", "caption", "info", "success", "warning", "error")
             for e in getattr(app, kind)]
    texts += [m.label for m in app.metric] + [str(m.value) for m in app.metric]
    texts += [e.label for e in app.expander] + [t.label for t in app.tabs]
    return texts


def assert_shown_as_text(app) -> None:
    texts = rendered(app)
    for text in texts:
        for pattern in UNSAFE:
            assert not pattern.search(text), f"{pattern.pattern!r} unescaped in {text!r}"
    # ... and the text is there, escaped so that it reads as written, rather than dropped
    assert any(HOSTILE in unescape_markdown(text) for text in texts)


def queue(data_dir):
    return services.open_store(load_settings(data_dir=str(data_dir)))


def teardown_function():
    services.close_all()


def diagnose(data_dir, exception_id: int) -> str:
    """The studio run a user starts from the queue, run to its end on the real graph."""
    settings = load_settings(data_dir=str(data_dir))
    studio = Studio.from_settings(settings)
    try:
        session = studio.new_session(get_spec("flink_diagnosis"), {"exception_id": exception_id}, settings)
        session.run("end")
        return session.thread_id
    finally:
        studio.close()


def test_a_hostile_exception_pasted_in_the_queue_is_shown_as_text_everywhere(page, data_dir):
    app = page("flink_queue")
    app.text_input(key="flink_paste_job_id").input("job-7")
    app.text_input(key="flink_paste_job_name").input(HOSTILE[:200])
    app.text_area(key="flink_paste_trace").input(TRACE)
    app.text_area(key="flink_paste_config").input(json.dumps({"pipeline.name": HOSTILE}))
    next(b for b in app.button if b.key.startswith("FormSubmitter") and "Add to queue" in b.label).click().run()
    no_errors(app)
    [row] = queue(data_dir).list_exceptions()
    assert row["job_name"] == HOSTILE and row["job_config"] == {"pipeline.name": HOSTILE}

    app.session_state["flink_queue_table"] = {"selection": {"rows": [0], "columns": []}}
    app.run()
    no_errors(app)
    assert any(f"**Exception {row['exception_id']}** · job job-7 (" in m.value for m in app.markdown)
    assert_shown_as_text(app)

    thread_id = diagnose(data_dir, row["exception_id"])
    studio_page = page("flink_diagnosis", thread=thread_id)
    no_errors(studio_page)
    for tab in ("Retrieved context", "Report", "Diagnosis"):
        studio_page.session_state["flink_diagnosis_tab"] = tab
        studio_page.run()
        no_errors(studio_page)
        for text in rendered(studio_page):
            assert not any(pattern.search(text) for pattern in UNSAFE), (tab, text)
    assert_shown_as_text(studio_page)
    card = " ".join(m.value for m in studio_page.markdown)
    assert "**Root cause** — Heap out of memory" in card  # the project's own formatting stays
    assert "`taskmanager.memory.task.heap.size`" in card


def test_a_model_written_diagnosis_is_escaped_on_the_results_page(page, data_dir):
    store = queue(data_dir)
    exception_id = store.add_exception(job_id="j1", job_name=HOSTILE, error_message=TRACE)
    store.claim_by_id(exception_id, "w")
    store.complete(exception_id, {"root_cause": HOSTILE, "detailed_analysis": f"## Analysis\n{HOSTILE}",
                                  "suggested_fix": f"1. {HOSTILE}\n2. raise `taskmanager.memory.task.heap.size`",
                                  "priority": "high", "confidence": 0.9, "category": "oom_heap",
                                  "related_docs": [HOSTILE, HOSTILE, "Memory setup — https://nightlies.apache.org"]})
    app = page("flink_results")
    app.session_state["flink_results_table"] = {"selection": {"rows": [0], "columns": []}}
    app.run()
    no_errors(app)
    assert_shown_as_text(app)
    card = [m.value for m in app.markdown]
    assert any("`taskmanager.memory.task.heap.size`" in text for text in card)  # a config key keeps its code look
    related = next(text for text in card if text.startswith("**Related docs**"))
    assert related.count("evil.example") == 1  # the model listed it twice: shown once


def test_a_hostile_search_and_upload_name_are_echoed_as_text(page, data_dir):
    kb = page("knowledge")
    kb.text_input(key="knowledge_query").input(HOSTILE).run()
    no_errors(kb)
    assert_shown_as_text(kb)
    app = page("flink_queue")
    app.file_uploader(key="flink_upload").upload(f"{HOSTILE[:40]}.jsonl", b'{"job_id": "a", "error_message": "x"}\n')
    app.run()
    app.button(key="flink_upload_add").click().run()
    no_errors(app)
    assert any(f"Added 1 exception(s) from {HOSTILE[:40]}.jsonl" in unescape_markdown(s.value) for s in app.success)
    for text in rendered(app):
        assert not any(pattern.search(text) for pattern in UNSAFE), text


def test_the_csv_export_does_not_hand_a_spreadsheet_a_formula(data_dir):
    from dashboard.workflows.flink_diagnosis.results import _csv

    store = queue(data_dir)
    exception_id = store.add_exception(job_id="=HYPERLINK(\"http://x\")", job_name="@SUM(A1:A9)",
                                       error_message="-2+3 java.lang.OutOfMemoryError")
    store.fail(exception_id, "+cmd|' /C calc'!A0")
    table = list(csv.DictReader(io.StringIO(_csv(store.list_exceptions()).decode("utf-8"))))
    assert table[0]["job_id"] == "'=HYPERLINK(\"http://x\")" and table[0]["job_name"] == "'@SUM(A1:A9)"
    assert table[0]["error"] == "'+cmd|' /C calc'!A0" and table[0]["exception_id"] == str(exception_id)
