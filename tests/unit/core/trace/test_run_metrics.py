"""Metrics across runs, from real runs of three workflows in one SQLite run store: frames, filters, cost, feedback."""

import datetime as dt
import json

import pandas as pd
import pytest
from sqlalchemy import create_engine, update

from pipelines.career_navigator.satisfaction import satisfaction_frame
from pipelines.career_navigator.state import SATISFACTION_SCORE
from pipelines.core.models.gateway import ModelGateway
from pipelines.core.models.pricing import PRICING_FILE_ENV, load_prices
from pipelines.core.registry import get_spec
from pipelines.core.trace.run_metrics import (RunFilter, filter_options, iteration_frame, load_run_metrics, task_frame,
                                        thread_frame)
from pipelines.core.storage.runstore import RunStore, RunStoreError, threads
from pipelines.core.settings import API_KEY_ENV_VARS, ENV_VARS, SETTINGS_FILE_ENV, load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.flink_diagnosis import services
from tests.support.driving import run_with_answers
from tests.support.fake_chat import ScriptedChatModel
from tests.unit.flink_diagnosis.test_workflow import GOOD_ANSWER

MYSTERY = "openai · mystery-model"


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """Five finished runs, made once for the module: two CareerNavigator, one iCan, two Flink (one through a
    chat model whose name no price table knows)."""
    tmp = tmp_path_factory.mktemp("run-metrics")
    with pytest.MonkeyPatch.context() as env:
        for var in [*ENV_VARS.values(), *API_KEY_ENV_VARS, PRICING_FILE_ENV]:
            env.delenv(var, raising=False)
        env.setenv(SETTINGS_FILE_ENV, str(tmp / "settings.json"))
        settings = load_settings(data_dir=str(tmp / "data"), backoff_s=0.0)
        studio = Studio.from_settings(settings)
        sessions = {}
        for pipeline, name in [("career_navigator", "seed_example"), ("career_navigator", "iteration_limit"),
                               ("ican", "en_lab_to_data"), ("flink_diagnosis", "checkpoint_expired")]:
            spec = get_spec(pipeline)
            scenario = spec.scenario(name)
            sessions[name] = studio.new_session(spec, scenario.input, settings, scenario=name)
            run_with_answers(sessions[name], scenario.answers)
        model_settings = load_settings(data_dir=str(tmp / "data"), provider="openai", model="mystery-model",
                                       backoff_s=0.0)
        gateway = ModelGateway(model_settings, chat_model=ScriptedChatModel(
            responder=lambda name, messages: GOOD_ANSWER, model_name="mystery-model"))
        flink = get_spec("flink_diagnosis")
        sessions["mystery"] = studio.new_session(flink, flink.scenario("checkpoint_expired").input, model_settings,
                                                 scenario="checkpoint_expired", gateway=gateway)
        sessions["mystery"].run("end")
        assert all(s.status() == "completed" for s in sessions.values())
        yield studio, {name: s.thread_id for name, s in sessions.items()}
        studio.close()
        services.close_all()


def by_thread(frame, thread_id):
    return frame[frame["thread_id"] == thread_id]


