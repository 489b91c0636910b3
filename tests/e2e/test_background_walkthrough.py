"""A real browser, a model the test holds: Run to end goes on in the background, a second tab sees it, Stop ends it
between steps, and two tabs pressing Step together run one step."""

import re

import pytest

from pipelines.core.registry import get_spec
from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from tests.e2e.conftest import SHOTS, click, open_page, runs_started, settle, streamlit_server, wait_for_text
from tests.support.openai_stub import OpenAIStub

pytestmark = pytest.mark.browser


@pytest.fixture
def held_model_server(tmp_path_factory, chromium_path):
    """The dashboard on an OpenAI-compatible stub that holds every call until the test lets it go, then answers
    nothing usable, so each call falls back to the offline engine: a run exactly as slow as the test wants."""
    with OpenAIStub([("hold", ("valid", {}))]) as stub:
        env = {"STEPWISE_PROVIDER": "openai", "STEPWISE_BASE_URL": stub.base_url, "STEPWISE_API_KEY": "stub-key",
               "STEPWISE_MODEL": "stub-model", "STEPWISE_MAX_RETRIES": "0", "STEPWISE_FALLBACK_TO_OFFLINE": "true"}
        data = tmp_path_factory.mktemp("e2e-held")
        with streamlit_server(data, **env) as url:
            yield url, stub, data


def status_line(page) -> str:
    return page.locator("[data-testid='stMarkdownContainer']").filter(
        has_text=re.compile("next:|running in the background")).first.inner_text()


def test_a_slow_run_is_polled_seen_from_a_second_tab_and_stopped_between_steps(held_model_server, browser_page):
    url, stub, _ = held_model_server
    page = browser_page
    page.set_viewport_size({"width": 1500, "height": 2000})
    open_page(page, f"{url}/career_navigator")
    click(page, "Start run")
    page.wait_for_url("**/career_navigator?thread=*", timeout=30000)
    thread_url = page.url
    page.get_by_role("button", name=re.compile("Run to end$")).click()
    stub.wait_for_requests(1)  # the coordinator asks the model, which the test holds
    page.get_by_text("Running to the end").first.wait_for(timeout=60000)
    settle(page)
    assert "running in the background" in status_line(page)
    stub.let_go()  # the coordinator's step lands; the planner's call is held in turn
    stub.wait_for_requests(2)
    page.wait_for_function("() => document.body.innerText.match(/Running to the end[^\\n]*· [1-9] step/)",
                           timeout=60000)  # steps land while the page polls
    page.screenshot(path=str(SHOTS / "background_01_running.png"), full_page=True)

    other = page.context.browser.new_page()  # a second tab (its own Streamlit session) on the same run
    other.set_viewport_size({"width": 1500, "height": 2000})
    open_page(other, thread_url)
    other.get_by_text("Running to the end").first.wait_for(timeout=60000)
    assert other.get_by_role("button", name=re.compile("Step$")).is_disabled()
    other.screenshot(path=str(SHOTS / "background_02_second_tab.png"), full_page=True)

    page.get_by_role("button", name=re.compile("Stop$")).click()
    page.get_by_text("Stopping after the current step").first.wait_for(timeout=60000)
    calls_at_stop = len(stub.requests)
    stub.open()  # the step under way may finish; no other starts
    wait_for_text(page, "stopped by you", 120_000)
    assert "paused between steps" in status_line(page)
    assert len(stub.requests) - calls_at_stop <= 3  # only the step under way finished its model calls
    wait_for_text(other, "paused between steps", 120_000)  # the other tab sees the end too
    assert not other.locator("[data-testid='stException']").count()
    page.screenshot(path=str(SHOTS / "background_03_stopped.png"), full_page=True)


def test_two_tabs_pressing_step_together_run_the_step_once(held_model_server, browser_page):
    url, stub, data = held_model_server
    settings = load_settings(data_dir=str(data))
    studio = Studio.from_settings(settings)
    spec = get_spec("career_navigator")
    thread = studio.new_session(spec, spec.scenario("seed_example").input, settings).thread_id
    studio.close()
    first = browser_page
    second = first.context.browser.new_page(viewport={"width": 1500, "height": 1100})
    for tab in (first, second):
        open_page(tab, f"{url}/career_navigator?thread={thread}")
    requests_before = len(stub.requests)
    first.get_by_role("button", name=re.compile(r"(^|\s)Step$")).click()
    stub.wait_for_requests(requests_before + 1)  # the first tab's step waits on the model
    before = runs_started(second)
    second.get_by_role("button", name=re.compile(r"(^|\s)Step$")).click()
    settle(second, before)
    wait_for_text(second, "another step of this run is under way")
    assert second.get_by_role("button", name=re.compile(r"(^|\s)Step$")).is_disabled()
    second.screenshot(path=str(SHOTS / "background_04_second_tab_refused.png"), full_page=True)
    stub.open()
    wait_for_text(first, "Ran 1 step(s)")
    wait_for_text(second, "next: planner")  # the second tab draws the run as it is once the first gives it back
    assert len(stub.requests) == requests_before + 1  # the second click asked the model nothing
    studio = Studio.from_settings(settings)
    try:
        records = [r for r in studio.runs.load_steps(thread) if r.status == "completed"]
        assert [r.label for r in records] == ["0 input", "1 coordinator"]
    finally:
        studio.close()
