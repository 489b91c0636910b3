"""A real browser walks the seed example from start to completed with one dissatisfied round."""

import pytest

from tests.e2e.conftest import SHOTS, act, click, open_page, wait_for_text

pytestmark = pytest.mark.browser


def answer(page, level: str, text: str) -> None:
    page.get_by_text(level, exact=True).click()
    box = page.get_by_label("Feedback text")
    box.fill(text)
    click(page, "Submit answer")


def test_seed_example_from_start_to_completed_in_a_browser(server, browser_page):
    page = browser_page
    open_page(page, f"{server}/career_navigator")
    page.screenshot(path=str(SHOTS / "01_before_start.png"), full_page=True)
    click(page, "Start run")
    assert "thread=" in page.url
    thread = page.url.split("thread=")[1]
    click(page, "Step")
    wait_for_text(page, "Ran 1 step(s)")
    assert page.get_by_text("next:").first.is_visible()
    click(page, "Run to interrupt")
    wait_for_text(page, "Feedback on the integrated report")
    page.screenshot(path=str(SHOTS / "02_first_report_feedback.png"), full_page=True)
    answer(page, "dissatisfied", "我希望重点关注大模型和多智能体方向的AI产品经理岗位")
    click(page, "Run to end")
    wait_for_text(page, "Feedback on the integrated report")
    act(page, lambda: page.get_by_role("tab", name="Report").click())
    wait_for_text(page, "第2轮迭代")
    page.screenshot(path=str(SHOTS / "03_second_report.png"), full_page=True)

    open_page(page)  # a reload finds the same run, waiting for the same answer
    assert thread in page.url
    wait_for_text(page, "waiting for your answer")

    answer(page, "satisfied", "方向清楚了")
    click(page, "Run to end")
    wait_for_text(page, "Confirm the final plan")
    answer(page, "very satisfied", "计划可行")  # confirm_plan finishes the run: nothing left to step
    wait_for_text(page, "The run is complete")
    act(page, lambda: page.get_by_role("tab", name="Report").click())
    wait_for_text(page, "行动计划")
    act(page, lambda: page.get_by_role("tab", name="Evolution").click())
    page.screenshot(path=str(SHOTS / "04_completed_evolution.png"), full_page=True)
