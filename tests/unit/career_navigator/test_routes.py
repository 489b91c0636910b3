"""The routes of seed 000 as pure functions of the state."""

import pytest
from langgraph.graph import END

from pipelines.career_navigator.nodes import route_after_coordinator
from pipelines.career_navigator.planning import route_after_confirmation, route_after_feedback


@pytest.mark.parametrize("score, target", [(45, "planner"), (70, "planner"), (71, "goal_decomposer"), (100, "goal_decomposer")])
def test_coordinator_routes_on_clarity_above_70(score, target):
    assert route_after_coordinator({"cached_data": {"goal_analysis": {"clarity_score": score}}}) == target


def test_coordinator_without_an_analysis_plans():
    assert route_after_coordinator({"cached_data": None}) == "planner"


@pytest.mark.parametrize("level, count, target", [
    ("satisfied", 0, "goal_decomposer"), ("very_satisfied", 2, "goal_decomposer"),
    ("neutral", 1, "supervisor"), ("dissatisfied", 2, "supervisor"), ("very_dissatisfied", 1, "supervisor"),
    ("dissatisfied", 3, "goal_decomposer"),  # the cut-off at max_iterations
])
def test_feedback_routes_on_satisfaction_and_the_iteration_limit(level, count, target):
    state = {"current_satisfaction": level, "iteration_count": count, "max_iterations": 3}
    assert route_after_feedback(state) == target


def test_confirmation_ends_only_when_completed():
    assert route_after_confirmation({"current_stage": "completed"}) == END
    assert route_after_confirmation({"current_stage": "goal_decomposition"}) == "goal_decomposer"
