"""Keys come only from the environment or .streamlit/secrets.toml; their source is named, their value never shown or saved."""

import json
import shutil
from pathlib import Path

import pytest

from pipelines.core.settings import (LANGSMITH_KEY_ENV_VARS, SettingsError, api_key_source, langsmith_key_source,
                                     load_settings, save_settings_file, settings_file_path)

EXAMPLE = Path(__file__).resolve().parents[3] / ".streamlit" / "secrets.toml.example"


@pytest.fixture(autouse=True)
def bare_checkout(tmp_path, monkeypatch):
    """A working directory and home with no secrets file, and no LangSmith key in the environment."""
    for var in LANGSMITH_KEY_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path


def write_secrets(text: str, where: Path = Path(".streamlit")) -> None:
    where.mkdir(parents=True, exist_ok=True)
    (where / "secrets.toml").write_text(text, encoding="utf-8")


def test_no_key_anywhere_means_no_source():
    assert (api_key_source(), langsmith_key_source()) == ("", "")
    settings = load_settings()
    assert (settings.api_key, settings.langsmith_api_key) == ("", "")


def test_environment_keys_are_named_by_their_variable(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-value")
    monkeypatch.setenv("LANGCHAIN_API_KEY", "ls-langchain-value")
    assert (api_key_source(), langsmith_key_source()) == ("OPENAI_API_KEY", "LANGCHAIN_API_KEY")
    monkeypatch.setenv("STEPWISE_API_KEY", "sk-stepwise-value")
    monkeypatch.setenv("LANGSMITH_API_KEY", "ls-langsmith-value")
    assert (api_key_source(), langsmith_key_source()) == ("STEPWISE_API_KEY", "LANGSMITH_API_KEY")
    settings = load_settings()
    assert (settings.api_key, settings.langsmith_api_key) == ("sk-stepwise-value", "ls-langsmith-value")


def test_the_example_secrets_file_copied_into_place_gives_both_keys():
    Path(".streamlit").mkdir()
    shutil.copy(EXAMPLE, ".streamlit/secrets.toml")
    assert (api_key_source(), langsmith_key_source()) == (".streamlit/secrets.toml", ".streamlit/secrets.toml")
    settings = load_settings()
    assert settings.api_key.startswith("sk-") and settings.langsmith_api_key.startswith("lsv2_")


def test_the_environment_wins_over_the_secrets_file_and_home_is_read_last(monkeypatch, bare_checkout):
    write_secrets('[langsmith]\napi_key = "ls-from-home"\n', bare_checkout / "home" / ".streamlit")
    assert langsmith_key_source() == "~/.streamlit/secrets.toml"
    write_secrets('[stepwise]\napi_key = "sk-from-file"\n[langsmith]\napi_key = "ls-from-file"\n')
    assert langsmith_key_source() == ".streamlit/secrets.toml"
    assert load_settings().langsmith_api_key == "ls-from-file"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    assert api_key_source() == "OPENAI_API_KEY" and load_settings().api_key == "sk-from-env"


def test_a_broken_secrets_file_is_skipped_not_fatal():
    write_secrets("[stepwise\napi_key = ")
    assert api_key_source() == "" and load_settings().api_key == ""


def test_the_langsmith_key_is_never_shown_saved_or_read_from_the_settings_file(monkeypatch):
    monkeypatch.setenv("LANGSMITH_API_KEY", "ls-secret-456")
    settings = load_settings(langsmith_tracing=True, langsmith_project="counselling")
    assert settings.langsmith_api_key == "ls-secret-456"
    assert "ls-secret" not in repr(settings)
    public = settings.to_public()
    assert "ls-secret" not in json.dumps(public) and public["langsmith_api_key_set"] is True
    saved = save_settings_file(settings).read_text()
    assert "ls-secret" not in saved and "api_key" not in saved
    assert json.loads(saved)["langsmith_tracing"] is True and json.loads(saved)["langsmith_project"] == "counselling"
    monkeypatch.delenv("LANGSMITH_API_KEY")
    # A key pasted into the settings file by hand is not a source: keys live in the environment or secrets.toml.
    settings_file_path().write_text(json.dumps({"langsmith_api_key": "ls-pasted", "api_key": "sk-pasted"}))
    settings = load_settings()
    assert (settings.api_key, settings.langsmith_api_key) == ("", "")


def test_tracing_settings_from_file_and_environment(monkeypatch):
    settings_file_path().write_text(json.dumps({"langsmith_tracing": True, "langsmith_project": "from-file"}))
    assert (load_settings().langsmith_tracing, load_settings().langsmith_project) == (True, "from-file")
    monkeypatch.setenv("STEPWISE_LANGSMITH_TRACING", "false")
    monkeypatch.setenv("STEPWISE_LANGSMITH_ENDPOINT", "https://langsmith.example.org")
    settings = load_settings()
    assert settings.langsmith_tracing is False and settings.langsmith_endpoint == "https://langsmith.example.org"
    monkeypatch.setenv("STEPWISE_LANGSMITH_ENDPOINT", "langsmith.example.org")
    with pytest.raises(SettingsError, match="LangSmith endpoint must be an http"):
        load_settings()
