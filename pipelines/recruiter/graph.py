"""The recruiter's router (seed §2): check_paused → resume_workflow, or classify_intent → the chat subgraph | the
planner/supervisor subgraph (a free-form plan, or one of the five workflows) | the direct status change."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from pipelines.recruiter.chat_graph import CHAT_GRAPH
from pipelines.recruiter.planner_graph import PLANNER_GRAPH
from pipelines.recruiter.nodes.router import (
    check_paused, classify_intent, resume_workflow, route_after_check_paused, route_after_classify,
)
from pipelines.recruiter.nodes.status_change import (
    apply_status_change, approve_status_change, propose_status_change, route_after_proposal,
)
from pipelines.recruiter.state import ChatInput, RecruiterContext, RouterState


def build_graph() -> StateGraph:
    graph = StateGraph(RouterState, context_schema=RecruiterContext, input_schema=ChatInput)
    graph.add_node("check_paused", check_paused)
    graph.add_node("resume_workflow", resume_workflow)
    graph.add_node("classify_intent", classify_intent)
    graph.add_node("chat", CHAT_GRAPH)
    graph.add_node("planner", PLANNER_GRAPH)
    graph.add_node("propose_status_change", propose_status_change)
    graph.add_node("approve_status_change", approve_status_change)
    graph.add_node("apply_status_change", apply_status_change)
    graph.add_edge(START, "check_paused")
    graph.add_conditional_edges("check_paused", route_after_check_paused, ["resume_workflow", "classify_intent"])
    graph.add_edge("resume_workflow", END)
    graph.add_conditional_edges("classify_intent", route_after_classify,
                                ["chat", "planner", "propose_status_change"])
    graph.add_edge("chat", END)
    graph.add_edge("planner", END)
    graph.add_conditional_edges("propose_status_change", route_after_proposal, ["approve_status_change", END])
    graph.add_edge("approve_status_change", "apply_status_change")
    graph.add_edge("apply_status_change", END)
    return graph
