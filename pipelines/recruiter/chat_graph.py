"""The chat subgraph (seed §3): build_context → input_guard → call_llm → parse_response → output_guard →
process_action → finalize; a blocked input or output goes straight to finalize."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from pipelines.recruiter.nodes.chat import (
    build_context, call_llm, finalize, input_guard, output_guard, parse_response, process_action,
    route_after_input_guard, route_after_output_guard,
)
from pipelines.recruiter.state import ChatInput, ChatOutput, ChatState, RecruiterContext


def build_chat_graph() -> StateGraph:
    graph = StateGraph(ChatState, context_schema=RecruiterContext, input_schema=ChatInput, output_schema=ChatOutput)
    graph.add_node("build_context", build_context)
    graph.add_node("input_guard", input_guard)
    graph.add_node("call_llm", call_llm)
    graph.add_node("parse_response", parse_response)
    graph.add_node("output_guard", output_guard)
    graph.add_node("process_action", process_action)
    graph.add_node("finalize", finalize)
    graph.add_edge(START, "build_context")
    graph.add_edge("build_context", "input_guard")
    graph.add_conditional_edges("input_guard", route_after_input_guard, ["call_llm", "finalize"])
    graph.add_edge("call_llm", "parse_response")
    graph.add_edge("parse_response", "output_guard")
    graph.add_conditional_edges("output_guard", route_after_output_guard, ["process_action", "finalize"])
    graph.add_edge("process_action", "finalize")
    graph.add_edge("finalize", END)
    return graph


# Compiled once per process and added to the router as a node: the studio steps into it node by node, and it
# runs on the router's checkpointer.
CHAT_GRAPH: CompiledStateGraph = build_chat_graph().compile(name="chat")
