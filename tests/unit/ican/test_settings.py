"""iCan's own settings: read from its environment variable, bounded, and refused with the reason."""

import pytest

from pipelines.core.settings import SettingsError, load_settings
from pipelines.ican.settings import ican_settings


def test_guide_loop_limit_from_the_environment_and_its_bounds(monkeypatch):
    monkeypatch.setenv("STEPWISE_GUIDE_MAX_LOOPS", "3")
    assert ican_settings(load_settings()).guide_max_loops == 3
    monkeypatch.setenv("STEPWISE_GUIDE_MAX_LOOPS", "0")
    with pytest.raises(SettingsError, match="guide_max_loops: Input should be greater than or equal to 1"):
        ican_settings(load_settings())


def test_the_page_or_the_cli_value_wins_and_an_unknown_name_is_refused(monkeypatch):
    monkeypatch.setenv("STEPWISE_GUIDE_MAX_LOOPS", "3")
    assert ican_settings(load_settings().for_workflow("ican", guide_max_loops=5)).guide_max_loops == 5
    with pytest.raises(SettingsError, match="ican has no setting max_loops"):
        ican_settings(load_settings().for_workflow("ican", max_loops=5))
