"""A real browser, a slow model: Run to end goes on in the background, a second tab sees it, Stop ends it."""

import re
import time

import pytest

from tests.e2e.conftest import SHOTS, streamlit_server
from tests.e2e.test_career_navigator_walkthrough import click, settle
from tests.support.openai_stub import OpenAIStub

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def slow_model_server(tmp_path_factory, chromium_path):
    """The dashboard on an OpenAI-compatible stub that takes 3 s per call and answers nothing usable, so each
    call falls back to the offline engine: a run as slow as a real model's, with the offline results."""
    with OpenAIStub([("slow", 3.0)]) as stub:
        env = {"STEPWISE_PROVIDER": "openai", "STEPWISE_BASE_URL": stub.base_url, "STEPWISE_API_KEY": "stub-key",
               "STEPWISE_MODEL": "stub-model", "STEPWISE_MAX_RETRIES": "0", "STEPWISE_FALLBACK_TO_OFFLINE": "true"}
        with streamlit_server(tmp_path_factory.mktemp("e2e-slow"), **env) as url:
            yield url, stub


def status_line(page) -> str:
    return page.locator("[data-testid='stMarkdownContainer']").filter(
        has_text=re.compile("next:|running in the background")).first.inner_text()


def test_a_slow_run_is_polled_seen_from_a_second_tab_and_stopped_between_steps(slow_model_server, browser_page):
    url, stub = slow_model_server
    page = browser_page
    page.set_viewport_size({"width": 1500, "height": 2000})
    page.goto(f"{url}/career_navigator")
    settle(page, 1.5)
    click(page, "Start run")
    page.wait_for_url("**/career_navigator?thread=*", timeout=30000)
    thread_url = page.url
    page.get_by_role("button", name=re.compile("Run to end$")).click()
    page.get_by_text("Running to the end").first.wait_for(timeout=30000)
    assert "running in the background" in status_line(page)
    page.wait_for_function("() => document.body.innerText.match(/Running to the end[^\\n]*· [1-9] step/)",
                           timeout=30000)  # steps land while the page polls
    page.screenshot(path=str(SHOTS / "background_01_running.png"), full_page=True)

    other = page.context.browser.new_page()  # a second tab (its own Streamlit session) on the same run
    other.set_viewport_size({"width": 1500, "height": 2000})
    other.goto(thread_url)
    other.get_by_text("Running to the end").first.wait_for(timeout=30000)
    assert other.get_by_role("button", name=re.compile("Step$")).is_disabled()
    other.screenshot(path=str(SHOTS / "background_02_second_tab.png"), full_page=True)

    calls_at_stop = len(stub.requests)
    page.get_by_role("button", name=re.compile("Stop$")).click()
    page.get_by_text("stopped by you").first.wait_for(timeout=60000)
    settle(page)
    assert "paused between steps" in status_line(page)
    assert len(stub.requests) - calls_at_stop <= 3  # only the step under way finished its model calls
    other.get_by_text("paused between steps").first.wait_for(timeout=30000)  # the other tab sees the end too
    assert not other.locator("[data-testid='stException']").count()
    page.screenshot(path=str(SHOTS / "background_03_stopped.png"), full_page=True)
    time.sleep(0.2)
