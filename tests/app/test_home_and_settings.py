"""Home lists the five workflows honestly; Settings applies, saves without the key, and tests the connection."""

import json

from pipelines.core.settings import settings_file_path
from tests.app.conftest import no_errors


def test_home_shows_five_cards_and_marks_unbuilt_ones_as_coming(entry):
    app = entry
    no_errors(app)
    assert sorted(s.value for s in app.subheader) == ["CareerNavigator", "Deep research", "Flink job diagnosis",
                                                       "Open Recruiter", "iCan career guidance"]
    assert len([i for i in app.info if "Coming" in i.value]) == 2
    assert len(app.get("page_link")) == 3


def test_navigation_reaches_the_workflow_page(entry):
    entry.switch_page("app_pages/career_navigator.py").run()
    no_errors(entry)
    assert entry.title[0].value == "CareerNavigator"


def test_settings_apply_and_save_never_write_the_key(page):
    app = page("settings")
    no_errors(app)
    app.selectbox(key="settings_provider").select("openai")
    app.text_input(key="settings_model").input("gpt-test")
    app.text_input(key="settings_api_key").input("sk-should-not-be-saved")
    app.number_input(key="settings_guide_loops").set_value(5)
    next(b for b in app.button if "save as defaults" in b.label).click().run()
    no_errors(app)
    assert "The API key was not written" in " ".join(s.value for s in app.success)
    saved = json.loads(settings_file_path().read_text())
    assert saved["provider"] == "openai" and saved["model"] == "gpt-test" and saved["guide_max_loops"] == 5
    assert "sk-should-not-be-saved" not in settings_file_path().read_text()
    assert app.session_state["session_api_key"] == "sk-should-not-be-saved"  # memory only, for this session


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
