"""The deep research studio page in AppTest: it opens on the workflow's graph with its three agent subgraphs."""

from tests.app.conftest import no_errors


def test_the_studio_page_shows_the_graph_with_the_agents_as_clusters(page):
    app = page("deep_research")
    no_errors(app)
    assert app.title[0].value == "Deep research"
    dot = app.get("graphviz_chart")[0].proto.spec
    for node in ("central_agent", "human_feedback", "citation_check", "search", "run_code", "compare_findings"):
        assert node in dot
    assert dot.count("cluster_") >= 3
