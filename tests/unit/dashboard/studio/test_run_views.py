"""The Runs page's pure parts: the runs frame, durations, the comparison tables and figures, from real runs."""

import pandas as pd
import pytest

from dashboard.studio.run_compare import (diff_frame, make_node_timing_figure, make_node_usage_figure,
                                              nodes_frame, nodes_table)
from dashboard.studio.run_table import format_duration, runs_frame, table_key
from pipelines.core.trace.compare import compare_sessions
from tests.conftest import scenario
from tests.support.driving import DISSATISFIED_SEED, SATISFIED, run_with_answers


@pytest.mark.parametrize("ms, shown", [(None, "—"), (63.4, "63 ms"), (1500, "1.5 s"), (192_000, "3 min 12 s"),
                                       (7_500_000, "2 h 5 min"), (3 * 86_400_000, "3 d 0 h")])
def test_durations_read_like_a_person_would_say_them(ms, shown):
    assert format_duration(ms) == shown


@pytest.fixture
def comparison(studio, settings, spec):
    a = studio.new_session(spec, scenario("seed_example")["input"], settings, title="asked again")
    run_with_answers(a, [DISSATISFIED_SEED, SATISFIED, SATISFIED])
    b = studio.new_session(spec, scenario("clear_goal")["input"], settings, title="clear goal")
    run_with_answers(b, [SATISFIED])
    return compare_sessions(a, b)


def test_runs_frame_and_its_table_key(studio, comparison):
    summaries = studio.runs.thread_summaries()
    frame = runs_frame(summaries)
    assert list(frame["title"]) == ["clear goal", "asked again"] and set(frame["workflow"]) == {"CareerNavigator"}
    assert frame["started"].dtype.kind == "M"
    # each run's duration as format_duration writes it, whatever the machine's speed made it
    assert list(frame["duration"]) == [format_duration(s.duration_ms) for s in summaries]
    assert "—" not in list(frame["duration"])  # both runs have a duration
    assert table_key(frame) == table_key(runs_frame(summaries)) != table_key(frame.iloc[:1])


def test_node_tables_put_both_runs_side_by_side(comparison):
    df = nodes_frame(comparison)
    table = nodes_table(df).set_index("node")
    # clear_goal skips the analysts (a clear goal goes straight to decomposition): 0 runs there, no mean.
    assert table.loc["reporter", "A runs"] == 2 and table.loc["reporter", "B runs"] == 0
    assert pd.isna(table.loc["reporter", "B mean ms"]) and table.loc["reporter", "B total ms"] == 0
    assert table.loc["coordinator", "B calls"] == 1
    assert list(table.columns[:3]) == ["A runs", "A mean ms", "A total ms"]
    assert diff_frame(comparison).set_index("field").loc["iteration_count", "kind"] == "different"


def test_node_figures_group_a_and_b_and_leave_out_measures_that_are_all_zero(comparison):
    df = nodes_frame(comparison)
    timing = make_node_timing_figure(df)
    assert [t.name for t in timing.data] == ["A", "B"] and timing.layout.barmode == "group"
    usage = make_node_usage_figure(df)
    assert {t.name for t in usage.data} == {"A", "B"} and len(usage.data) == 2  # calls only: offline has no tokens
    with_tokens = df.assign(input_tokens=df["calls"] * 100)
    assert len(make_node_usage_figure(with_tokens).data) == 4
    empty = nodes_frame(comparison).iloc[:0]
    assert make_node_usage_figure(empty).layout.annotations[0].text == "Neither run called a model"
