"""CareerNavigator client satisfaction per feedback round across runs, from the feedback nodes' stored updates."""

from __future__ import annotations

import pandas as pd
from sqlalchemy.engine import Engine

from pipelines.career_navigator.state import SATISFACTION_SCORE
from pipelines.core.trace.run_metrics import RunFilter, task_updates

# The nodes that ask for the client's verdict, and what the verdict is about.
FEEDBACK_NODES = {"collect_feedback": "report", "confirm_plan": "plan"}
ALL_RUNS = RunFilter()
SATISFACTION_COLUMNS = ["thread_id", "title", "round", "about", "level", "score"]


def satisfaction_frame(engine: Engine, run_filter: RunFilter = ALL_RUNS) -> pd.DataFrame:
    """One row per answered feedback round: rounds count from 1 in the order the client answered (a round
    answered again after a rewind counts as a new round), `score` from 0 (very dissatisfied) to 1."""
    rows, rounds = [], {}
    for task in task_updates(engine, run_filter, "career_navigator", list(FEEDBACK_NODES)):
        update = task["update"] if isinstance(task["update"], dict) else {}
        levels = [f.get("satisfaction_level") for f in update.get("user_feedback_history") or []] \
            or [update.get("current_satisfaction")]
        for level in levels:
            if level not in SATISFACTION_SCORE:
                continue
            rounds[task["thread_id"]] = rounds.get(task["thread_id"], 0) + 1
            rows.append({"thread_id": task["thread_id"], "title": task["title"] or "",
                         "round": rounds[task["thread_id"]], "about": FEEDBACK_NODES[task["node"]],
                         "level": level, "score": SATISFACTION_SCORE[level]})
    return pd.DataFrame(rows, columns=SATISFACTION_COLUMNS)
