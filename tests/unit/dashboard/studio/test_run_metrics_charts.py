"""The Metrics page's charts are pure functions of the run-metrics frames: what each draws, and its empty case."""

import pandas as pd
import pytest

from dashboard.studio.run_metrics_charts import (gantt_lanes, make_cost_figure, make_iterations_figure,
                                                 make_latency_distribution_figure, make_outcome_figure,
                                                 make_run_gantt_figure, make_usage_by_provider_figure)
from pipelines.core.trace.run_metrics import ITERATION_COLUMNS, TASK_COLUMNS, THREAD_COLUMNS

T0 = pd.Timestamp("2026-11-20 09:00:00")


def task(thread, workflow, node, start_ms, duration_ms, provider="offline engine", calls=1, tokens=(0, 0),
         cost=0.0, unpriced=0, step=1, status="completed", model="offline-engine"):
    start = T0 + pd.to_timedelta(start_ms, unit="ms")
    return {"thread_id": thread, "workflow": workflow, "provider": provider, "node": node, "step": step,
            "status": status, "start": start, "end": start + pd.to_timedelta(duration_ms, unit="ms"),
            "duration_ms": duration_ms, "calls": calls, "input_tokens": tokens[0], "output_tokens": tokens[1],
            "model": model, "cost_usd": cost, "unpriced_calls": unpriced}


def tasks():
    return pd.DataFrame([
        task("a", "career_navigator", "planner", 0, 2.0),
        task("a", "career_navigator", "planner", 50, 4.0),
        task("b", "career_navigator", "planner", 0, 900.0, provider="openai · gpt-4o-mini", tokens=(1000, 200),
             cost=(1000 * 0.15 + 200 * 0.6) / 1e6, model="gpt-4o-mini"),
        task("c", "flink_diagnosis", "diagnose", 0, 1500.0, provider="openai · mystery", calls=2, tokens=(200, 80),
             cost=None, unpriced=2, model="mystery"),
        task("c", "flink_diagnosis", "store", 1600, 3.0, calls=0),
    ], columns=TASK_COLUMNS)


def test_latency_has_a_box_per_node_coloured_by_workflow_with_every_run():
    figure = make_latency_distribution_figure(tasks())
    traces = {trace.name: trace for trace in figure.data}
    assert set(traces) == {"career_navigator", "flink_diagnosis"}
    career = traces["career_navigator"]
    assert sorted(career.x) == [2.0, 4.0, 900.0] and set(career.y) == {"planner"}
    assert set(traces["flink_diagnosis"].y) == {"diagnose", "store"}
    assert figure.layout.xaxis.type == "log"  # 2 ms next to 1.5 s


def test_usage_stacks_calls_and_tokens_per_node_by_provider():
    figure = make_usage_by_provider_figure(tasks())
    bars = {(trace.name, trace.xaxis, x): y for trace in figure.data for x, y in zip(trace.x, trace.y)}
    calls_axis = next(t.xaxis for t in figure.data if t.name == "offline engine" and 2 in list(t.y))
    assert bars[("offline engine", calls_axis, "planner")] == 2
    assert bars[("openai · mystery", calls_axis, "diagnose")] == 2
    tokens_axis = next(t.xaxis for t in figure.data if t.xaxis != calls_axis)
    assert bars[("openai · gpt-4o-mini", tokens_axis, "planner")] == 1200
    assert "store" not in {x for trace in figure.data for x in trace.x}  # no model call, no bar
    assert {a.text for a in figure.layout.annotations} == {"model calls", "tokens"}


def test_cost_draws_priced_bars_and_marks_unpriced_calls_instead_of_zero():
    figure = make_cost_figure(tasks())
    priced = {trace.name: dict(zip(trace.x, trace.y)) for trace in figure.data if trace.type == "bar"}
    assert priced["openai · gpt-4o-mini"]["planner"] == pytest.approx(0.00027)
    assert "diagnose" not in {x for bars in priced.values() for x in bars}
    (marker,) = [trace for trace in figure.data if trace.name == "not priced"]
    assert list(marker.x) == ["diagnose"] and marker.customdata[0][1] == 2
    assert figure.layout.yaxis.tickformat == "$,.5f"  # enough digits to read $0.00027
    offline_only = tasks()[tasks()["provider"] == "offline engine"]
    assert "USD 0" in make_cost_figure(offline_only).layout.annotations[0].text


