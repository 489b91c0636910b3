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
    # A model the test holds: with a gate, every plain node waits until the test lets one through (`let_through`),
    # so a test knows a node is under way without guessing how fast the machine is.
    gate: threading.Semaphore | None = None
    entered: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    # With a barrier, the parallel pair (fast, slow) each wait for the other: they can only pass it side by side.
    pair_barrier: threading.Barrier | None = None

    opened: threading.Event = field(default_factory=threading.Event)

    def hold(self) -> None:
        """From now on, every plain node waits for the test to let it through."""
        self.gate = threading.Semaphore(0)
        self.opened.clear()

    def let_through(self, count: int = 1) -> None:
        assert self.gate is not None
        self.gate.release(count)

    def open(self) -> None:
        """Let every held node through, now and until the next `hold`."""
        self.opened.set()

    def wait_entered(self, timeout: float = 30.0) -> None:
        """Wait until a held node has started (and is waiting at the gate)."""
        assert self.entered.acquire(timeout=timeout), "no node started"


def _node(name: str, pause: float = 0.0):
    def run(state: ToyState, runtime: Runtime[ToyContext]) -> dict[str, Any]:
        context = runtime.context
        context.runs.append(name)
        if name in context.fail_in:
            raise RuntimeError(f"{name} exploded")
        if context.pair_barrier is not None and name in ("fast", "slow"):
            context.pair_barrier.wait(timeout=60)
        if context.gate is not None:
            context.entered.release()
            deadline = time.monotonic() + 60
            while not context.opened.is_set() and not context.gate.acquire(timeout=0.02):
                assert time.monotonic() < deadline, f"{name} was never let through"
        time.sleep(pause + context.pause_s)
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


# The context of the toy workflow's pages in AppTest (which run in the test's process): the test holds its nodes.
_PAGE_CONTEXT = ToyContext(deps=None)


def page_context(fresh: bool = False) -> ToyContext:
    """The toy page's context; `fresh` starts a new one (each test its own held model)."""
    global _PAGE_CONTEXT
    if fresh:
        _PAGE_CONTEXT = ToyContext(deps=None)
    return _PAGE_CONTEXT
