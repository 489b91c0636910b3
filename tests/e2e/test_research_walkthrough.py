"""A real browser runs a research session: upload two documents (English and Chinese), ask, answer the preferences,
edit the plan in words, accept it, read the cited report and download its PDF, whose text is checked."""

import time

import pytest
from pypdf import PdfReader

from tests.e2e.conftest import SHOTS, act, click, download, open_page, wait_until_run_over
from tests.unit.deep_research.conftest import DOCS

pytestmark = pytest.mark.browser
QUESTION = "What was Lindenport's container throughput in 2024, and when does the rail link open?"


def wait_for(page, text: str, limit_s: float = 240.0) -> None:
    """Until `text` shows: the run goes on in a background worker and the page fills in when it pauses."""
    deadline = time.monotonic() + limit_s
    while not page.get_by_text(text, exact=False).count():
        assert time.monotonic() < deadline, f"{text!r} never showed"
        time.sleep(1.0)
        open_page(page)
    wait_until_run_over(page)  # what shows may be drawn by a run that is still going on


def test_upload_ask_edit_accept_and_download_the_pdf(server, browser_page, tmp_path):
    page = browser_page
    page.set_viewport_size({"width": 1500, "height": 2600})
    open_page(page, f"{server}/deep_research")
    page.get_by_label("Your question").fill(QUESTION)
    act(page, lambda: page.locator("input[type='file']").first.set_input_files(DOCS))
    click(page, "Start the research")
    page.wait_for_url("**/deep_research?thread=*", timeout=30000)
    wait_for(page, "Your research preferences")
    page.screenshot(path=str(SHOTS / "research_01_preferences.png"), full_page=True)
    click(page, "Skip")
    wait_for(page, "Review the research plan")
    # An edit it does not understand is asked about, in the card, and changes nothing.
    page.get_by_label("Or say what to change").fill("remove the last step, then make it punchier")
    act(page, lambda: page.get_by_label("Or say what to change").press("Tab"))
    click(page, "Apply the edit")
    wait_for(page, "I did not understand")
    assert page.get_by_text("Planning pass 1", exact=False).count() and page.get_by_text("punchier", exact=False).count()
    page.screenshot(path=str(SHOTS / "research_02a_plan_question.png"), full_page=True)
    page.get_by_label("Or say what to change").fill("add a step about dredging costs")
    act(page, lambda: page.get_by_label("Or say what to change").press("Tab"))
    click(page, "Apply the edit")
    wait_for(page, "Planning pass 2")
    page.screenshot(path=str(SHOTS / "research_02_plan.png"), full_page=True)
    assert page.get_by_text("dredging costs", exact=False).count()
    click(page, "Accept the plan")
    wait_for(page, "Cited claims supported")
    page.screenshot(path=str(SHOTS / "research_03_report.png"), full_page=True)
    assert page.get_by_text("2.4 million TEU", exact=False).count()
    target = download(page, page.get_by_role("button", name="PDF", exact=False), tmp_path / "research.pdf")
    assert target.read_bytes().startswith(b"%PDF")
    text = "\n".join(p.extract_text() for p in PdfReader(target).pages)
    assert "harbor_report.md" in text and "harbor_notes_zh.md" in text and "TEU" in text
