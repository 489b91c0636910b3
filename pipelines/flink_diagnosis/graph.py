"""The diagnosis graph of seed 001: collect → retrieve → diagnose → store → accumulate, and handle_error."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from pipelines.flink_diagnosis.nodes import (accumulate, collect, diagnose, handle_error, retrieve,
                                             should_continue_after_collect, should_continue_after_diagnose,
                                             should_continue_after_store, store)
from pipelines.flink_diagnosis.state import DiagnosisState, FlinkContext, FlinkDiagnosisInput, FlinkDiagnosisOutput


def build_graph() -> StateGraph:
    graph = StateGraph(DiagnosisState, context_schema=FlinkContext, input_schema=FlinkDiagnosisInput,
                       output_schema=FlinkDiagnosisOutput)
    graph.add_node("collect", collect)
    graph.add_node("retrieve", retrieve)
    graph.add_node("diagnose", diagnose)
    graph.add_node("store", store)
    graph.add_node("accumulate", accumulate)
    graph.add_node("handle_error", handle_error)

    graph.add_edge(START, "collect")
    graph.add_conditional_edges("collect", should_continue_after_collect, ["handle_error", "retrieve", END])
    graph.add_edge("retrieve", "diagnose")
    graph.add_conditional_edges("diagnose", should_continue_after_diagnose, ["diagnose", "handle_error", "store"])
    graph.add_conditional_edges("store", should_continue_after_store, ["handle_error", "accumulate"])
    graph.add_edge("accumulate", END)
    graph.add_edge("handle_error", END)
    return graph
