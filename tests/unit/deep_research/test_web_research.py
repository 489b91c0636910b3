"""Web search as a setting: with a SearxNG instance (a stub on loopback) the researcher adds web results to what it
searches, and the report cites them by their address; a failing instance costs its results, never the run."""

from __future__ import annotations

from tests.unit.deep_research.conftest import finish
from tests.unit.deep_research.test_web_search import closed_port, stub  # noqa: F401 - the fixtures

QUESTION = "How do checkpoints make state fault tolerant?"


def test_web_results_are_searched_and_cited(start, settings, stub):  # noqa: F811
    url, seen = stub
    settings.workflow_overrides["deep_research"] = {"web_search": "searxng", "searxng_url": f"{url}/ok"}
    state = finish(start(QUESTION, auto_accepted_plan=True))
    assert seen and all(r["query"].get("format") == ["json"] for r in seen)
    web = [c for c in state["data_collections"] if c.get("kind") == "web"]
    assert web and web[0]["url"].startswith("https://flink.apache.org")
    assert "<script>" not in str(web)  # snippets arrive as plain text
    cited = [c for c in state["citations"] if c["document"].startswith("https://")]
    assert cited and "fault tolerant" in state["final_report"]


def test_a_failing_instance_costs_its_results_not_the_run(start, settings, closed_port):  # noqa: F811
    settings.workflow_overrides["deep_research"] = {"web_search": "searxng",
                                                    "searxng_url": f"http://127.0.0.1:{closed_port}"}
    state = finish(start(QUESTION, auto_accepted_plan=True))
    assert state["final_report"] and not [c for c in state["data_collections"] if c.get("kind") == "web"]
