"""The Metrics page in AppTest: runs of three workflows, the filters, every tab, the empty and broken cases."""

import datetime as dt

from pipelines.core.models.pricing import PRICING_FILE_ENV
from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.flink_diagnosis import services
from tests.app.conftest import no_errors
from tests.support.driving import run_with_answers

RUNS = [("career_navigator", "seed_example"), ("career_navigator", "iteration_limit"), ("ican", "en_lab_to_data"),
        ("flink_diagnosis", "checkpoint_expired")]


def teardown_function():
    services.close_all()


def texts(app):
    return " ".join(m.value for m in [*app.markdown, *app.caption, *app.info, *app.success, *app.warning, *app.error])


def headline(app):
    return {m.label: m.value for m in app.metric}


def make_runs(data_dir, runs=RUNS):
    settings = load_settings(data_dir=str(data_dir))
    studio = Studio.from_settings(settings)
    ids = {}
    try:
        for pipeline, name in runs:
            spec = get_spec(pipeline)
            scenario = spec.scenario(name)
            session = studio.new_session(spec, scenario.input, settings, scenario=name)
            run_with_answers(session, scenario.answers)
            ids[name] = session.thread_id
        return ids
    finally:
        studio.close()


def open_tab(app, name):
    app.session_state["metrics_tab"] = name
    app.run()
    no_errors(app)
    return app


def test_with_no_run_stored_the_page_says_how_to_make_one(page):
    app = page("metrics")
    no_errors(app)
    assert "No run is stored yet" in texts(app) and not app.metric


def test_headline_and_filters_by_workflow_provider_and_day(page, data_dir):
    make_runs(data_dir)
    app = page("metrics")
    no_errors(app)
    numbers = headline(app)
    assert numbers["Runs"] == "4" and numbers["Success rate"] == "100%" and numbers["Estimated cost"] == "$0"
    assert int(numbers["Node runs"]) > 30 and int(numbers["Model calls"]) > 10 and numbers["Tokens"] == "0"
    app.multiselect(key="metrics_workflows").set_value(["ican"]).run()
    no_errors(app)
    assert headline(app)["Runs"] == "1"
    app.multiselect(key="metrics_workflows").set_value(["career_navigator", "flink_diagnosis"]).run()
    app.multiselect(key="metrics_providers").set_value(["offline engine"]).run()
    no_errors(app)
    assert headline(app)["Runs"] == "3"
    app.date_input(key="metrics_days").set_value((dt.date(2024, 1, 1), dt.date(2024, 1, 31))).run()
    no_errors(app)
    assert "No run matches the filters" in texts(app) and not app.metric


def test_every_tab_draws_its_charts(page, data_dir):
    ids = make_runs(data_dir)
    app = page("metrics")
    assert len(app.get("plotly_chart")) == 2 and len(app.dataframe[0].value) == 4  # outcomes, loops, the runs
    for tab in ("Latency", "Usage & cost"):
        open_tab(app, tab)
        assert app.get("plotly_chart")
    assert "USD 0" in open_tab(app, "Usage & cost").get("plotly_chart")[1].proto.spec
    open_tab(app, "One run")
    picker = app.selectbox(key="metrics_gantt_run")
    # runs are titled by what they are about: here the client's position and goal
    assert len(picker.options) == 4 and any("CareerNavigator · 软件工程师 → 希望转向AI产品经理方向发展" in o
                                            for o in picker.options)
    picker.set_value(ids["seed_example"]).run()
    no_errors(app)
    gantt = app.get("plotly_chart")[0].proto.spec
    assert "user_profiler" in gantt and "job_analyzer" in gantt
    open_tab(app, "Satisfaction")
    assert "over 2 run(s)" in texts(app)
    open_tab(app, "Flink diagnoses")
    assert "1 exception(s) of the queue finished" in texts(app) and len(app.get("plotly_chart")) == 2
    app.multiselect(key="metrics_workflows").set_value(["ican"]).run()
    no_errors(app)
    assert "not among the selected workflows" in texts(app)


def test_flink_tab_says_when_the_queue_has_no_diagnosis(page, data_dir):
    make_runs(data_dir, RUNS[:1])
    app = open_tab(page("metrics"), "Flink diagnoses")
    assert "no diagnoses in these days yet" in texts(app)


def test_a_bad_pricing_file_is_named_and_the_built_in_prices_are_used(page, data_dir, monkeypatch, tmp_path):
    make_runs(data_dir, RUNS[:1])
    (tmp_path / "prices.json").write_text("{nope", encoding="utf-8")
    monkeypatch.setenv(PRICING_FILE_ENV, str(tmp_path / "prices.json"))
    app = page("metrics")
    no_errors(app)
    assert "is not valid JSON" in app.warning[0].value and headline(app)["Runs"] == "1"


def test_an_unreachable_database_gets_the_storage_message(page, monkeypatch):
    monkeypatch.setenv("STEPWISE_DB_URL", "mysql+pymysql://root:secret@127.0.0.1:1/nope")
    app = page("metrics")
    no_errors(app)
    assert "cannot reach its storage" in app.error[0].value and "secret" not in app.error[0].value
