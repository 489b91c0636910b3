"""The guide subgraph (seed 003 §4): welcome → assess_need → collect_basic_info → dig_deeper ⇄ check_sufficiency."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from pipelines.ican.guide_nodes import (assess_need, check_sufficiency, collect_basic_info, dig_deeper,
                                        should_continue, welcome)
from pipelines.ican.state import GuideOutput, GuideState, ICanContext


def build_guide_graph() -> StateGraph:
    graph = StateGraph(GuideState, context_schema=ICanContext, output_schema=GuideOutput)
    graph.add_node("welcome", welcome)
    graph.add_node("assess_need", assess_need)
    graph.add_node("collect_basic_info", collect_basic_info)
    graph.add_node("dig_deeper", dig_deeper)
    graph.add_node("check_sufficiency", check_sufficiency)
    graph.add_edge(START, "welcome")
    graph.add_edge("welcome", "assess_need")
    graph.add_edge("assess_need", "collect_basic_info")
    graph.add_edge("collect_basic_info", "dig_deeper")
    graph.add_edge("dig_deeper", "check_sufficiency")
    graph.add_conditional_edges("check_sufficiency", should_continue, {"dig_deeper": "dig_deeper", "handoff": END})
    return graph


# Compiled once per process (the seed recompiled it on every call). A module-level graph is also what lets
# LangGraph find it inside guide_node, so the graph view shows it as a cluster and stepping streams its nodes;
# run inside the workflow it takes the parent's checkpointer.
GUIDE_GRAPH: CompiledStateGraph = build_guide_graph().compile(name="guide")
