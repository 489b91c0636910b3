"""The planner/supervisor graph (seed §4), a subgraph of the router: generate_plan → validate_plan → present_plan →
INTERRUPT plan approval (modify loops back to validation) → dispatch ⇄ the six specialist agents (each a compiled
subgraph) → aggregate_results → INTERRUPT final approval → send → finalize."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from pipelines.recruiter.agents.communication_agent import build_communication_agent
from pipelines.recruiter.agents.jd_agent import build_jd_agent
from pipelines.recruiter.agents.matching_agent import build_matching_agent
from pipelines.recruiter.agents.pipeline_agent import build_pipeline_agent
from pipelines.recruiter.agents.resume_agent import build_resume_agent
from pipelines.recruiter.agents.scheduling_agent import build_scheduling_agent
from pipelines.recruiter.nodes.planner import (
    approve_plan, check_plan, finalize_plan, generate_plan, present_plan, route_after_approval, route_after_present,
)
from pipelines.recruiter.nodes.supervisor import (
    aggregate_results, apply_review, dispatch, final_approval, review_shortlist, route_after_aggregate, send_emails,
)
from pipelines.recruiter.state import PlannerInput, PlannerOutput, PlannerState, RecruiterContext

AGENTS = {"jd_agent": build_jd_agent, "resume_agent": build_resume_agent, "matching_agent": build_matching_agent,
          "communication_agent": build_communication_agent, "scheduling_agent": build_scheduling_agent,
          "pipeline_agent": build_pipeline_agent}


def build_planner_graph() -> StateGraph:
    graph = StateGraph(PlannerState, context_schema=RecruiterContext, input_schema=PlannerInput, output_schema=PlannerOutput)
    graph.add_node("generate_plan", generate_plan)
    graph.add_node("validate_plan", check_plan)
    graph.add_node("present_plan", present_plan)
    graph.add_node("approve_plan", approve_plan)
    graph.add_node("dispatch", dispatch, destinations=(*AGENTS, "review_shortlist", "apply_review", "aggregate_results"))
    for name, build in AGENTS.items():
        if name == "resume_agent":  # hands off to the Matching agent (or back) itself, with a Command to this graph
            graph.add_node(name, build().compile(name=name), destinations=("matching_agent", "dispatch"))
        else:
            graph.add_node(name, build().compile(name=name))
            graph.add_edge(name, "dispatch")
    graph.add_node("review_shortlist", review_shortlist)
    graph.add_node("apply_review", apply_review)
    graph.add_node("aggregate_results", aggregate_results)
    graph.add_node("final_approval", final_approval)
    graph.add_node("send_emails", send_emails)
    graph.add_node("finalize_plan", finalize_plan)
    graph.add_edge(START, "generate_plan")
    graph.add_edge("generate_plan", "validate_plan")
    graph.add_edge("validate_plan", "present_plan")
    graph.add_conditional_edges("present_plan", route_after_present, ["approve_plan", "finalize_plan"])
    graph.add_conditional_edges("approve_plan", route_after_approval, ["dispatch", "finalize_plan", "validate_plan"])
    graph.add_edge("review_shortlist", "dispatch")
    graph.add_edge("apply_review", "dispatch")
    graph.add_conditional_edges("aggregate_results", route_after_aggregate, ["final_approval", "dispatch", "finalize_plan"])
    graph.add_edge("final_approval", "send_emails")
    graph.add_edge("send_emails", "dispatch")
    graph.add_edge("finalize_plan", END)
    return graph


PLANNER_GRAPH: CompiledStateGraph = build_planner_graph().compile(name="planner")