def test_one_row_per_run_with_its_steps_and_the_peak_of_each_loop_counter(stored):
    studio, ids = stored
    runs = thread_frame(studio.runs.engine).set_index("thread_id")
    assert len(runs) == 5 and set(runs["status"]) == {"completed"} and runs["errors"].sum() == 0
    for thread_id in ids.values():
        records = studio.runs.load_steps(thread_id)
        assert runs.loc[thread_id, "steps"] == sum(r.status in ("completed", "substep") for r in records)
        assert runs.loc[thread_id, "duration_s"] == pytest.approx(sum(r.duration_ms for r in records) / 1000, abs=1e-3)
    assert runs.loc[ids["seed_example"], "iterations"] == {"iteration_count": 1, "plan_revision_count": 0}
    assert runs.loc[ids["iteration_limit"], "iterations"]["iteration_count"] == 2
    assert runs.loc[ids["iteration_limit"], "limits"]["iteration_count"] == 2  # max_iterations from its input
    assert runs.loc[ids["seed_example"], "limits"]["iteration_count"] == 3
    assert runs.loc[ids["en_lab_to_data"], "iterations"]["client_turns"] == 2
    loops = iteration_frame(runs.reset_index())
    row = loops[(loops["thread_id"] == ids["iteration_limit"]) & (loops["counter"] == "iteration_count")].iloc[0]
    assert (row["label"], row["value"], row["limit"]) == ("Report iterations", 2, 2)
    assert set(loops[loops["workflow"] == "flink_diagnosis"]["counter"]) == {"retry_count"}


def test_filters_by_workflow_provider_and_day(stored):
    studio, ids = stored
    engine = studio.runs.engine
    only_ican = load_run_metrics(engine, RunFilter(workflows=("ican",)))
    assert list(only_ican.threads["thread_id"]) == [ids["en_lab_to_data"]]
    assert set(only_ican.tasks["workflow"]) == {"ican"} and set(only_ican.iterations["workflow"]) == {"ican"}
    assert list(thread_frame(engine, RunFilter(providers=(MYSTERY,)))["thread_id"]) == [ids["mystery"]]
    offline = thread_frame(engine, RunFilter(workflows=("career_navigator", "flink_diagnosis"),
                                             providers=("offline engine",)))
    assert set(offline["thread_id"]) == {ids["seed_example"], ids["iteration_limit"], ids["checkpoint_expired"]}
    day = thread_frame(engine)["created"].dt.date.iloc[0]
    assert len(thread_frame(engine, RunFilter(first_day=day, last_day=day))) == 5
    assert thread_frame(engine, RunFilter(first_day=day + dt.timedelta(days=1))).empty
    assert task_frame(engine, RunFilter(last_day=day - dt.timedelta(days=1))).empty
    # A run started on the last second of 1 March 2024 (UTC) belongs to that day and to no other.
    old = dt.datetime(2024, 3, 1, 23, 59, 59, tzinfo=dt.UTC).timestamp()
    with engine.begin() as conn:
        before = conn.execute(threads.select().where(threads.c.thread_id == ids["seed_example"])).mappings().one()
        conn.execute(update(threads).where(threads.c.thread_id == ids["seed_example"]).values(created_at=old))
    try:
        march = RunFilter(first_day=dt.date(2024, 3, 1), last_day=dt.date(2024, 3, 1))
        assert list(thread_frame(engine, march)["thread_id"]) == [ids["seed_example"]]
        assert thread_frame(engine, RunFilter(first_day=dt.date(2024, 3, 2), last_day=dt.date(2024, 3, 31))).empty
        assert filter_options(engine).first_day == dt.date(2024, 3, 1)
    finally:
        with engine.begin() as conn:
            conn.execute(update(threads).where(threads.c.thread_id == ids["seed_example"])
                         .values(created_at=before["created_at"]))


