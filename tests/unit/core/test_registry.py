"""The catalog of workflows, specs and scenarios."""

import pytest

from pipelines.core.errors import InvalidInput
from pipelines.core.registry import available_specs, get_spec, workflows


def test_catalog_lists_the_five_seed_workflows_all_built():
    ids = ["career_navigator", "flink_diagnosis", "recruiter", "ican", "deep_research"]
    assert [e.id for e in workflows()] == ids
    assert [s.id for s in available_specs()] == ids
    with pytest.raises(InvalidInput, match="unknown pipeline 'nope'"):
        get_spec("nope")


def test_scenarios_load_in_their_order_with_answers():
    spec = get_spec("career_navigator")
    names = [s.name for s in spec.scenarios()]
    assert names[0] == "seed_example" and len(names) >= 4
    assert spec.scenario("seed_example").answers[0]["satisfaction_level"] == "dissatisfied"
    with pytest.raises(InvalidInput, match="no scenario 'missing'"):
        spec.scenario("missing")


def test_a_spec_takes_its_title_seed_and_summary_from_its_registry_entry():
    entries = {entry.id: entry for entry in workflows()}
    for spec in available_specs():
        entry = entries[spec.id]
        assert (spec.title, spec.seed, spec.summary) == (entry.title, entry.seed, entry.summary)
    assert get_spec("flink_diagnosis").title == "Flink job diagnosis"
