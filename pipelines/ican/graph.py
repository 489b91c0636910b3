"""iCan's outer workflow (seed 003 §6): guide ⇄ client's turn, then resume parser → profile → matcher → reporter."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from pipelines.ican.nodes import (career_matcher_node, client_turn, guide_node, profile_analyzer_node,
                                  reporter_node, resume_parser_node, route_after_guide)
from pipelines.ican.state import ICanContext, ICanInput, ICanOutput, ICanWorkflowState


def build_graph() -> StateGraph:
    graph = StateGraph(ICanWorkflowState, context_schema=ICanContext, input_schema=ICanInput,
                       output_schema=ICanOutput)
    graph.add_node("guide_node", guide_node)
    graph.add_node("client_turn", client_turn)
    graph.add_node("resume_parser_node", resume_parser_node)
    graph.add_node("profile_analyzer_node", profile_analyzer_node)
    graph.add_node("career_matcher_node", career_matcher_node)
    graph.add_node("reporter_node", reporter_node)
    graph.add_edge(START, "guide_node")
    graph.add_conditional_edges("guide_node", route_after_guide, ["client_turn", "resume_parser_node"])
    graph.add_edge("client_turn", "guide_node")
    graph.add_edge("resume_parser_node", "profile_analyzer_node")
    graph.add_edge("profile_analyzer_node", "career_matcher_node")
    graph.add_edge("career_matcher_node", "reporter_node")
    graph.add_edge("reporter_node", END)
    return graph
