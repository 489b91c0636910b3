"""Flink fixtures: settings on a temporary data dir (SQLite queue, embedded Chroma), the spec, fresh services."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.flink_diagnosis import services

SCENARIOS = Path(__file__).resolve().parents[3] / "assets" / "scenarios" / "flink_diagnosis"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "flink"


@pytest.fixture
def settings(tmp_path):
    """Overrides the shared one: a short diagnose backoff, and the Flink stores closed after each test."""
    settings = load_settings(data_dir=str(tmp_path / "data"), backoff_s=0.01)
    yield settings
    services.close_all()


@pytest.fixture
def flink_settings(settings):
    return settings


@pytest.fixture
def flink_spec():
    return get_spec("flink_diagnosis")


@pytest.fixture
def flink_studio(studio):
    return studio


@pytest.fixture
def store(flink_settings):
    return services.open_store(flink_settings)


@pytest.fixture
def knowledge(flink_settings):
    knowledge = services.open_flink_knowledge(flink_settings)
    knowledge.ensure_indexed()
    return knowledge


def flink_scenario(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["input"]


def load_fixture(name: str) -> list[dict]:
    path = FIXTURES / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
