"""The wiring the straight-line agents share: their nodes one after the other, from START to END."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.graph import END, START, StateGraph

from pipelines.recruiter.state import RecruiterContext


def linear_agent(state: type, input_schema: type, output_schema: type,
                 *nodes: tuple[str, Callable[..., Any]]) -> StateGraph:
    graph = StateGraph(state, context_schema=RecruiterContext, input_schema=input_schema, output_schema=output_schema)
    for name, node in nodes:
        graph.add_node(name, node)
    names = [START, *(name for name, _ in nodes), END]
    for before, after in zip(names, names[1:], strict=False):
        graph.add_edge(before, after)
    return graph
