"""A workflow registered in one place (its registry entry) appears in the navigation, on Home and in the CLI."""

import pytest

from pipelines import cli
from pipelines.core import registry
from tests.app.conftest import no_errors, open_workflow_page
from tests.support.toy_workflow import ENTRY


@pytest.fixture
def toy_registered():
    registry.register(ENTRY)
    yield ENTRY
    registry.unregister(ENTRY.id)


def test_a_registered_workflow_has_a_studio_page_in_the_navigation(toy_registered, entry):
    open_workflow_page(entry, "toy").run()
    no_errors(entry)
    assert entry.title[0].value == "Toy workflow"
    assert ENTRY.summary in [m.value for m in entry.markdown]  # the About text comes from the entry too
    assert [s.label for s in entry.selectbox] == ["Run", "Scenario"]  # the studio's run picker


def test_a_registered_workflow_gets_a_card_on_the_home_page(toy_registered, entry):
    entry.run()
    no_errors(entry)
    assert "Toy workflow" in [s.value for s in entry.subheader]
    assert len(entry.get("page_link")) == 6  # the five built workflows and the toy


def test_a_registered_workflow_is_listed_by_the_cli(toy_registered, capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "\ntoy                Toy workflow\n" in out


def test_unregistered_it_is_gone(entry, capsys):
    assert "Toy workflow" not in [s.value for s in entry.subheader]
    cli.main(["list"])
    assert "Toy workflow" not in capsys.readouterr().out
