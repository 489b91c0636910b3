"""A real browser on the recruiter's approval cards: a job launch whose plan is approved on its card, then the email
review where some drafts go (one with an edited subject) and the reply says they were not sent without an SMTP
server; and a plan modified through the step editor's instruction box, the diff previewed before it is sent and
shown in the chat after."""

import pytest

from tests.e2e.conftest import SHOTS, act, click, settle, wait_until_run_over
from tests.e2e.test_recruiter_walkthrough import chat_text, send_first

pytestmark = pytest.mark.browser

LAUNCH = "Launch the job J001: find candidates and send them outreach emails"


def card(page, kind: str):
    return page.locator(f".st-key-recruiter_card_{kind}")


def wait_for_card(page, kind: str, timeout_ms: int = 90000) -> None:
    card(page, kind).first.wait_for(state="visible", timeout=timeout_ms)
    settle(page)


def chat_bottom(page) -> float:
    last = page.locator("[data-testid='stChatMessage']").last.bounding_box()
    return last["y"] + last["height"]


def test_a_job_launch_is_approved_and_some_edited_drafts_go_out(server, browser_page):
    page = browser_page
    send_first(page, server, LAUNCH)
    wait_for_card(page, "plan_approval")
    plan = card(page, "plan_approval").inner_text()
    assert "Plan for your approval" in plan and "0 of 3" in plan and "Matching agent" in plan
    assert "Workflow: Job launch" in plan and "job_launch" not in plan
    assert "answer above" in page.locator("body").inner_text()
    # What waits for the recruiter comes right under the plan's reply, above the message box (and the fold).
    card_top = card(page, "plan_approval").bounding_box()["y"]
    assert card_top < page.get_by_label("Your message", exact=False).bounding_box()["y"]
    assert card_top < chat_bottom(page) + 200
    assert "/ 64,000 characters" not in page.locator("body").inner_text()
    page.screenshot(path=str(SHOTS / "recruiter_plan_01_card.png"), full_page=True)

    click(page, "Approve")
    wait_for_card(page, "final_approval")
    review = card(page, "final_approval")
    boxes = review.locator("[data-testid='stCheckbox']")
    # The drafts are written in the background: the card may show before the rerun that draws them (CI saw 0).
    wait_until_run_over(page)
    boxes.nth(2).wait_for(state="visible")
    assert boxes.count() >= 3 and "Emails left today" in review.inner_text()
    assert "[EMAIL_" not in review.inner_text() and "To: " in review.inner_text()  # the addresses, not placeholders
    assert review.bounding_box()["y"] < page.get_by_label("Your message", exact=False).bounding_box()["y"]
    for i in range(2, boxes.count()):
        act(page, lambda i=i: boxes.nth(i).locator("label").click())
    subject = review.get_by_label("Subject").first
    subject.fill("A role for you at J001")
    act(page, lambda: subject.press("Tab"))
    assert "Edited: subject" in card(page, "final_approval").inner_text()
    page.screenshot(path=str(SHOTS / "recruiter_plan_02_review.png"), full_page=True)

    click(page, "Send 2 selected")
    page.get_by_text("not sent: no SMTP server", exact=False).first.wait_for(timeout=90000)
    settle(page)
    assert "not sent: no SMTP server" in chat_text(page)
    assert card(page, "final_approval").count() == 0
    page.screenshot(path=str(SHOTS / "recruiter_plan_03_sent.png"), full_page=True)

    # The studio below: the fan-out's ten drafting tasks counted in Metrics (one node run per candidate).
    for tab in ("Changes", "Metrics"):
        act(page, lambda tab=tab: page.get_by_role("tab", name=tab).click())
        page.screenshot(path=str(SHOTS / f"recruiter_plan_06_{tab.lower()}.png"), full_page=True)
    assert "Node runs" in page.locator("body").inner_text()


def test_a_plan_is_modified_with_the_diff_previewed_then_cancelled(server, browser_page):
    page = browser_page
    send_first(page, server, LAUNCH)
    wait_for_card(page, "plan_approval")
    click(page, "Modify")
    editor = card(page, "plan_approval")
    assert editor.locator("[data-testid='stDataFrame']").count() >= 2  # the steps table and the step editor
    box = editor.get_by_label("Instruction (optional)")
    box.fill("only 3 candidates")
    act(page, lambda: box.press("Tab"))
    preview = editor.locator("[data-testid='stCode']").inner_text()
    assert "top 3" in preview
    page.screenshot(path=str(SHOTS / "recruiter_plan_04_diff_preview.png"), full_page=True)

    click(page, "Submit changes")
    page.get_by_text("1 of 3", exact=True).first.wait_for(timeout=90000)
    settle(page)
    assert "Changes:" in chat_text(page) and "top 3" in chat_text(page)
    page.screenshot(path=str(SHOTS / "recruiter_plan_05_modified.png"), full_page=True)

    click(page, "Cancel")
    page.get_by_text("cancelled", exact=False).first.wait_for(timeout=60000)
    settle(page)
    assert card(page, "plan_approval").count() == 0
