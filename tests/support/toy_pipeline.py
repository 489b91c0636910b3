"""A small workflow for runtime tests: a parallel pair, a typed interrupt, a loop with a counter, a failing switch."""

from __future__ import annotations

import operator
import threading
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import BaseModel

from pipelines.core.spec import Counter, InterruptSpec, PipelineSpec, RuntimeDeps, WorkflowEntry


class Approval(BaseModel):
    decision: Literal["approve", "revise"]
    note: str = ""


class ToyState(TypedDict, total=False):
    topic: str
    log: Annotated[list[str], operator.add]
    rounds: int
    max_rounds: int
    decision: str | None


@dataclass
class ToyContext:
    deps: RuntimeDeps
    fail_in: set[str] = field(default_factory=set)
    runs: list[str] = field(default_factory=list)
    pause_s: float = 0.0  # added to every plain node's own pause: a slow model, for background runs
    gate: threading.Event | None = None  # when given, plain nodes wait for it: a model the test lets answer


def _node(name: str, pause: float = 0.0):
    def run(state: ToyState, runtime: Runtime[ToyContext]) -> dict[str, Any]:
        runtime.context.runs.append(name)
        if name in runtime.context.fail_in:
            raise RuntimeError(f"{name} exploded")
        gate = runtime.context.gate
        if gate is not None and not gate.wait(60):
            raise TimeoutError(f"{name}: the test never opened the gate")
        time.sleep(pause + runtime.context.pause_s)
        return {"log": [name]}

    run.__name__ = name
    return run


def review(state: ToyState, runtime: Runtime[ToyContext]) -> dict[str, Any]:
    runtime.context.runs.append("review")
    answer = interrupt({"kind": "approval", "question": f"Approve {state['topic']}?"}, response_schema=Approval)
    rounds = state.get("rounds", 0) + (1 if answer.decision == "revise" else 0)
    return {"decision": answer.decision, "rounds": rounds, "log": [f"review:{answer.decision}"]}


def after_review(state: ToyState) -> str:
    if state.get("decision") == "revise" and state.get("rounds", 0) < state.get("max_rounds", 2):
        return "draft"
    return "publish"


def build() -> StateGraph:
    graph = StateGraph(ToyState, context_schema=ToyContext)
    graph.add_node("draft", _node("draft"))
    graph.add_node("fast", _node("fast", 0.03))
    graph.add_node("slow", _node("slow", 0.09))
    graph.add_node("review", review)
    graph.add_node("publish", _node("publish"))
    graph.add_edge(START, "draft")
    graph.add_edge("draft", "fast")
    graph.add_edge("draft", "slow")
    graph.add_edge(["fast", "slow"], "review")
    graph.add_conditional_edges("review", after_review, ["draft", "publish"])
    graph.add_edge("publish", END)
    return graph


TOY_ENTRY = WorkflowEntry("toy", "Toy", "-", "Testers", "test workflow", package=None)


def make_toy_spec(context: ToyContext | None = None) -> PipelineSpec:
    """A spec whose context object the test keeps, to switch failures on and see which nodes ran."""
    shared = context

    def make_context(deps: RuntimeDeps) -> ToyContext:
        nonlocal shared
        if shared is None:
            shared = ToyContext(deps=deps)
        shared.deps = deps
        return shared

    def make_input(raw, thread_id):
        return {"topic": raw.get("topic", "toys"), "log": [], "rounds": 0, "max_rounds": raw.get("max_rounds", 2),
                "decision": None}

    return PipelineSpec(
        id="toy", entry=TOY_ENTRY, build=build, make_context=make_context,
        make_input=make_input, report=lambda state: f"# Toy\n\n{', '.join(state.get('log', []))}",
        counters=(Counter("rounds", "Revision rounds", limit_field="max_rounds", loop_edge=("review", "draft")),),
        interrupts=(InterruptSpec("approval", "Approve the draft", Approval),),
        field_order=("topic", "log", "rounds", "max_rounds", "decision"))
