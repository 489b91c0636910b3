"""Run to end with a slow model: the page polls a background worker, Stop works between steps, a second tab sees it,
and the run's summary is said to the tabs that saw it, from its end until the next action."""

import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.app.conftest import no_errors
from tests.support.toy_pipeline import ToyContext, make_toy_spec

GATE = threading.Event()  # the page's toy nodes wait for it: a slow model that answers when the test says so


def gated_toy_page():
    """The studio page of the toy workflow, its nodes held until the test opens the gate."""
    from dashboard.studio.workflow_page import render_workflow_page
    from tests.app.test_background_runs import GATE
    from tests.support.toy_pipeline import ToyContext, make_toy_spec

    render_workflow_page(make_toy_spec(ToyContext(deps=None, gate=GATE)))


@pytest.fixture
def toy_thread(data_dir):
    settings = load_settings()
    studio = Studio.from_settings(settings)
    session = studio.new_session(make_toy_spec(ToyContext(deps=None)), {"topic": "kites"}, settings)
    yield session.thread_id
    studio.close()


@pytest.fixture
def gate():
    GATE.clear()
    yield GATE
    GATE.set()  # a worker still held lets go


def _tab(thread_id):
    app = AppTest.from_function(gated_toy_page, default_timeout=60)
    app.query_params["thread"] = thread_id
    return app.run()


def _texts(app):
    return " ".join(m.value for m in [*app.markdown, *app.caption, *app.success, *app.error, *app.info])


def _until(app, condition, timeout=30.0):
    deadline = time.time() + timeout
    while not condition(app):
        assert time.time() < deadline, _texts(app)
        time.sleep(0.3)
        app.run()
    return app


def test_a_slow_run_goes_on_in_the_background_and_stops_between_steps(toy_thread, gate):
    app = _tab(toy_thread)
    no_errors(app)
    app.button(key="toy_run_end").click().run()  # returns after the short foreground wait
    no_errors(app)
    assert "Running to the end" in _texts(app) and "running in the background" in _texts(app)
    assert app.button(key="toy_step").disabled and app.button(key="toy_run_end").disabled
    other = _tab(toy_thread)  # a second browser tab on the same run
    assert "Running to the end" in _texts(other)
    app.button(key="toy_stop").click().run()
    assert "Stopping after the current step" in _texts(app)
    gate.set()  # the step under way finishes
    _until(app, lambda a: "Running to the end" not in _texts(a))
    no_errors(app)
    assert "in the background" in _texts(app) and "stopped by you" in _texts(app)
    assert "paused between steps" in _texts(app)
    _until(other, lambda a: "Running to the end" not in _texts(a))
    assert "paused between steps" in _texts(other) and not other.button(key="toy_step").disabled


def test_a_slow_run_left_alone_reaches_the_interrupt_and_shows_its_form(toy_thread, gate):
    app = _tab(toy_thread)
    app.button(key="toy_run_end").click().run()
    assert "Running to the end" in _texts(app)
    gate.set()
    _until(app, lambda a: "waiting for your answer" in _texts(a))
    no_errors(app)
    assert "Ran 3 step(s) in the background" in _texts(app) and "finished" in _texts(app)
    assert any(b.key.startswith("FormSubmitter") for b in app.button)  # the approval form is back




def _stop_before_review(app):
    """Run to interrupt with a breakpoint on `review`: the run ends paused between steps, where Step works."""
    app.multiselect(key="toy__breakpoints").set_value(["review"]).run()
    app.button(key="toy_run_interrupt").click().run()
    assert "Running to the next interrupt" in _texts(app)  # held at the gate: it goes on in the background
    return app


def _summary(app) -> str:
    return " ".join(m.value for m in [*app.success, *app.error] if "in the background (" in m.value)


def test_a_finished_runs_summary_shows_until_the_next_action_and_only_to_tabs_that_saw_it(toy_thread, gate):
    app = _stop_before_review(_tab(toy_thread))
    watcher = _tab(toy_thread)  # a second tab sees it going on
    assert "Running to the next interrupt" in _texts(watcher)
    gate.set()
    _until(app, lambda a: "Ran 2 step(s) in the background" in _summary(a))
    no_errors(app)
    app.run()  # looking around (another tab of the page, a rerun) is no action: the summary stays
    assert "Ran 2 step(s) in the background" in _summary(app) and "paused between steps" in _texts(app)
    _until(watcher, lambda a: "Ran 2 step(s) in the background" in _summary(a))
    assert not _summary(_tab(toy_thread))  # a tab opened after the end: an old run is no news

    app.button(key="toy_step").click().run()
    no_errors(app)
    assert "Ran 1 step(s)." in _texts(app) and not _summary(app)
    assert not _summary(app.run())
    assert not _summary(watcher.run())  # the run moved on since it ended (from the other tab)


def test_a_run_that_ended_while_its_tab_looked_elsewhere_is_news_unless_someone_acted_on_it_since(toy_thread, gate):
    settings = load_settings()
    studio = Studio.from_settings(settings)
    other = studio.new_session(make_toy_spec(ToyContext(deps=None)), {"topic": "boats"}, settings).thread_id
    studio.close()

    def paused(app):
        return "paused between steps" in _texts(app)

    app = _stop_before_review(_tab(toy_thread))
    app.query_params["thread"] = other  # the user opens another run while this one goes on
    app.run()
    gate.set()
    _until(_tab(toy_thread), paused)
    app.query_params["thread"] = toy_thread  # and comes back after its end: that is news
    assert "Ran 2 step(s) in the background" in _summary(app.run())

    gate.clear()  # the same on the other run, but another tab steps it after its end
    app.query_params["thread"] = other
    _stop_before_review(app.run())
    app.query_params["thread"] = toy_thread
    app.run()
    gate.set()
    helper = _until(_tab(other), paused)
    helper.button(key="toy_step").click().run()
    assert "Ran 1 step(s)." in _texts(helper)
    app.query_params["thread"] = other
    assert not _summary(app.run()) and "waiting for your answer" in _texts(app)
