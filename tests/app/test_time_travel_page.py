"""The Checkpoints tab in AppTest: the state at any checkpoint, forks with edited state, branches, continuing."""

import json

from tests.app.conftest import no_errors
from tests.app.test_career_navigator_page import KEY, open_tab, start, texts


def _at_checkpoint(app, produced_by):
    picker = app.selectbox(key=f"{KEY}_checkpoint")
    picker.select(next(o for o in picker.options if f"after {produced_by} ·" in o)).run()
    no_errors(app)


def _fork_text(app):
    return next(t for t in app.text_area if t.key.startswith(f"{KEY}_fork_text_"))


def _stepped(page, steps=4):
    app = start(page)
    for _ in range(steps):
        app.button(key=f"{KEY}_step").click().run()
    open_tab(app, "Checkpoints")
    return app


def test_a_checkpoint_shows_its_state_and_what_its_step_did(page):
    app = _stepped(page)
    _at_checkpoint(app, "planner")
    assert "State at this checkpoint" in texts(app) and "What step 2 did** (planner)" in texts(app)
    state, changes = app.dataframe[1].value, app.dataframe[2].value
    assert "agent_tasks" in set(state["field"]) and "planning_strategy" in set(changes["field"])
    assert "One branch so far" in texts(app)


def test_a_fork_with_edited_state_makes_a_branch_that_can_be_stepped(page):
    app = _stepped(page)
    _at_checkpoint(app, "coordinator")
    app.multiselect(key=f"{KEY}_fork_fields").select("iteration_count").select("max_iterations").run()
    edited = json.loads(_fork_text(app).value)
    assert edited == {"iteration_count": 0, "max_iterations": 3}  # the values at that checkpoint
    _fork_text(app).input(json.dumps({"iteration_count": 0, "max_iterations": 7})).run()
    assert next(s for s in app.selectbox if s.key.startswith(f"{KEY}_fork_as_node")).value == "coordinator"
    app.button(key=f"{KEY}_fork").click().run()
    no_errors(app)
    assert "Forked from step 1 as coordinator: max_iterations (changed)" in texts(app)
    assert "next: `planner`" in texts(app)
    assert "/ 7" in " ".join(p.proto.text for p in app.get("progress"))  # the counter's new limit
    assert len(app.get("graphviz_chart")) >= 2  # the workflow graph and the branch tree
    app.button(key=f"{KEY}_step").click().run()
    assert "next: `supervisor`" in texts(app)


def test_an_invalid_edit_says_why_and_changes_nothing(page):
    app = _stepped(page)
    _at_checkpoint(app, "coordinator")
    app.multiselect(key=f"{KEY}_fork_fields").select("iteration_count").run()
    _fork_text(app).input('{"iteration_count": "lots", "mood": "great"}').run()
    app.button(key=f"{KEY}_fork").click().run()
    no_errors(app)
    error = " ".join(e.value for e in app.error)
    assert error.startswith("Not forked: the edit does not match the state schema")
    assert "iteration_count:" in error and "mood: not a field of the state" in error
    assert _fork_text(app).value == '{"iteration_count": "lots", "mood": "great"}'  # the typing is kept
    _fork_text(app).input("{not json").run()
    app.button(key=f"{KEY}_fork").click().run()
    assert "not valid JSON" in " ".join(e.value for e in app.error)
    assert "One branch so far" in texts(app) and "next: `reporter`" in texts(app)


def test_the_first_branch_can_be_continued_after_a_fork(page):
    app = _stepped(page)
    _at_checkpoint(app, "planner")
    app.multiselect(key=f"{KEY}_fork_fields").select("planning_strategy").run()
    _fork_text(app).input('{"planning_strategy": "sequential"}').run()
    app.button(key=f"{KEY}_fork").click().run()
    assert "next: `supervisor`" in texts(app)
    branch = next(s for s in app.selectbox if s.key.startswith(f"{KEY}_branch_"))
    assert [o.split(" · ")[0] for o in branch.options] == ["branch 1", "branch 2"]
    branch.select(branch.options[0]).run()
    app.button(key=f"{KEY}_continue_branch").click().run()
    no_errors(app)
    assert "Now on branch 1" in texts(app) and "next: `reporter`" in texts(app)
    app.button(key=f"{KEY}_step").click().run()
    assert "next: `collect_feedback`" in texts(app) or "waiting for your answer" in texts(app)
