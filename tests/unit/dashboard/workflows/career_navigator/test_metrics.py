"""CareerNavigator's Metrics tab: the satisfaction chart is a pure function of the satisfaction frame."""

import pandas as pd

from dashboard.workflows.career_navigator.metrics import make_satisfaction_figure
from pipelines.career_navigator.satisfaction import SATISFACTION_COLUMNS


def test_satisfaction_draws_a_line_per_run_and_the_mean():
    rows = [("a", 1, "report", "dissatisfied", 0.25), ("a", 2, "report", "satisfied", 0.75),
            ("a", 3, "plan", "very_satisfied", 1.0), ("b", 1, "report", "neutral", 0.5),
            ("b", 2, "plan", "satisfied", 0.75)]
    frame = pd.DataFrame([{"thread_id": t, "title": f"run {t}", "round": r, "about": about, "level": level, "score": s}
                          for t, r, about, level, s in rows], columns=SATISFACTION_COLUMNS)
    figure = make_satisfaction_figure(frame)
    lines = {trace.name: trace for trace in figure.data}
    assert list(lines["run a · a"].y) == [0.25, 0.75, 1.0] and list(lines["run a · a"].marker.symbol)[-1] == "square"
    assert list(lines["mean"].x) == [1, 2, 3] and list(lines["mean"].y) == [0.375, 0.75, 1.0]
    assert list(figure.layout.yaxis.ticktext)[0] == "very dissatisfied"


def test_no_feedback_draws_a_message_not_an_error():
    figure = make_satisfaction_figure(pd.DataFrame(columns=SATISFACTION_COLUMNS))
    assert not figure.data and figure.layout.annotations[0].text
