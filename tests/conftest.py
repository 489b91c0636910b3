"""Shared fixtures: an isolated environment, settings on a temporary data dir, a studio, the CareerNavigator spec."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pipelines.core.registry import get_spec
from pipelines.core.settings import (API_KEY_ENV_VARS, ENV_VARS, LANGSMITH_KEY_ENV_VARS, SETTINGS_FILE_ENV, Settings,
                                     load_settings)
from pipelines.core.runtime.studio import Studio

SCENARIOS = Path(__file__).resolve().parents[1] / "assets" / "scenarios"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path, monkeypatch):
    """No developer setting, key or settings file leaks into a test."""
    for var in [*ENV_VARS.values(), *API_KEY_ENV_VARS, *LANGSMITH_KEY_ENV_VARS]:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv(SETTINGS_FILE_ENV, str(tmp_path / "settings.json"))
    monkeypatch.setenv("LANGSMITH_TRACING", "false")


@pytest.fixture(autouse=True)
def real_main_module():
    """Streamlit's script runner (AppTest) puts the page it ran in sys.modules["__main__"] and leaves it there;
    a worker process started later by multiprocessing's spawn would then run that page as its main module."""
    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main


@pytest.fixture
def settings(tmp_path) -> Settings:
    return load_settings(data_dir=str(tmp_path / "data"))


@pytest.fixture
def studio(settings):
    studio = Studio.from_settings(settings)
    yield studio
    studio.close()


@pytest.fixture
def spec():
    return get_spec("career_navigator")


def scenario(name: str) -> dict:
    return json.loads((SCENARIOS / "career_navigator" / f"{name}.json").read_text(encoding="utf-8"))
