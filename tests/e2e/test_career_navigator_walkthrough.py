"""A real browser walks the seed example from start to completed with one dissatisfied round."""

import re
import time

import pytest

from tests.e2e.conftest import SHOTS

pytestmark = pytest.mark.browser


def settle(page, pause: float = 0.6) -> None:
    """Wait until Streamlit has finished the rerun, then check it drew no exception box."""
    time.sleep(0.3)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60000)
    time.sleep(pause)
    exceptions = page.locator("[data-testid='stException']").all_inner_texts()
    assert not exceptions, exceptions


def click(page, name: str) -> None:
    """Click the button labelled `name` (a material icon's name may come first in its accessible name)."""
    page.get_by_role("button", name=re.compile(rf"(^|\s){re.escape(name)}$")).click()
    settle(page)


def answer(page, level: str, text: str) -> None:
    page.get_by_text(level, exact=True).click()
    box = page.get_by_label("Feedback text")
    box.fill(text)
    click(page, "Submit answer")


def test_seed_example_from_start_to_completed_in_a_browser(server, browser_page):
    page = browser_page
    page.goto(f"{server}/career_navigator")
    settle(page, 1.5)
    page.screenshot(path=str(SHOTS / "01_before_start.png"), full_page=True)
    click(page, "Start run")
    assert "thread=" in page.url
    thread = page.url.split("thread=")[1]
    click(page, "Step")
    assert page.get_by_text("next:").first.is_visible()
    click(page, "Run to interrupt")
    page.get_by_text("Feedback on the integrated report").wait_for()
    page.screenshot(path=str(SHOTS / "02_first_report_feedback.png"), full_page=True)
    answer(page, "dissatisfied", "我希望重点关注大模型和多智能体方向的AI产品经理岗位")
    click(page, "Run to end")
    page.get_by_text("Feedback on the integrated report").wait_for()
    page.get_by_role("tab", name="Report").click()
    settle(page)
    assert page.get_by_text("第2轮迭代", exact=False).first.is_visible()
    page.screenshot(path=str(SHOTS / "03_second_report.png"), full_page=True)

    page.reload()  # a reload finds the same run, waiting for the same answer
    settle(page, 1.5)
    assert thread in page.url and page.get_by_text("waiting for your answer").first.is_visible()

    answer(page, "satisfied", "方向清楚了")
    click(page, "Run to end")
    page.get_by_text("Confirm the final plan").wait_for()
    answer(page, "very satisfied", "计划可行")  # confirm_plan finishes the run: nothing left to step
    page.get_by_text("The run is complete").wait_for()
    page.get_by_role("tab", name="Report").click()
    settle(page)
    assert page.get_by_text("行动计划").first.is_visible()
    page.get_by_role("tab", name="Evolution").click()
    settle(page)
    page.screenshot(path=str(SHOTS / "04_completed_evolution.png"), full_page=True)
