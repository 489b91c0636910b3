"""The graph as DOT: colours for visited, current, next and waiting nodes; clusters; loop labels."""

from dashboard.studio.graph_view import CLUSTER_TINTS, COLOURS, GraphHighlights, counter_labels, graph_dot, graph_shape
from pipelines.core.registry import get_spec
from pipelines.core.runtime.studio import Studio


def test_dot_colours_nodes_by_role_and_labels_loops():
    marks = GraphHighlights(visited={"a"}, current={"b"}, next={"c"}, waiting={"d"}, breakpoints={"c"},
                            edge_labels={("d", "a"): "rounds 1/3"})
    dot = graph_dot(["__start__", "a", "b", "c", "d", "__end__"],
                    [("__start__", "a", False), ("a", "b", False), ("b", "c", True), ("d", "a", True)], marks)
    assert f'"a" [label="a", fillcolor="{COLOURS["visited"]}"' in dot
    assert f'"b" [label="b", fillcolor="{COLOURS["current"]}"' in dot
    assert f'fillcolor="{COLOURS["waiting"]}"' in dot and 'color="#dc2626"' in dot
    assert '"b" -> "c" [style=dashed];' in dot
    assert '"d" -> "a" [style=dashed, label="rounds 1/3"' in dot
    assert '"__start__" [label="START"' in dot


def test_subgraph_nodes_are_drawn_in_a_cluster():
    dot = graph_dot(["guide", "guide:welcome", "guide:dig"], [("guide:welcome", "guide:dig", False)], GraphHighlights())
    assert "subgraph cluster_0 { label=\"guide\"" in dot and '"guide:welcome" [label="welcome"' in dot


def test_a_subgraph_returns_and_its_cluster_takes_the_parent_colour():
    nodes = ["guide:welcome", "guide:__end__", "next_node"]
    dot = graph_dot(nodes, [("guide:welcome", "guide:__end__", False)], GraphHighlights(next={"guide"}))
    assert '"guide:__end__" [label="return"' in dot and "shape=oval" in dot
    assert f'style="rounded,dashed,filled"; fillcolor="{CLUSTER_TINTS["next"]}"' in dot
    plain = graph_dot(nodes, [], GraphHighlights(next={"next_node"}))
    assert 'style="rounded,dashed";' in plain


def test_career_navigator_shape_and_counter_labels(settings):
    studio = Studio.in_memory()
    spec = get_spec("career_navigator")
    nodes, edges = graph_shape(studio.compiled(spec))
    assert {"coordinator", "planner", "supervisor", "user_profiler", "collect_feedback", "confirm_plan"} <= set(nodes)
    assert ("collect_feedback", "supervisor", True) in edges and ("supervisor", "job_analyzer", False) in edges
    labels = counter_labels(spec.counters, {"iteration_count": {"value": 2, "limit": 3},
                                            "plan_revision_count": {"value": 0, "limit": 3}})
    assert labels[("collect_feedback", "supervisor")] == "iteration_count 2/3"
    assert labels[("confirm_plan", "goal_decomposer")] == "plan_revision_count 0/3"
