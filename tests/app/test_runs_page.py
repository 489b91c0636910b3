"""The Runs page in AppTest: the table across workflows, filters, rename, delete with confirmation, compare, reopen."""

import re
import threading

import pytest

from dashboard import services

from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.app.conftest import no_errors
from tests.conftest import scenario
from tests.support.driving import DISSATISFIED_SEED, SATISFIED, run_with_answers


def texts(app):
    return " ".join(m.value for m in [*app.markdown, *app.caption, *app.info, *app.success, *app.warning, *app.error])


@pytest.fixture
def stored(data_dir):
    """Two finished CareerNavigator runs with different answers, then a Flink run that has only its input."""
    settings = load_settings()
    studio = Studio.from_settings(settings)
    spec = get_spec("career_navigator")
    threads = {}
    for name, answers in (("asked_again", [DISSATISFIED_SEED, SATISFIED, SATISFIED]), ("satisfied", [SATISFIED] * 2)):
        session = studio.new_session(spec, scenario("seed_example")["input"], settings, title=name)
        run_with_answers(session, answers)
        threads[name] = session.thread_id
    flink = get_spec("flink_diagnosis")
    threads["flink"] = studio.new_session(flink, flink.scenario("checkpoint_expired").input, settings,
                                          scenario="checkpoint_expired", title="Flink job").thread_id
    yield threads
    studio.close()


def run_table(app):
    return next(d for d in app.dataframe if (d.key or "").startswith("runs_table_"))


