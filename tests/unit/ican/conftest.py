"""Fixtures for iCan: the spec, a gateway context, and sessions on the shipped scenarios."""

import json

import pytest

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.registry import get_spec
from pipelines.ican.settings import ican_settings
from pipelines.ican.state import ICanContext
from tests.conftest import SCENARIOS


def ican_scenario(name: str) -> dict:
    return json.loads((SCENARIOS / "ican" / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture
def ican():
    return get_spec("ican")


@pytest.fixture
def context(settings):
    return ICanContext(gateway=ModelGateway(settings), max_guide_loops=ican_settings(settings).guide_max_loops)


@pytest.fixture
def start_ican(studio, ican, settings):
    def _start(name: str | None = None, **raw):
        data = {**(ican_scenario(name)["input"] if name else {}), **raw}
        return studio.new_session(ican, data, settings, scenario=name)
    return _start
