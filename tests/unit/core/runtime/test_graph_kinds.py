"""Session steps other graph kinds: a compiled subgraph added directly as a node, and `async def` nodes."""

import asyncio

import pytest

from pipelines.core.runtime.studio import Studio
from tests.support.toy_graphs import INNER_GRAPH, GraphsContext, make_async_spec, make_nested_spec


@pytest.fixture
def nested(studio, settings):
    context = GraphsContext(deps=None)
    session = studio.new_session(make_nested_spec(context), {"topic": "kites"}, settings)
    return session, context


def test_a_compiled_subgraph_node_is_stepped_one_inner_node_at_a_time(nested):
    session, context = nested
    assert session.next_nodes() == ("plan",)
    assert session.step().record.nodes == ["plan"]
    assert session.next_nodes() == ("inner",)

    gather = session.step()
    assert context.runs == ["plan", "inner:gather"]
    assert gather.record.status == "substep" and gather.record.checkpoint_id is None
    (task,) = gather.record.tasks
    assert task.node == "gather" and task.namespace.startswith("inner:") and task.graph_node == "inner:gather"
    assert gather.record.label.endswith("inner:gather") and "inner:gather → notes" in gather.record.changes
    assert session.status() == "ready" and session.next_nodes() == ("inner:ask",)

    asked = session.step()  # the interrupt() inside the subgraph
    assert asked.status == "waiting" and session.status() == "waiting"
    (pending,) = session.pending_interrupts()
    assert pending.kind == "answer" and pending.value["question"] == "What about kites?"
    assert pending.spec.schema.__name__ == "Answer"

    answered = session.resume({"answer": "yes"})
    assert answered.record.status == "substep" and [t.node for t in answered.record.tasks] == ["ask"]
    assert session.next_nodes() == ("inner:summarize",)
    summarized = session.step()
    assert summarized.record.status == "substep" and summarized.record.tasks[0].node == "summarize"

    finished = session.step()  # the subgraph is done: its node completes in the parent
    assert finished.record.status == "completed" and finished.record.nodes == ["inner"]
    assert finished.record.changes["notes"] in ("set", "appended", "changed") and finished.next == ("publish",)
    assert session.values()["notes"] == ["gather:kites", "ask:yes", "summarize:kites"]
    assert session.values()["answer"] == "yes"

    session.step()
    assert session.status() == "completed" and session.values()["log"] == ["plan", "publish"]
    assert context.runs == ["plan", "inner:gather", "inner:ask", "inner:ask", "inner:summarize", "publish"]
    labels = [r.label for r in session.records()]
    assert [label.split(" ", 1)[1] for label in labels] == [
        "input", "plan", "inner:gather", "inner", "inner:ask", "inner:summarize", "inner", "publish"]
    assert session.records()[3].status == "interrupted"  # the subgraph's interrupt(), on its parent node


def test_a_compiled_subgraph_node_runs_to_the_end_and_to_inner_breakpoints(studio, settings):
    spec = make_nested_spec()
    session = studio.new_session(spec, {"topic": "boats"}, settings, breakpoints=["inner:ask"])
    session.run("interrupt")
    assert session.next_nodes() == ("inner:ask",) and session.status() == "ready"
    assert session.records()[-1].nodes == ["inner:gather"]
    session.run("end")
    assert session.status() == "waiting"
    session.resume({"answer": "no"})
    session.run("end")
    assert session.status() == "completed"
    assert session.values()["notes"] == ["gather:boats", "ask:no", "summarize:boats"]
    assert session.records()[-1].nodes == ["publish"]


def test_a_plain_invoke_runs_the_compiled_subgraph_straight_through(studio, settings):
    spec = make_nested_spec()
    graph = studio.compiled(spec)
    config = {"configurable": {"thread_id": "plain"}}
    context = spec.make_context(None)
    result = graph.invoke(spec.make_input({"topic": "x"}, "plain"), config, context=context)
    assert result["__interrupt__"][0].value["kind"] == "answer"
    from langgraph.types import Command
    result = graph.invoke(Command(resume={"answer": "ok"}), config, context=context)
    assert result["notes"] == ["gather:x", "ask:ok", "summarize:x"] and result["log"] == ["plan", "publish"]
    assert not INNER_GRAPH.interrupt_after_nodes  # the library's own subgraph object is untouched
    assert type(INNER_GRAPH).__name__ == "CompiledStateGraph"


@pytest.fixture(params=["sqlite", "memory"])
def any_studio(request, settings):
    studio = Studio.from_settings(settings) if request.param == "sqlite" else Studio.in_memory()
    yield studio
    studio.close()


def test_async_nodes_are_stepped_through_the_sync_api_with_timings(any_studio, settings):
    context = GraphsContext(deps=None)
    session = any_studio.new_session(make_async_spec(context), {"topic": "kites"}, settings)
    fetched = session.step()
    assert fetched.record.nodes == ["fetch"] and sorted(fetched.next) == ["fast_async", "slow_async", "sync_sibling"]
    parallel = session.step().record
    assert parallel.nodes == ["fast_async", "slow_async", "sync_sibling"] and parallel.status == "completed"
    tasks = {t.node: t for t in parallel.tasks}
    assert all(t.duration_ms > 0 for t in tasks.values())
    # Each task's timed span overlaps every other's: they ran side by side, each timed on its own.
    spans = [(t.started_at, t.started_at + t.duration_ms / 1000) for t in tasks.values()]
    assert all(a_start <= b_end and b_start <= a_end for a_start, a_end in spans for b_start, b_end in spans)
    assert parallel.duration_ms >= max(t.duration_ms for t in tasks.values())
    assert parallel.changes == {"log": "appended"}
    last = session.step()
    assert last.record.nodes == ["join"] and session.status() == "completed"
    assert session.values()["log"][:1] == ["fetch"] and session.values()["log"][-1] == "join"
    assert sorted(context.runs) == sorted(["fetch", "slow_async", "fast_async", "sync_sibling", "join"])
    assert [r.nodes for r in session.records()][0] == ["__input__"]


def test_async_nodes_run_to_the_end_and_rewind(studio, settings):
    session = studio.new_session(make_async_spec(), {"topic": "kites"}, settings)
    outcomes = session.run("end")
    assert [o.record.nodes for o in outcomes][-1] == ["join"] and session.status() == "completed"
    after_fetch = next(c for c in session.history() if c.produced_by == ["fetch"])
    session.rewind(after_fetch.checkpoint_id)
    assert session.step().record.nodes == ["fast_async", "slow_async", "sync_sibling"]
    assert session.run("end")[-1].status == "completed"


def test_async_nodes_can_be_stepped_from_code_that_runs_an_event_loop(studio, settings):
    session = studio.new_session(make_async_spec(), {"topic": "kites"}, settings)

    async def from_async_code():
        return session.step()

    assert asyncio.run(from_async_code()).record.nodes == ["fetch"]
