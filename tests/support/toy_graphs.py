"""Two more graph kinds for runtime tests, modelled on toy_pipeline.make_toy_spec:

- nested: a compiled subgraph added directly as a node (`add_node("inner", compiled)`, the way
  open_deep_research builds them), with an interrupt() inside it;
- async: `async def` nodes, one of them beside parallel siblings (one async, one sync).
"""

from __future__ import annotations

import asyncio
import operator
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import BaseModel

from pipelines.core.spec import InterruptSpec, PipelineSpec, RuntimeDeps, WorkflowEntry


@dataclass
class GraphsContext:
    deps: RuntimeDeps
    runs: list[str] = field(default_factory=list)


class Answer(BaseModel):
    answer: str


def _spec(spec_id: str, build, make_input, context: GraphsContext | None, **extra: Any) -> PipelineSpec:
    shared = context

    def make_context(deps: RuntimeDeps) -> GraphsContext:
        nonlocal shared
        if shared is None:
            shared = GraphsContext(deps=deps)
        shared.deps = deps
        return shared

    entry = WorkflowEntry(spec_id, spec_id.title(), "-", "Testers", "test workflow", package=None)
    return PipelineSpec(id=spec_id, entry=entry, build=build, make_context=make_context,
                        make_input=lambda raw, thread_id: make_input(raw),
                        report=lambda state: f"# {spec_id}\n\n{', '.join(state.get('log', []))}", **extra)


# a compiled subgraph as a node ----------------------------------------------------------------------
class InnerState(TypedDict, total=False):
    topic: str
    notes: Annotated[list[str], operator.add]
    answer: str


class NestedState(TypedDict, total=False):
    topic: str
    log: Annotated[list[str], operator.add]
    notes: list[str]  # written whole by the subgraph (its own reducer appends inside it)
    answer: str


def _inner(name: str):
    def run(state: InnerState, runtime: Runtime[GraphsContext]) -> dict[str, Any]:
        runtime.context.runs.append(f"inner:{name}")
        return {"notes": [f"{name}:{state['topic']}"]}

    run.__name__ = name
    return run


def ask(state: InnerState, runtime: Runtime[GraphsContext]) -> dict[str, Any]:
    runtime.context.runs.append("inner:ask")
    answer = interrupt({"kind": "answer", "question": f"What about {state['topic']}?"})
    return {"answer": answer["answer"], "notes": [f"ask:{answer['answer']}"]}


def build_inner() -> StateGraph:
    graph = StateGraph(InnerState, context_schema=GraphsContext)
    graph.add_node("gather", _inner("gather"))
    graph.add_node("ask", ask)
    graph.add_node("summarize", _inner("summarize"))
    graph.add_edge(START, "gather")
    graph.add_edge("gather", "ask")
    graph.add_edge("ask", "summarize")
    graph.add_edge("summarize", END)
    return graph


INNER_GRAPH = build_inner().compile(name="inner")  # compiled once, as a library's subgraph would be


def _outer(name: str):
    def run(state: NestedState, runtime: Runtime[GraphsContext]) -> dict[str, Any]:
        runtime.context.runs.append(name)
        return {"log": [name]}

    run.__name__ = name
    return run


def build_nested() -> StateGraph:
    graph = StateGraph(NestedState, context_schema=GraphsContext)
    graph.add_node("plan", _outer("plan"))
    graph.add_node("inner", INNER_GRAPH)  # the compiled graph itself is the node
    graph.add_node("publish", _outer("publish"))
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "inner")
    graph.add_edge("inner", "publish")
    graph.add_edge("publish", END)
    return graph


def make_nested_spec(context: GraphsContext | None = None) -> PipelineSpec:
    return _spec("toy_nested", build_nested, lambda raw: {"topic": raw.get("topic", "kites"), "log": [],
                                                          "notes": []}, context,
                 interrupts=(InterruptSpec("answer", "Answer the inner question", Answer),),
                 field_order=("topic", "log", "notes", "answer"))


# async nodes ----------------------------------------------------------------------------------------
class AsyncState(TypedDict, total=False):
    topic: str
    log: Annotated[list[str], operator.add]


def _async_node(name: str, pause: float):
    async def run(state: AsyncState, runtime: Runtime[GraphsContext]) -> dict[str, Any]:
        runtime.context.runs.append(name)
        await asyncio.sleep(pause)
        return {"log": [name]}

    run.__name__ = name
    return run


def sync_sibling(state: AsyncState, runtime: Runtime[GraphsContext]) -> dict[str, Any]:
    runtime.context.runs.append("sync_sibling")
    time.sleep(0.03)
    return {"log": ["sync_sibling"]}


def build_async() -> StateGraph:
    graph = StateGraph(AsyncState, context_schema=GraphsContext)
    graph.add_node("fetch", _async_node("fetch", 0.01))
    graph.add_node("slow_async", _async_node("slow_async", 0.09))
    graph.add_node("fast_async", _async_node("fast_async", 0.03))
    graph.add_node("sync_sibling", sync_sibling)
    graph.add_node("join", _async_node("join", 0.0))
    graph.add_edge(START, "fetch")
    for sibling in ("slow_async", "fast_async", "sync_sibling"):
        graph.add_edge("fetch", sibling)
    graph.add_edge(["slow_async", "fast_async", "sync_sibling"], "join")
    graph.add_edge("join", END)
    return graph


def make_async_spec(context: GraphsContext | None = None) -> PipelineSpec:
    return _spec("toy_async", build_async, lambda raw: {"topic": raw.get("topic", "kites"), "log": []}, context,
                 field_order=("topic", "log"))
