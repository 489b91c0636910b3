"""Home lists the five workflows honestly; Settings applies, saves without keys, traces, and tests the connection."""

import json
import re

from pipelines.core.settings import LANGSMITH_KEY_ENV_VARS, settings_file_path
from tests.app.conftest import no_errors, open_workflow_page
from tests.support.openai_stub import OpenAIStub


def test_home_shows_five_cards_all_built(entry):
    app = entry
    no_errors(app)
    assert sorted(s.value for s in app.subheader) == ["CareerNavigator", "Deep research", "Flink job diagnosis",
                                                       "Open Recruiter", "iCan career guidance"]
    assert not [i for i in app.info if "Coming" in i.value]
    assert len(app.get("page_link")) == 5


def test_navigation_reaches_the_workflow_page(entry):
    open_workflow_page(entry, "career_navigator").run()
    no_errors(entry)
    assert entry.title[0].value == "CareerNavigator"


def page_text(app) -> str:
    """Everything the page shows in text elements and JSON, to check that no key value is among it."""
    elements = [*app.caption, *app.markdown, *app.success, *app.error, *app.info, *app.json]
    return " ".join(str(e.value) for e in elements) + " ".join(str(t.value) for t in app.text_input)


def test_settings_apply_and_save_never_write_the_key(page, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-appear")
    app = page("settings")
    no_errors(app)
    assert "settings_api_key" not in [t.key for t in app.text_input]  # keys are never typed into the page
    assert "API key: set (from OPENAI_API_KEY)" in page_text(app)
    app.selectbox(key="settings_provider").select("openai")
    app.text_input(key="settings_model").input("gpt-test")
    app.number_input(key="settings_ican_guide_max_loops").set_value(5)
    next(b for b in app.button if "save as defaults" in b.label).click().run()
    no_errors(app)
    assert "No key was written" in " ".join(s.value for s in app.success)
    saved = json.loads(settings_file_path().read_text())
    assert saved["provider"] == "openai" and saved["model"] == "gpt-test" and saved["workflows"]["ican"]["guide_max_loops"] == 5
    assert "sk-should-not-appear" not in settings_file_path().read_text()
    assert "sk-should-not-appear" not in page_text(app)


def test_settings_say_how_to_set_a_missing_key(page, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml of the checkout
    monkeypatch.setenv("HOME", str(tmp_path))
    for var in LANGSMITH_KEY_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    app = page("settings")
    no_errors(app)
    text = page_text(app)
    assert ("API key: not set — set STEPWISE_API_KEY or OPENAI_API_KEY, or copy .streamlit/secrets.toml.example "
            "to .streamlit/secrets.toml") in text
    assert "LangSmith key: not set" in text and "LangSmith tracing: off" in text
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text('[stepwise]\napi_key = "sk-from-secrets-file"\n')
    app.run()
    assert "API key: set (from .streamlit/secrets.toml)" in page_text(app)
    assert "sk-from-secrets-file" not in page_text(app)


def test_tracing_toggle_is_saved_and_its_status_shown(page, monkeypatch):
    for var in LANGSMITH_KEY_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    app = page("settings")
    app.toggle(key="settings_langsmith_tracing").set_value(True)
    app.text_input(key="settings_langsmith_project").input("counselling-demo")
    next(b for b in app.button if "save as defaults" in b.label).click().run()
    no_errors(app)
    saved = json.loads(settings_file_path().read_text())
    assert saved["langsmith_tracing"] is True and saved["langsmith_project"] == "counselling-demo"
    assert "LangSmith tracing: on but no LANGSMITH_API_KEY: nothing is sent" in page_text(app)
    monkeypatch.setenv("LANGSMITH_API_KEY", "ls-should-not-appear")
    app.run()
    assert "LangSmith tracing: on: project counselling-demo" in page_text(app)
    assert "LangSmith key: set (from LANGSMITH_API_KEY)" in page_text(app)
    assert "ls-should-not-appear" not in page_text(app) + settings_file_path().read_text()


def test_a_bad_tracing_endpoint_is_refused_and_the_applied_settings_stay(page):
    app = page("settings")
    app.text_input(key="settings_model").input("kept-model")
    next(b for b in app.button if b.label == "Apply to this session").click().run()
    app.text_input(key="settings_langsmith_endpoint").input("langsmith.example.org")
    next(b for b in app.button if b.label == "Apply to this session").click().run()
    no_errors(app)
    assert "LangSmith endpoint must be an http(s) URL" in " ".join(e.value for e in app.error)
    assert app.session_state["settings_overrides"]["model"] == "kept-model"
    assert app.session_state["settings_overrides"]["langsmith_endpoint"] == ""


def test_connection_test_reports_the_offline_engine(page):
    app = page("settings")
    app.button(key="settings_test").click().run()
    assert "offline engine ready" in " ".join(s.value for s in app.success)


def test_connection_test_reports_the_exact_error(page):
    app = page("settings")
    app.selectbox(key="settings_provider").select("openai")
    app.text_input(key="settings_base_url").input("http://127.0.0.1:9/v1")
    app.number_input(key="settings_timeout").set_value(2.0)
    next(b for b in app.button if b.label == "Apply to this session").click().run()
    app.button(key="settings_test").click().run()
    errors = " ".join(e.value for e in app.error)
    assert errors.startswith("Connection failed:") and "Connection" in errors


def openai_page_on(page, base_url: str):
    app = page("settings")
    app.selectbox(key="settings_provider").select("openai")
    app.text_input(key="settings_model").input("stub-model")
    app.text_input(key="settings_base_url").input(base_url)
    app.number_input(key="settings_timeout").set_value(5.0)
    next(b for b in app.button if b.label == "Apply to this session").click().run()
    return app


def test_connection_test_reports_the_answer_time_of_a_working_server(page):
    with OpenAIStub([("text", "ready")]) as stub:
        app = openai_page_on(page, stub.base_url)
        app.button(key="settings_test").click().run()
    no_errors(app)
    (success,) = [s.value for s in app.success if "answered" in s.value]
    assert re.fullmatch(r"openai · stub-model answered in \d+\.\d\d s: 'ready'", success), success
    assert stub.requests[-1]["path"] == "/v1/chat/completions"


def test_connection_test_reports_a_refused_key_exactly(page):
    with OpenAIStub([("error", 401)]) as stub:
        app = openai_page_on(page, stub.base_url)
        app.button(key="settings_test").click().run()
    errors = " ".join(e.value for e in app.error)
    assert re.match(r"Connection failed: HTTP 401 \w*AuthenticationError: .*stub failure", errors), errors


def test_phone_regions_are_applied_and_an_unknown_one_is_refused(page):
    app = page("settings")
    app.text_input(key="settings_phone_regions").input("gb, fr")
    next(b for b in app.button if b.label == "Apply to this session").click().run()
    no_errors(app)
    assert app.session_state["settings_overrides"]["phone_regions"] == "gb, fr"
    app.text_input(key="settings_phone_regions").input("GB, Atlantis")
    next(b for b in app.button if b.label == "Apply to this session").click().run()
    assert "unknown phone region ATLANTIS" in " ".join(e.value for e in app.error)
    assert app.session_state["settings_overrides"]["phone_regions"] == "gb, fr"
