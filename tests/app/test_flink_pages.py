"""The Flink pages in AppTest: step one exception through the graph, the queue, results and the knowledge base."""

import json

from pipelines.core.markup import unescape_markdown
from pipelines.core.settings import load_settings
from pipelines.flink_diagnosis import services
from tests.app.conftest import no_errors, rerun_until

KEY = "flink_diagnosis"


def texts(app):
    return " ".join(m.value for m in [*app.markdown, *app.caption, *app.info, *app.success, *app.warning, *app.error])


def queue(data_dir):
    return services.open_store(load_settings(data_dir=str(data_dir)))


def teardown_function():
    services.close_all()


def test_step_an_exception_through_the_graph_and_read_the_diagnosis(page):
    app = page("flink_diagnosis")
    no_errors(app)
    assert app.sidebar.selectbox(key=f"{KEY}__scenario").value == "checkpoint_expired"
    app.sidebar.button(key=f"{KEY}__start").click().run()
    no_errors(app)
    for _ in range(2):  # collect, then retrieve
        app.button(key=f"{KEY}_step").click().run()
        no_errors(app)
    app.session_state[f"{KEY}_tab"] = "Retrieved context"
    app.run()
    context_tables = [df.value for df in app.dataframe]
    assert context_tables and len(context_tables[0]) == 3 and context_tables[0]["Similarity"].between(0, 1).all()
    app.button(key=f"{KEY}_run_end").click().run()
    no_errors(app)
    app.session_state[f"{KEY}_tab"] = "Diagnosis"
    app.run()
    assert "#### Checkpoint timeout" in texts(app)
    assert {m.label: m.value for m in app.metric}["Priority"] == "▲ high"
    assert "Knowledge base: new case" in texts(app)
    assert any(b.label == "Download this diagnosis as PDF" for b in app.get("download_button"))


def test_queue_page_adds_a_pasted_trace_and_reports_bad_config(page, data_dir):
    app = page("flink_queue")
    no_errors(app)
    app.text_input(key="flink_paste_job_id").input("job-42")
    app.text_area(key="flink_paste_trace").input("java.lang.OutOfMemoryError: Metaspace\n\tat x.Y.z(Y.java:1)")
    app.text_area(key="flink_paste_config").input("{not json")
    next(b for b in app.button if b.key.startswith("FormSubmitter") and "Add to queue" in b.label).click().run()
    no_errors(app)
    assert any("not valid JSON" in e.value for e in app.error)
    assert queue(data_dir).count_by_status()["pending"] == 0
    app.text_area(key="flink_paste_config").input('{"taskmanager.memory.jvm-metaspace.size": "256m"}')
    next(b for b in app.button if b.key.startswith("FormSubmitter") and "Add to queue" in b.label).click().run()
    no_errors(app)
    rows = queue(data_dir).list_exceptions()
    assert len(rows) == 1 and rows[0]["error_type"] == "java.lang.OutOfMemoryError"
    assert rows[0]["job_config"] == {"taskmanager.memory.jvm-metaspace.size": "256m"}


def test_results_and_knowledge_pages_show_diagnoses_and_accumulated_cases(page, data_dir):
    store = queue(data_dir)
    store.add_many([{"job_id": "j1", "error_message": "java.lang.OutOfMemoryError: Java heap space"},
                    {"job_id": "j2", "error_message": "Checkpoint 12 expired before completing."}])
    from pipelines.flink_diagnosis.worker_pool import run_workers
    run_workers(load_settings(data_dir=str(data_dir)), workers=1)
    app = page("flink_results")
    no_errors(app)
    assert "2 of 2 diagnosed exceptions" in texts(app)
    assert len(app.dataframe[0].value) == 2
    app.pills(key="flink_results_priority").set_value(["medium"]).run()
    no_errors(app)
    assert "0 of 2" in texts(app)
    kb = page("knowledge")
    no_errors(kb)
    metrics = {m.label: m.value for m in kb.metric}
    assert int(metrics["Shipped cases"]) >= 60 and int(metrics["Doc snippets"]) >= 40
    kb.text_input(key="knowledge_query").input("checkpoint expird before completing").run()
    no_errors(kb)
    assert kb.dataframe[0].value.iloc[0]["Category"] == "Checkpoint timeout"


def test_an_unreachable_chroma_server_or_database_gets_a_clear_message(page, monkeypatch):
    monkeypatch.setenv("STEPWISE_CHROMA_URL", "http://127.0.0.1:1")
    kb = page("knowledge")
    no_errors(kb)
    assert "cannot reach the Chroma server at http://127.0.0.1:1" in unescape_markdown(kb.error[0].value)
    monkeypatch.delenv("STEPWISE_CHROMA_URL")
    monkeypatch.setenv("STEPWISE_DB_URL", "mysql+pymysql://root:secret@127.0.0.1:1/nope")
    services.close_all()
    app = page("flink_queue")
    no_errors(app)
    assert "cannot reach its storage" in app.error[0].value and "secret" not in app.error[0].value