def test_iterations_put_each_run_against_its_limit():
    loops = pd.DataFrame([
        {"thread_id": "a", "workflow": "career_navigator", "counter": "iteration_count", "label": "Report iterations",
         "value": 1, "limit": 3},
        {"thread_id": "b", "workflow": "career_navigator", "counter": "iteration_count", "label": "Report iterations",
         "value": 2, "limit": 2},
        {"thread_id": "c", "workflow": "other", "counter": "turns", "label": "turns", "value": 4, "limit": None},
    ], columns=ITERATION_COLUMNS)
    figure = make_iterations_figure(loops)
    (points,) = figure.data
    assert sorted(points.x) == pytest.approx([100 / 3, 100.0])
    assert set(points.y) == {"career_navigator · Report iterations"}
    assert sorted(row[0] for row in points.customdata) == ["1/3", "2/2"]
    assert figure.layout.shapes[0].x0 == 100 and figure.layout.annotations[0].text == "limit"


def test_outcomes_give_each_workflow_its_status_shares_and_counts():
    runs = pd.DataFrame([{"thread_id": str(i), "workflow": w, "status": s} for i, (w, s) in enumerate([
        ("career_navigator", "completed"), ("career_navigator", "completed"), ("career_navigator", "completed"),
        ("career_navigator", "failed"), ("ican", "waiting")])], columns=THREAD_COLUMNS)
    figure = make_outcome_figure(runs)
    bars = {(trace.name, y): (x, text) for trace in figure.data for x, y, text in zip(trace.x, trace.y, trace.text)}
    assert bars[("completed", "career_navigator")] == (75.0, "3 (75%)")
    assert bars[("failed", "career_navigator")] == (25.0, "1 (25%)")
    assert bars[("waiting", "ican")] == (100.0, "1 (100%)")
    assert [trace.name for trace in figure.data] == ["completed", "waiting", "failed"]



def test_a_run_timeline_gives_overlapping_copies_of_a_node_their_own_rows():
    run = pd.DataFrame([task("a", "w", "fetch", 0, 100.0), task("a", "w", "fetch", 10, 100.0),
                        task("a", "w", "fetch", 20, 100.0), task("a", "w", "fetch", 150, 10.0),
                        task("a", "w", "merge", 200, 5.0)], columns=TASK_COLUMNS)
    assert list(gantt_lanes(run)["node"]) == ["fetch", "fetch #2", "fetch #3", "fetch", "merge"]
    figure = make_run_gantt_figure(run)
    assert {y for trace in figure.data for y in trace.y} == {"fetch", "fetch #2", "fetch #3", "merge"}


@pytest.mark.parametrize("make, columns", [
    (make_latency_distribution_figure, TASK_COLUMNS), (make_usage_by_provider_figure, TASK_COLUMNS),
    (make_cost_figure, TASK_COLUMNS), (make_run_gantt_figure, TASK_COLUMNS),
    (make_iterations_figure, ITERATION_COLUMNS),
    (make_outcome_figure, THREAD_COLUMNS)])
def test_an_empty_frame_draws_a_message_not_an_error(make, columns):
    figure = make(pd.DataFrame(columns=columns))
    assert not figure.data and figure.layout.annotations[0].text


def test_a_timeline_collapses_the_waits_between_steps_so_short_tasks_stay_visible():
    run = pd.DataFrame([task("a", "w", "draft", 0, 4.0), task("a", "w", "review", 5, 2.0),
                        task("a", "w", "review", 7 + 180_000, 3.0),  # the user answered three minutes later
                        task("a", "w", "publish", 7 + 180_000 + 4, 1.0)], columns=TASK_COLUMNS)
    figure = make_run_gantt_figure(run)
    bars = [(base, width) for trace in figure.data for base, width in zip(trace.base, trace.x)]
    axis = max(base + width for base, width in bars)
    assert axis < 20  # ms of work, not three minutes of waiting
    assert min(width for _, width in bars) >= axis * 0.004
    assert any("waited 3 min 0 s" in (a.text or "") for a in figure.layout.annotations)
