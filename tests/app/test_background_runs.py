"""Run to end with a slow model: the page polls a background worker, Stop works between steps, a second tab sees it."""

import time

import pytest
from streamlit.testing.v1 import AppTest

from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.app.conftest import no_errors
from tests.support.toy_pipeline import ToyContext, make_toy_spec


def slow_toy_page():
    """The studio page of the toy workflow, every node slowed as a real model would be."""
    from dashboard.studio.workflow_page import render_workflow_page
    from tests.support.toy_pipeline import ToyContext, make_toy_spec

    render_workflow_page(make_toy_spec(ToyContext(deps=None, pause_s=1.0)))


@pytest.fixture
def toy_thread(data_dir):
    settings = load_settings()
    studio = Studio.from_settings(settings)
    session = studio.new_session(make_toy_spec(ToyContext(deps=None)), {"topic": "kites"}, settings)
    yield session.thread_id
    studio.close()


def _tab(thread_id):
    app = AppTest.from_function(slow_toy_page, default_timeout=60)
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


def test_a_slow_run_goes_on_in_the_background_and_stops_between_steps(toy_thread):
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
    _until(app, lambda a: "Running to the end" not in _texts(a))
    no_errors(app)
    assert "in the background" in _texts(app) and "stopped by you" in _texts(app)
    assert "paused between steps" in _texts(app)
    _until(other, lambda a: "Running to the end" not in _texts(a))
    assert "paused between steps" in _texts(other) and not other.button(key="toy_step").disabled


def test_a_slow_run_left_alone_reaches_the_interrupt_and_shows_its_form(toy_thread):
    app = _tab(toy_thread)
    app.button(key="toy_run_end").click().run()
    _until(app, lambda a: "waiting for your answer" in _texts(a))
    no_errors(app)
    assert "Ran 3 step(s) in the background" in _texts(app) and "finished" in _texts(app)
    assert any(b.key.startswith("FormSubmitter") for b in app.button)  # the approval form is back