def select(app, thread_id):
    """A click on the run's row (a dataframe selection is set through its state)."""
    table = run_table(app)
    row = list(table.value["thread_id"]).index(thread_id)
    app.session_state[table.key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    app.run()
    no_errors(app)


def test_the_table_lists_runs_of_every_workflow_newest_first(page, stored):
    app = page("runs")
    no_errors(app)
    table = run_table(app).value
    assert list(table["thread_id"]) == [stored["flink"], stored["satisfied"], stored["asked_again"]]
    assert list(table["workflow"]) == ["Flink job diagnosis", "CareerNavigator", "CareerNavigator"]
    assert list(table["status"]) == ["ready", "completed", "completed"] and table["steps"].iloc[0] == 1
    assert set(table.columns) >= {"title", "scenario", "started", "duration", "provider"}
    assert "Select a row" in texts(app)


def test_filters_narrow_the_table(page, stored):
    app = page("runs")
    app.selectbox(key="runs_filter_workflow").select("flink_diagnosis").run()
    assert list(run_table(app).value["thread_id"]) == [stored["flink"]]
    app.selectbox(key="runs_filter_workflow").select(None)
    app.selectbox(key="runs_filter_status").select("completed").run()
    app.text_input(key="runs_filter_search").input("ASKED").run()
    assert list(run_table(app).value["title"]) == ["asked_again"]
    app.text_input(key="runs_filter_search").input("no such run").run()
    no_errors(app)
    assert "No run matches these filters" in texts(app)


def test_rename_refuses_an_empty_title_then_saves(page, stored):
    app = page("runs")
    select(app, stored["satisfied"])
    box = app.text_input(key=f"runs_title_{stored['satisfied']}")
    assert box.value == "satisfied"
    box.input("   ")
    app.button(key="runs_rename_save").click().run()
    assert "Not renamed: a run's title cannot be empty" in texts(app)
    app.text_input(key=f"runs_title_{stored['satisfied']}").input("  Ravi · first report accepted ")
    app.button(key="runs_rename_save").click().run()
    no_errors(app)
    assert "Renamed “satisfied” to “Ravi · first report accepted”" in texts(app)
    titles = dict(zip(run_table(app).value["thread_id"], run_table(app).value["title"]))
    assert titles[stored["satisfied"]] == "Ravi · first report accepted"


def test_delete_asks_for_confirmation_then_removes_the_run_and_its_checkpoints(page, stored):
    app = page("runs")
    select(app, stored["asked_again"])
    app.button(key="runs_delete").click().run()
    assert "Delete **asked_again** (CareerNavigator" in texts(app) and "cannot be undone" in texts(app)
    app.button(key="runs_delete_cancel").click().run()
    assert "cannot be undone" not in texts(app) and len(run_table(app).value) == 3
    app.button(key="runs_delete").click().run()
    app.button(key="runs_delete_confirm").click().run()
    no_errors(app)
    assert f"Deleted “asked_again” (CareerNavigator, thread {stored['asked_again']})" in texts(app)
    assert stored["asked_again"] not in list(run_table(app).value["thread_id"])
    studio = Studio.from_settings(load_settings())
    try:
        assert studio.runs.get_thread(stored["asked_again"]) is None
        assert list(studio.checkpoints.saver.list({"configurable": {"thread_id": stored["asked_again"]}})) == []
    finally:
        studio.close()


def test_a_run_going_on_in_the_background_cannot_be_deleted(page, stored):
    app = page("runs")
    select(app, stored["flink"])
    gate = threading.Event()
    studio = Studio.from_settings(load_settings())
    spec = get_spec("flink_diagnosis")

    def open_when_let_go():  # the worker holds the thread until the test lets it go
        gate.wait(30)
        return studio.open_session(spec, stored["flink"], load_settings())

    run = services.background_runs().start(stored["flink"], "end", open_when_let_go)
    try:
        app.run()
        no_errors(app)
        assert app.button(key="runs_delete").disabled and "stop it on its workflow page" in texts(app)
    finally:
        gate.set()
        run.wait(60)
        studio.close()
    app.run()
    assert not app.button(key="runs_delete").disabled


def test_a_workflow_page_open_on_a_deleted_run_says_so(page, stored):
    workflow = page("career_navigator", thread=stored["satisfied"])
    no_errors(workflow)
    assert "Feedback" not in texts(workflow) and workflow.query_params["thread"] == stored["satisfied"]
    studio = Studio.from_settings(load_settings())
    studio.delete_run(stored["satisfied"])  # from the Runs page in another tab
    studio.close()
    workflow.run()
    no_errors(workflow)
    assert f"No CareerNavigator run with id {stored['satisfied']}" in " ".join(w.value for w in workflow.warning)


def test_compare_shows_the_state_diff_counters_and_node_usage(page, stored):
    app = page("runs")
    app.session_state["runs_tab"] = "Compare"
    app.run()
    no_errors(app)
    # By default the newest run that has an older run of its workflow, against that run (Flink has one run).
    assert app.selectbox(key="runs_compare_a").value == stored["satisfied"]
    assert app.selectbox(key="runs_compare_b").value == stored["asked_again"]
    assert "different workflows" not in texts(app)
    app.selectbox(key="runs_compare_a").select(stored["flink"]).run()
    no_errors(app)
    assert "These runs belong to different workflows" in texts(app)
    app.selectbox(key="runs_compare_a").select(stored["asked_again"]).run()
    app.selectbox(key="runs_compare_b").select(stored["satisfied"]).run()
    no_errors(app)
    frames = [d.value for d in app.dataframe]
    diff = next(f for f in frames if list(f.columns) == ["field", "kind", "A", "B"]).set_index("field")
    assert diff.loc["iteration_count"].tolist() == ["different", "1", "0"]
    assert diff.loc["user_profile", "kind"] == "same"
    counters = next(f for f in frames if "counter" in f.columns).set_index("counter")
    assert counters.loc["iteration_count"].tolist() == ["Report iterations", "1 / 3", "0 / 3"]
    nodes = next(f for f in frames if "A runs" in f.columns).set_index("node")
    assert (nodes.loc["reporter", "A runs"], nodes.loc["reporter", "B runs"]) == (2, 1)
    assert nodes.loc["reporter", "A calls"] == 2 and nodes.loc["reporter", "B tokens in"] == 0
    assert len(app.get("plotly_chart")) == 2
    matrices = [f for f in frames if len(f.columns) and all(re.match(r"\d+ \w", str(c)) for c in f.columns)]
    assert len(matrices) == 2 and all("iteration_count" in m.index for m in matrices)  # both evolution matrices
    app.toggle(key="runs_compare_only_diff").set_value(True).run()
    diff = next(d.value for d in app.dataframe if list(d.value.columns) == ["field", "kind", "A", "B"])
    assert "same" not in set(diff["kind"]) and "iteration_count" in set(diff["field"])


def test_reopen_goes_to_the_workflow_page_on_that_run(entry, stored):
    entry.switch_page("app_pages/runs.py").run()
    no_errors(entry)
    select(entry, stored["asked_again"])
    entry.button(key="runs_reopen").click().run()
    no_errors(entry)
    assert entry.title[0].value == "CareerNavigator"
    assert entry.query_params["thread"] == stored["asked_again"]
    assert f"thread `{stored['asked_again']}`" in texts(entry)


def test_an_empty_store_points_to_the_workflow_pages(entry):
    entry.switch_page("app_pages/runs.py").run()
    no_errors(entry)
    assert "No run is stored yet" in texts(entry)
    assert len(entry.get("page_link")) == 5 and not entry.dataframe


def test_a_database_that_is_down_gets_a_clear_message(page, monkeypatch):
    monkeypatch.setenv("STEPWISE_CHECKPOINT_URL", "postgresql://stepwise@127.0.0.1:9/none?connect_timeout=1")
    app = page("runs")
    assert not app.exception
    (error,) = app.error
    assert error.value.startswith("Stepwise cannot reach its storage: cannot open PostgreSQL checkpoints at")


def test_a_title_renamed_to_markdown_is_shown_as_typed(page, stored):
    app = page("runs")
    select(app, stored["satisfied"])
    app.text_input(key=f"runs_title_{stored['satisfied']}").input("![x](http://evil.example/p.png) **big** [a](javascript:x)")
    app.button(key="runs_rename_save").click().run()
    no_errors(app)
    shown = texts(app)
    assert "![x](" not in shown and "**big**" not in shown and "[a](javascript" not in shown
    assert "!\\[x\\](http\u2060://evil.example/p.png) \\*\\*big\\*\\*" in shown