def test_one_row_per_node_run_with_calls_tokens_and_cost(stored, tmp_path):
    studio, ids = stored
    tasks = task_frame(studio.runs.engine)
    seed = by_thread(tasks, ids["seed_example"])
    records = studio.runs.load_steps(ids["seed_example"])
    assert len(seed) == sum(1 for r in records for t in r.tasks if t.node != "__input__")
    assert seed["calls"].sum() == sum(len(t.model_calls) for r in records for t in r.tasks)
    parallel = seed[seed["node"].isin(["user_profiler", "industry_researcher", "job_analyzer"])]
    assert parallel.groupby("step").size().tolist() == [3, 3]
    assert {"guide_node:welcome", "guide_node:dig_deeper"} <= set(by_thread(tasks, ids["en_lab_to_data"])["node"])
    offline = tasks[(tasks["provider"] == "offline engine") & (tasks["calls"] > 0)]
    assert set(offline["model"]) == {"offline-engine"} and (offline["cost_usd"] == 0).all()
    diagnose = by_thread(tasks, ids["mystery"]).set_index("node").loc["diagnose"]
    assert diagnose["model"] == "mystery-model" and diagnose["input_tokens"] == 100 * diagnose["calls"]
    assert pd.isna(diagnose["cost_usd"]) and diagnose["unpriced_calls"] == diagnose["calls"] >= 1
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"mystery": {"input": 1.0, "output": 2.0}}), encoding="utf-8")
    priced = by_thread(task_frame(studio.runs.engine, prices=load_prices(prices)), ids["mystery"])
    diagnose = priced.set_index("node").loc["diagnose"]
    assert diagnose["cost_usd"] == pytest.approx(diagnose["calls"] * (100 * 1.0 + 40 * 2.0) / 1e6)
    assert diagnose["unpriced_calls"] == 0


def test_satisfaction_rounds_are_the_answers_given(stored):
    studio, ids = stored
    frame = satisfaction_frame(studio.runs.engine)
    assert set(frame["thread_id"]) == {ids["seed_example"], ids["iteration_limit"]}
    for name in ("seed_example", "iteration_limit"):
        rounds = by_thread(frame, ids[name])
        answers = [a["satisfaction_level"] for a in get_spec("career_navigator").scenario(name).answers]
        assert list(rounds["level"]) == answers and list(rounds["round"]) == [1, 2, 3]
        assert list(rounds["about"]) == ["report", "report", "plan"]
        assert list(rounds["score"]) == [SATISFACTION_SCORE[level] for level in answers]
    assert satisfaction_frame(studio.runs.engine, RunFilter(workflows=("ican",))).empty


def test_filter_options_list_what_has_runs_and_an_empty_store_gives_empty_frames(stored):
    studio, _ = stored
    options = filter_options(studio.runs.engine)
    assert options.workflows == ["career_navigator", "flink_diagnosis", "ican"]
    assert options.providers == ["offline engine", MYSTERY]
    assert options.first_day == options.last_day == thread_frame(studio.runs.engine)["created"].dt.date.iloc[0]
    empty = RunStore("sqlite://")
    try:
        metrics = load_run_metrics(empty.engine)
        assert metrics.threads.empty and metrics.tasks.empty and metrics.iterations.empty
        assert "cost_usd" in metrics.tasks.columns and "iterations" in metrics.threads.columns
        assert filter_options(empty.engine).workflows == [] and filter_options(empty.engine).first_day is None
    finally:
        empty.dispose()


def test_an_unreachable_database_is_a_run_store_error_without_its_password():
    engine = create_engine("postgresql+psycopg://stepwise:s3cret-pw@127.0.0.1:1/runs")
    with pytest.raises(RunStoreError, match="reading run metrics from postgresql") as failure:
        thread_frame(engine)
    assert "s3cret-pw" not in str(failure.value)


def test_satisfaction_follows_the_current_branch_of_a_rewound_run(tmp_path):
    studio = Studio.from_settings(load_settings(data_dir=str(tmp_path / "data")))
    try:
        spec = get_spec("career_navigator")
        session = studio.new_session(spec, spec.scenario("seed_example").input, load_settings(data_dir=str(tmp_path)))
        session.run("end")
        asked = session.head_checkpoint_id()
        session.resume({"satisfaction_level": "very_dissatisfied", "feedback_text": "Not this way at all"})
        session.rewind(asked)  # the counselor took that answer back and asked again
        session.resume({"satisfaction_level": "satisfied", "feedback_text": "Good"})
        frame = satisfaction_frame(studio.runs.engine)
        assert list(frame["level"]) == ["satisfied"] and list(frame["round"]) == [1]
    finally:
        studio.close()
