"""Pure chart and table functions of the dashboard, from real step records."""

from dashboard.studio.evolution import evolution_frame, styled_evolution
from dashboard.studio.metrics_charts import (counter_frame, make_counter_figure, make_latency_figure,
                                                 make_timeline_figure, make_usage_figure, task_frame)
from dashboard.studio.state_panel import changes_frame, state_frame
from pipelines.core.trace.records import evolution_matrix
from tests.conftest import scenario
from tests.support.driving import DISSATISFIED_SEED, SATISFIED, run_with_answers


def seed_records(studio, spec, settings):
    session = studio.new_session(spec, scenario("seed_example")["input"], settings)
    run_with_answers(session, [DISSATISFIED_SEED, SATISFIED])
    return session, session.records()


def test_task_frame_has_one_row_per_node_run(studio, spec, settings):
    _, records = seed_records(studio, spec, settings)
    frame = task_frame(records)
    assert "__input__" not in set(frame["node"])
    assert (frame["node"] == "user_profiler").sum() == 2 and (frame["duration_ms"] > 0).all()
    parallel = frame[frame["node"].isin(["user_profiler", "industry_researcher", "job_analyzer"])]
    assert parallel.groupby("step").size().tolist() == [3, 3]


def test_figures_have_one_bar_per_node_and_one_row_per_parallel_task(studio, spec, settings):
    session, records = seed_records(studio, spec, settings)
    frame = task_frame(records)
    latency = make_latency_figure(frame)
    assert set(latency.data[0].y) == set(frame["node"])
    timeline = make_timeline_figure(frame)
    rows = {y for trace in timeline.data for y in trace.y}
    assert {"user_profiler", "industry_researcher", "job_analyzer"} <= rows
    usage = make_usage_figure(frame)
    assert {t.name for t in usage.data} == {"calls", "input_tokens", "output_tokens"}
    counters = counter_frame(records, {"iteration_count": 3, "plan_revision_count": 3})
    figure = make_counter_figure(counters)
    assert max(figure.data[0].y) == 1 or max(figure.data[1].y) == 1


def test_empty_frames_draw_an_explanation_not_an_error():
    import pandas as pd
    for make in (make_latency_figure, make_timeline_figure, make_usage_figure):
        figure = make(task_frame([]))
        assert figure.layout.annotations[0].text
    assert make_counter_figure(pd.DataFrame(columns=["step", "counter", "value", "limit"])).layout.annotations


def test_evolution_frame_and_style(studio, spec, settings):
    _, records = seed_records(studio, spec, settings)
    matrix = evolution_matrix(records, spec.field_order)
    frame = evolution_frame(matrix)
    assert frame.loc["planning_strategy", "2 planner"] == "set"
    assert frame.loc["agent_tasks", "3 supervisor"] == "appended"
    html = styled_evolution(frame).to_html()
    assert "#bbf7d0" in html  # the colour of "set"


def test_state_and_changes_tables(studio, spec, settings):
    session, records = seed_records(studio, spec, settings)
    state = state_frame(session.values(), spec.field_order)
    assert state["field"].tolist()[:3] == ["session_id", "current_stage", "user_profile"]
    reporter = next(r for r in records if r.nodes == ["reporter"])
    changes = changes_frame(reporter)
    assert set(changes["field"]) >= {"integrated_report", "requires_user_input", "current_stage"}
    assert changes.set_index("field").loc["integrated_report", "change"] == "● set"
