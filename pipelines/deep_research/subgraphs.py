"""The three agents the central agent delegates to, each a compiled subgraph the studio steps into."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from pipelines.deep_research.nodes.analyst import compare_findings, gather, record_analysis
from pipelines.deep_research.nodes.coder import interpret, run_code, write_code
from pipelines.deep_research.nodes.researcher import extract_findings, record, search
from pipelines.deep_research.state import AgentInput, AgentOutput, AgentState, ResearchContext


def _chain(name: str, *nodes) -> CompiledStateGraph:
    graph = StateGraph(AgentState, context_schema=ResearchContext, input_schema=AgentInput, output_schema=AgentOutput)
    previous = START
    for node in nodes:
        graph.add_node(node.__name__, node)
        graph.add_edge(previous, node.__name__)
        previous = node.__name__
    graph.add_edge(previous, END)
    return graph.compile(name=name)


# Compiled once per process; added as nodes of the workflow they take its checkpointer and are stepped into.
RESEARCHER_GRAPH = _chain("researcher", search, extract_findings, record)
CODER_GRAPH = _chain("coder", write_code, run_code, interpret)
ANALYST_GRAPH = _chain("analyst", gather, compare_findings, record_analysis)