def test_settings_page_sets_the_knowledge_base_options(page):
    app = page("settings")
    app.text_input(key="settings_chroma_url").input("http://chroma.internal:8000")
    app.number_input(key="settings_flink_diagnosis_accumulate_threshold").set_value(0.9)
    next(b for b in app.button if b.label == "Apply to this session").click().run()
    no_errors(app)
    overrides = app.session_state["settings_overrides"]
    assert overrides["chroma_url"] == "http://chroma.internal:8000"
    assert overrides["workflow_overrides"]["flink_diagnosis"]["accumulate_threshold"] == 0.9


def test_a_batch_runs_in_the_background_and_the_page_shows_its_progress(page, data_dir):

    store = queue(data_dir)
    store.add_many([{"job_id": f"j{i}", "error_message": "java.lang.OutOfMemoryError: Metaspace"} for i in range(4)])
    app = page("flink_queue")
    no_errors(app)
    assert {m.label: m.value for m in app.metric}["Pending"] == "4"
    app.button(key="flink_batch_start").click().run()
    no_errors(app)
    rerun_until(app, lambda a: "Batch finished" in texts(a), 120, texts)  # the batch thread works meanwhile
    no_errors(app)
    assert {m.label: m.value for m in app.metric}["Completed"] == "4"
    assert any("4 of 4 diagnosed" in p.proto.text for p in app.get("progress"))
    assert "Batch finished: 4 of 4 exceptions diagnosed." in texts(app)


def counters(app):
    return {m.label: m.value for m in app.metric}


def test_the_counters_and_the_batch_button_include_what_was_just_added(page, data_dir):
    app = page("flink_queue")
    assert counters(app)["Pending"] == "0" and app.button(key="flink_batch_start").disabled
    app.text_input(key="flink_paste_job_id").input("job-1")
    app.text_area(key="flink_paste_trace").input("java.lang.OutOfMemoryError: Metaspace")
    next(b for b in app.button if b.key.startswith("FormSubmitter") and "Add to queue" in b.label).click().run()
    no_errors(app)
    assert counters(app) == {"Pending": "1", "In progress": "0", "Completed": "0", "Failed": "0"}
    start = app.button(key="flink_batch_start")
    assert start.label == "Diagnose pending exceptions (1)" and not start.disabled
    assert len(app.dataframe[0].value) == 1  # the table is read together with the counters


def test_an_uploaded_file_counts_in_full_at_once(page, data_dir):
    app = page("flink_queue")
    uploader = app.file_uploader(key="flink_upload")
    assert uploader.proto.max_upload_size_mb == 20 and "up to 20 MB" in uploader.label
    lines = "\n".join(json.dumps({"job_id": f"j{i}", "error_message": "Checkpoint 3 expired before completing."})
                      for i in range(7))
    uploader.upload("seven.jsonl", lines.encode("utf-8"), "application/json")
    app.run()
    app.button(key="flink_upload_add").click().run()
    no_errors(app)
    assert counters(app)["Pending"] == "7" and app.button(key="flink_batch_start").label.endswith("(7)")
    assert "Added 7 exception(s) from seven.jsonl" in texts(app)
    assert len(app.dataframe[0].value) == 7


def test_results_show_a_confidence_below_the_threshold_as_below_it_with_readable_filters(page, data_dir):
    store = queue(data_dir)
    exception_id = store.add_exception(job_id="j1", error_message="java.lang.OutOfMemoryError: Java heap space")
    store.claim_by_id(exception_id, "w")
    store.complete(exception_id, {"root_cause": "heap", "detailed_analysis": "a", "suggested_fix": "f",
                                  "priority": "medium", "confidence": 0.795, "category": "oom_heap",
                                  "related_docs": []})
    app = page("flink_results")
    no_errors(app)
    assert app.pills(key="flink_results_priority").options == ["High", "Medium", "Low"]
    assert app.pills(key="flink_results_status").options == ["Completed", "Failed"]
    assert app.dataframe[0].value.iloc[0]["confidence"] == 0.795
    app.slider(key="flink_results_confidence").set_value((0.8, 1.0)).run()
    assert "0 of 1 diagnosed" in texts(app)  # what the table shows and what the filter compares agree
    app.slider(key="flink_results_confidence").set_value((0.0, 1.0))
    app.session_state["flink_results_table"] = {"selection": {"rows": [0], "columns": []}}
    app.run()
    no_errors(app)
    confidence = next(m for m in app.metric if m.label == "Confidence")
    assert confidence.value == "0.795" and "below the 0.80 threshold" in confidence.proto.help


def test_an_over_long_pasted_trace_is_refused_with_the_limit_and_kept_in_the_box(page, data_dir):
    app = page("flink_queue")
    trace = "java.lang.OutOfMemoryError: Java heap space\n" + "\tat com.acme.Deep.call(Deep.java:1)\n" * 2000
    app.text_input(key="flink_paste_job_id").input("job-huge")
    app.text_area(key="flink_paste_trace").input(trace)
    next(b for b in app.button if b.key.startswith("FormSubmitter") and "Add to queue" in b.label).click().run()
    no_errors(app)
    assert [e.value for e in app.error] == [f"Not added: Stack trace: {len(trace.strip()):,} characters; the limit "
                                            "is 65,000"]
    assert app.text_area(key="flink_paste_trace").value == trace  # nothing lost: shorten it and add it again
    assert queue(data_dir).count_by_status()["pending"] == 0
