"""CareerNavigator's graph: the nodes and routes of seed 000, wired and nothing else."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from pipelines.career_navigator.nodes import (ANALYSTS, coordinator, industry_researcher, job_analyzer, planner,
                                              reporter, route_after_coordinator, supervisor, user_profiler)
from pipelines.career_navigator.planning import (collect_feedback, confirm_plan, goal_decomposer,
                                                 route_after_confirmation, route_after_feedback, scheduler)
from pipelines.career_navigator.state import (CareerContext, CareerNavigatorInput, CareerNavigatorOutput,
                                              CareerNavigatorState)


def build_graph() -> StateGraph:
    graph = StateGraph(CareerNavigatorState, context_schema=CareerContext, input_schema=CareerNavigatorInput,
                       output_schema=CareerNavigatorOutput)
    graph.add_node("coordinator", coordinator)
    graph.add_node("planner", planner)
    graph.add_node("supervisor", supervisor)
    graph.add_node("user_profiler", user_profiler)
    graph.add_node("industry_researcher", industry_researcher)
    graph.add_node("job_analyzer", job_analyzer)
    graph.add_node("reporter", reporter)
    graph.add_node("collect_feedback", collect_feedback)
    graph.add_node("goal_decomposer", goal_decomposer)
    graph.add_node("scheduler", scheduler)
    graph.add_node("confirm_plan", confirm_plan)

    graph.add_edge(START, "coordinator")
    graph.add_conditional_edges("coordinator", route_after_coordinator, ["planner", "goal_decomposer"])
    graph.add_edge("planner", "supervisor")
    for analyst in ANALYSTS:
        graph.add_edge("supervisor", analyst)
    graph.add_edge(list(ANALYSTS), "reporter")
    graph.add_edge("reporter", "collect_feedback")
    graph.add_conditional_edges("collect_feedback", route_after_feedback, ["supervisor", "goal_decomposer"])
    graph.add_edge("goal_decomposer", "scheduler")
    graph.add_edge("scheduler", "confirm_plan")
    graph.add_conditional_edges("confirm_plan", route_after_confirmation, ["goal_decomposer", END])
    return graph
