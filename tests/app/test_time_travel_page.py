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


def test_a_fork_is_held_to_the_start_forms_rules_and_the_counters_limits(page):
    app = _stepped(page)
    _at_checkpoint(app, "coordinator")
    app.multiselect(key=f"{KEY}_fork_fields").select("user_profile").select("iteration_count").run()
    edited = json.loads(_fork_text(app).value)
    edited["user_profile"]["age"], edited["iteration_count"] = 5, -1
    _fork_text(app).input(json.dumps(edited)).run()
    app.button(key=f"{KEY}_fork").click().run()
    no_errors(app)
    error = " ".join(e.value for e in app.error)
    assert "user_profile: age: Input should be greater than or equal to 14" in error
    assert "iteration_count: a counter must be a whole number from 0, not -1" in error
    assert "One branch so far" in texts(app)


def test_a_state_value_no_view_expects_leaves_the_page_working(page, data_dir):
    """A run forked before the rules existed (or written by a model) holds values the views cannot draw: each
    such view says so, and the graph, controls and every tab still work."""
    app = _stepped(page)
    from pipelines.core.registry import get_spec
    from pipelines.core.settings import load_settings
    from pipelines.core.runtime.studio import Studio
    studio = Studio.from_settings(load_settings())
    session = studio.open_session(get_spec("career_navigator"), app.query_params["thread"], load_settings())
    session.edit_state({"iteration_count": -1, "plan_revision_count": "lots", "integrated_report": "not a dict",
                        "user_feedback_history": [{"odd": True}]}, as_node="coordinator")
    studio.close()
    app.run()
    no_errors(app)
    warnings = " ".join(w.value for w in app.warning)
    assert "`iteration_count` holds -1, not a count from 0" in warnings and "The bar cannot show it" in warnings
    assert '`plan_revision_count` holds "lots"' in warnings
    assert len(app.get("graphviz_chart")) >= 1 and app.button(key=f"{KEY}_step")
    for tab in ("State", "Changes", "Evolution", "Iterations", "Metrics", "Checkpoints", "Report"):
        open_tab(app, tab)  # no_errors inside: no traceback on any tab
    app.button(key=f"{KEY}_step").click().run()
    no_errors(app)
