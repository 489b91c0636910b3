"""Fixtures for CareerNavigator: a session on a scenario, driven through the real graph."""

import pytest

from tests.conftest import scenario


@pytest.fixture
def start(studio, spec, settings):
    def _start(name: str, **overrides):
        data = scenario(name)["input"]
        data = {**data, **overrides}
        return studio.new_session(spec, data, settings, scenario=name)
    return _start
