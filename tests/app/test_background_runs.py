"""Run to end with a held model: the page polls a background worker, Stop works between steps, a second tab sees it,
and two tabs pressing Step together run one step."""

import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from tests.app.conftest import no_errors
from tests.support.toy_pipeline import make_toy_spec, page_context


def held_toy_page():
    """The studio page of the toy workflow, its nodes held by the test as a slow model would hold them."""
    from dashboard.studio.workflow_page import render_workflow_page
    from tests.support.toy_pipeline import make_toy_spec, page_context

    render_workflow_page(make_toy_spec(page_context()))


@pytest.fixture
def toy_thread(data_dir):
    context = page_context(fresh=True)
    settings = load_settings()
    studio = Studio.from_settings(settings)
    session = studio.new_session(make_toy_spec(context), {"topic": "kites"}, settings)
    context.hold()
    yield session.thread_id, context
    context.gate = None
    context.let_through = lambda count=1: None
    studio.close()


def _tab(thread_id):
    app = AppTest.from_function(held_toy_page, default_timeout=60)
    app.query_params["thread"] = thread_id
    return app.run()


def _texts(app):
    return " ".join(m.value for m in [*app.markdown, *app.caption, *app.success, *app.error, *app.info, *app.warning])


def _until(app, condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not condition(app):
        assert time.monotonic() < deadline, _texts(app)
        time.sleep(0.2)
        app.run()
    return app


def test_a_slow_run_goes_on_in_the_background_and_stops_between_steps(toy_thread):
    thread_id, context = toy_thread
    app = _tab(thread_id)
    no_errors(app)
    app.button(key="toy_run_end").click().run()  # returns after the short foreground wait: draft is held
    no_errors(app)
    assert "Running to the end" in _texts(app) and "running in the background" in _texts(app)
    assert app.button(key="toy_step").disabled and app.button(key="toy_run_end").disabled
    other = _tab(thread_id)  # a second browser tab on the same run
    assert "Running to the end" in _texts(other)
    app.button(key="toy_stop").click().run()
    assert "Stopping after the current step" in _texts(app)
    context.let_through()  # the step under way ends; the run stops before the next
    _until(app, lambda a: "Running to the end" not in _texts(a))
    no_errors(app)
    assert "in the background" in _texts(app) and "stopped by you" in _texts(app)
    assert "paused between steps" in _texts(app) and context.runs == ["draft"]
    _until(other, lambda a: "Running to the end" not in _texts(a))
    assert "paused between steps" in _texts(other) and not other.button(key="toy_step").disabled


def test_a_slow_run_left_alone_reaches_the_interrupt_and_shows_its_form(toy_thread):
    thread_id, context = toy_thread
    app = _tab(thread_id)
    app.button(key="toy_run_end").click().run()
    context.let_through(3)  # draft, then fast and slow
    _until(app, lambda a: "waiting for your answer" in _texts(a))
    no_errors(app)
    assert "Ran 3 step(s) in the background" in _texts(app) and "finished" in _texts(app)
    assert any(b.key.startswith("FormSubmitter") for b in app.button)  # the approval form is back


def test_a_step_pressed_while_another_tab_steps_runs_nothing_and_says_so(toy_thread, data_dir):
    thread_id, context = toy_thread
    second = _tab(thread_id)  # drawn while the run was free: its Step button is enabled
    settings = load_settings()
    studio = Studio.from_settings(settings)
    first = studio.open_session(make_toy_spec(context), thread_id, settings)  # the other tab's session
    stepping = threading.Thread(target=first.step)
    stepping.start()
    context.wait_entered()  # the other tab's step is inside its node
    second.button(key="toy_step").click().run()
    no_errors(second)
    assert "another step of this run is under way" in _texts(second)
    assert second.button(key="toy_step").disabled  # shown as it is: held elsewhere
    context.let_through()
    stepping.join(60)
    studio.close()
    second.run()
    assert not second.button(key="toy_step").disabled and "next: `fast, slow`" in _texts(second)
    assert context.runs == ["draft"]  # one step ran, from the other tab


def test_a_tab_that_shows_an_old_position_is_refused_when_it_steps(toy_thread):
    thread_id, context = toy_thread
    context.gate = None
    first, second = _tab(thread_id), _tab(thread_id)
    first.button(key="toy_step").click().run()
    assert "Ran 1 step(s)" in _texts(first)
    second.button(key="toy_step").click().run()  # it still showed the run before that step
    no_errors(second)
    assert "The run has moved on since it was shown" in _texts(second)
    assert context.runs == ["draft"]
