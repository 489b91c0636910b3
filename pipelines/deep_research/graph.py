"""Deep research's graph: coordinator → perception → background_investigator → planner ⇄ human_feedback →
central_agent ⇄ researcher | coder | analyst → reporter → citation_check, routed by `current_node`."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from pipelines.deep_research.nodes.central import central_agent
from pipelines.deep_research.nodes.intake import background_investigator, coordinator, perception
from pipelines.deep_research.nodes.planning import human_feedback, planner, route_by_current_node
from pipelines.deep_research.nodes.reporter import citation_check, reporter
from pipelines.deep_research.state import ResearchContext, ResearchInput, ResearchOutput, ResearchState
from pipelines.deep_research.subgraphs import ANALYST_GRAPH, CODER_GRAPH, RESEARCHER_GRAPH


def route_after_perception(state: ResearchState) -> str:
    return "background_investigator" if state.get("enable_background_investigation", True) else "planner"


def build_graph() -> StateGraph:
    graph = StateGraph(ResearchState, context_schema=ResearchContext, input_schema=ResearchInput,
                       output_schema=ResearchOutput)
    graph.add_node("coordinator", coordinator)
    graph.add_node("perception", perception)
    graph.add_node("background_investigator", background_investigator)
    graph.add_node("planner", planner)
    graph.add_node("human_feedback", human_feedback)
    graph.add_node("central_agent", central_agent)
    graph.add_node("researcher", RESEARCHER_GRAPH)
    graph.add_node("coder", CODER_GRAPH)
    graph.add_node("analyst", ANALYST_GRAPH)
    graph.add_node("reporter", reporter)
    graph.add_node("citation_check", citation_check)
    graph.add_edge(START, "coordinator")
    graph.add_conditional_edges("coordinator", route_by_current_node, {"perception": "perception", "__end__": END})
    graph.add_conditional_edges("perception", route_after_perception, ["background_investigator", "planner"])
    graph.add_edge("background_investigator", "planner")
    graph.add_conditional_edges("planner", route_by_current_node, ["human_feedback", "central_agent", "reporter"])
    graph.add_conditional_edges("human_feedback", route_by_current_node, ["planner", "central_agent", "human_feedback"])
    graph.add_conditional_edges("central_agent", route_by_current_node,
                                ["central_agent", "researcher", "coder", "analyst", "reporter"])
    for agent in ("researcher", "coder", "analyst"):
        graph.add_edge(agent, "central_agent")
    graph.add_edge("reporter", "citation_check")
    graph.add_edge("citation_check", END)
    return graph
