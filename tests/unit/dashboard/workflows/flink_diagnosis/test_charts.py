"""The Flink result charts are pure functions of a data frame."""

import datetime as dt

import pandas as pd

from dashboard.workflows.flink_diagnosis.charts import (make_category_figure, make_confidence_figure, make_status_figure,
                                               make_throughput_figure, results_frame, throughput_bucket)

T0 = dt.datetime(2026, 11, 20, 3, 0, tzinfo=dt.UTC)


def rows():
    out = []
    for i, (category, priority, confidence, status) in enumerate([
            ("oom_heap", "high", 0.9, "completed"), ("oom_heap", "high", 0.7, "completed"),
            ("checkpoint_timeout", "high", 0.85, "completed"), ("unknown", "medium", 0.1, "completed"),
            (None, None, None, "failed"), (None, None, None, "pending")]):
        diagnosis = {"category": category, "priority": priority, "confidence": confidence,
                     "root_cause": "r"} if category else None
        out.append({"exception_id": i + 1, "job_id": f"j{i}", "status": status, "diagnosis": diagnosis,
                    "error": "boom" if status == "failed" else None,
                    "error_message": f"2026-11-20 03:00:00,000 WARN  a.b.C [] - line {i}\n\tat x.Y(Z.java:1)",
                    "created_at": T0, "updated_at": T0 + dt.timedelta(minutes=i)})
    return out


def test_results_frame_flattens_diagnoses_and_strips_log_prefixes():
    frame = results_frame(rows())
    assert list(frame["category_label"][:4]) == ["Heap out of memory", "Heap out of memory", "Checkpoint timeout",
                                                 "Unknown"]
    assert frame["confidence"].isna().sum() == 2 and frame.loc[4, "root_cause"] == "boom"
    assert frame.loc[0, "headline"] == "line 0"


def test_category_and_confidence_figures_count_what_was_diagnosed():
    frame = results_frame(rows())
    bars = make_category_figure(frame)
    totals = {}
    for trace in bars.data:
        for label, count in zip(trace.y, trace.x):
            totals[label] = totals.get(label, 0) + count
    assert totals == {"Heap out of memory": 2, "Checkpoint timeout": 1, "Unknown": 1}
    histogram = make_confidence_figure(frame)
    assert sum(len(trace.x) for trace in histogram.data) == 4


def test_throughput_buckets_follow_the_time_span():
    assert throughput_bucket(pd.Timedelta(minutes=2)) == ("10s", "10 seconds")
    assert throughput_bucket(pd.Timedelta(hours=1)) == ("1min", "minute")
    assert throughput_bucket(pd.Timedelta(days=30)) == ("1D", "day")
    figure = make_throughput_figure(results_frame(rows()))
    assert sum(sum(trace.y) for trace in figure.data) == 5  # completed and failed, not pending
    assert figure.layout.yaxis.title.text == "Exceptions per 10 seconds"


def test_empty_inputs_give_a_message_not_an_error():
    empty = results_frame([])
    for figure in (make_category_figure(empty), make_confidence_figure(empty), make_throughput_figure(empty),
                   make_status_figure({"pending": 0, "completed": 0})):
        assert figure.layout.annotations
