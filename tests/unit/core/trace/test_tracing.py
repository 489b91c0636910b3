"""LangSmith tracing: per-session callbacks, the page's status line, and real runs sent to a local LangSmith stand-in."""

import time

import pytest
from langchain_core.tracers import LangChainTracer

from pipelines.core.settings import LANGSMITH_KEY_ENV_VARS, load_settings
from pipelines.core.trace.langsmith import tracing_callbacks, tracing_status
from tests.support.langsmith_stub import LangSmithStub

KEY = "ls-test-key"


@pytest.fixture(autouse=True)
def no_developer_langsmith_key(monkeypatch, tmp_path):
    for var in LANGSMITH_KEY_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml of the checkout
    monkeypatch.setenv("HOME", str(tmp_path))


def traced_settings(tmp_path, **overrides):
    return load_settings(data_dir=str(tmp_path / "data"), **overrides)


def run_to_first_interrupt(studio, spec, settings):
    session = studio.new_session(spec, spec.scenario("seed_example").input, settings, scenario="seed_example")
    session.run("end")
    assert session.status() == "waiting"  # the feedback question after the first report
    return session


def test_no_tracer_when_the_toggle_is_off_or_no_key_is_set(tmp_path):
    assert tracing_callbacks(traced_settings(tmp_path, langsmith_api_key=KEY)) == []
    assert tracing_callbacks(traced_settings(tmp_path, langsmith_tracing=True)) == []


def test_a_tracer_for_the_chosen_project_and_endpoint(tmp_path):
    settings = traced_settings(tmp_path, langsmith_tracing=True, langsmith_project="demo", langsmith_api_key=KEY,
                               langsmith_endpoint="http://127.0.0.1:1984")
    (tracer,) = tracing_callbacks(settings)
    assert isinstance(tracer, LangChainTracer)
    assert tracer.project_name == "demo" and tracer.client.api_url == "http://127.0.0.1:1984"


def test_status_line_says_off_on_or_on_without_a_key(tmp_path, monkeypatch):
    assert tracing_status(traced_settings(tmp_path)) == "off"
    assert tracing_status(traced_settings(tmp_path, langsmith_tracing=True)) == \
        "on but no LANGSMITH_API_KEY: nothing is sent"
    monkeypatch.setenv("LANGCHAIN_API_KEY", KEY)
    monkeypatch.setenv("STEPWISE_LANGSMITH_TRACING", "true")
    monkeypatch.setenv("STEPWISE_LANGSMITH_PROJECT", "counselling")
    status = tracing_status(traced_settings(tmp_path))
    assert status == "on: project counselling" and KEY not in status


def test_a_traced_run_reaches_langsmith_with_its_nodes_and_key(tmp_path, studio, spec):
    with LangSmithStub() as stub:
        settings = traced_settings(tmp_path, langsmith_tracing=True, langsmith_endpoint=stub.url,
                                   langsmith_api_key=KEY, langsmith_project="stepwise-test")
        session = run_to_first_interrupt(studio, spec, settings)
        # Read at once: each step waits for its traces, so a CLI that exits here has delivered them.
        uploads = stub.run_uploads()
    assert uploads, [(r.method, r.path) for r in stub.requests]
    assert {r.api_key for r in stub.requests} == {KEY}
    sent = b"".join(r.body for r in uploads)
    for node in ("coordinator", "planner", "supervisor", "reporter"):
        assert f'"name":"{node}"'.encode() in sent, node
    assert session.thread_id.encode() in sent and b"stepwise-test" in sent


def test_nothing_is_sent_when_the_toggle_is_off(tmp_path, studio, spec):
    with LangSmithStub() as stub:
        settings = traced_settings(tmp_path, langsmith_endpoint=stub.url, langsmith_api_key=KEY)
        run_to_first_interrupt(studio, spec, settings)
        time.sleep(0.5)  # room for a stray background upload to arrive, were there one
    assert stub.requests == []


def test_tracing_is_per_session_not_per_process(tmp_path, studio, spec):
    with LangSmithStub() as stub:
        traced = run_to_first_interrupt(studio, spec, traced_settings(
            tmp_path, langsmith_tracing=True, langsmith_endpoint=stub.url, langsmith_api_key=KEY))
        quiet = run_to_first_interrupt(studio, spec, traced_settings(
            tmp_path, langsmith_endpoint=stub.url, langsmith_api_key=KEY))
        time.sleep(0.5)
    sent = b"".join(r.body for r in stub.run_uploads())
    assert traced.thread_id.encode() in sent and quiet.thread_id.encode() not in sent


def test_an_unreachable_langsmith_does_not_stop_the_run(tmp_path, studio, spec):
    settings = traced_settings(tmp_path, langsmith_tracing=True, langsmith_endpoint="http://127.0.0.1:9",
                               langsmith_api_key=KEY)
    session = run_to_first_interrupt(studio, spec, settings)
    assert [r.status for r in session.records()].count("completed") >= 6
