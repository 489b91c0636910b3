"""Settings precedence and the handling of the API key."""

import json

import pytest

from pipelines.core.settings import SettingsError, load_settings, save_settings_file, settings_file_path


def test_defaults_are_offline_sqlite_in_data_dir():
    settings = load_settings()
    assert settings.provider == "offline"
    assert settings.effective_checkpoint_url == "sqlite:///data/checkpoints.sqlite"
    assert settings.effective_db_url == "sqlite:///data/stepwise.sqlite"


def test_file_then_environment_then_overrides(monkeypatch):
    settings_file_path().write_text(json.dumps({"provider": "ollama", "model": "from-file", "timeout_s": 5}))
    assert load_settings().model == "from-file"
    monkeypatch.setenv("STEPWISE_MODEL", "from-env")
    assert load_settings().model == "from-env"
    assert load_settings(model="from-flag").model == "from-flag"
    assert load_settings().timeout_s == 5.0


def test_api_key_is_never_shown_or_saved(monkeypatch):
    monkeypatch.setenv("STEPWISE_API_KEY", "sk-secret-123")
    settings = load_settings(provider="openai")
    assert settings.api_key == "sk-secret-123"
    assert "sk-secret" not in repr(settings)
    assert "sk-secret" not in json.dumps(settings.to_public())
    path = save_settings_file(settings)
    assert "sk-secret" not in path.read_text()


def test_bad_values_get_a_clear_error(monkeypatch):
    with pytest.raises(SettingsError, match="unknown provider"):
        load_settings(provider="gpt5-magic")
    monkeypatch.setenv("STEPWISE_TIMEOUT", "soon")
    with pytest.raises(SettingsError, match="timeout_s must be a float"):
        load_settings()


def test_phone_regions_are_country_codes_read_in_any_case_and_spacing(monkeypatch):
    monkeypatch.setenv("STEPWISE_PHONE_REGIONS", "gb; FR,  de")
    assert load_settings().phone_region_codes == ("GB", "FR", "DE")
    with pytest.raises(SettingsError, match="unknown phone region XX"):
        load_settings(phone_regions="GB, XX")
