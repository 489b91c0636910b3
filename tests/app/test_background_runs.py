"""Run to end with a held model: the page polls a background worker, Stop works between steps, a second tab sees it,
two tabs pressing Step together run one step, and the run's summary is said to the tabs that saw it, from its end
until the next action."""

import threading

import pytest
from streamlit.testing.v1 import AppTest

from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from tests.app.conftest import no_errors, rerun_until
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
    context.open()  # a worker still held lets go
    studio.close()


def _tab(thread_id):
    app = AppTest.from_function(held_toy_page, default_timeout=60)
    app.query_params["thread"] = thread_id
    return app.run()


def _texts(app):
    return " ".join(m.value for m in [*app.markdown, *app.caption, *app.success, *app.error, *app.info, *app.warning])


def _until(app, condition, timeout=30.0):
    return rerun_until(app, condition, timeout, _texts)


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


def _stop_before_review(app):
    """Run to interrupt with a breakpoint on `review`: the run ends paused between steps, where Step works."""
    app.multiselect(key="toy__breakpoints").set_value(["review"]).run()
    app.button(key="toy_run_interrupt").click().run()
    assert "Running to the next interrupt" in _texts(app)  # held at the gate: it goes on in the background
    return app


def _summary(app) -> str:
    return " ".join(m.value for m in [*app.success, *app.error] if "in the background (" in m.value)


def test_a_finished_runs_summary_shows_until_the_next_action_and_only_to_tabs_that_saw_it(toy_thread):
    toy_thread, context = toy_thread
    app = _stop_before_review(_tab(toy_thread))
    watcher = _tab(toy_thread)  # a second tab sees it going on
    assert "Running to the next interrupt" in _texts(watcher)
    context.open()
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


def test_a_run_that_ended_while_its_tab_looked_elsewhere_is_news_unless_someone_acted_on_it_since(toy_thread):
    toy_thread, context = toy_thread
    settings = load_settings()
    studio = Studio.from_settings(settings)
    other = studio.new_session(make_toy_spec(context), {"topic": "boats"}, settings).thread_id
    studio.close()

    def paused(app):
        return "paused between steps" in _texts(app)

    app = _stop_before_review(_tab(toy_thread))
    app.query_params["thread"] = other  # the user opens another run while this one goes on
    app.run()
    context.open()
    _until(_tab(toy_thread), paused)
    app.query_params["thread"] = toy_thread  # and comes back after its end: that is news
    assert "Ran 2 step(s) in the background" in _summary(app.run())

    context.hold()  # the same on the other run, but another tab steps it after its end
    app.query_params["thread"] = other
    _stop_before_review(app.run())
    app.query_params["thread"] = toy_thread
    app.run()
    context.open()
    helper = _until(_tab(other), paused)
    helper.button(key="toy_step").click().run()
    assert "Ran 1 step(s)." in _texts(helper)
    app.query_params["thread"] = other
    assert not _summary(app.run()) and "waiting for your answer" in _texts(app)
