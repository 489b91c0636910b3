"""A real browser runs two counselor sessions, greeting to PDF: in English with a DOCX resume, and in Chinese."""

import pytest
from pypdf import PdfReader

from tests.e2e.conftest import SHOTS, act, click, download, open_page, settle
from tests.support.resume_files import RESUME_EN, make_docx
from tests.unit.ican.conftest import ican_scenario

pytestmark = pytest.mark.browser


def run_session(page, server, scenario: str, tmp_path, resume: tuple[str, bytes] | None = None) -> str:
    data = ican_scenario(scenario)
    page.set_viewport_size({"width": 1500, "height": 2600})  # Streamlit scrolls inside the page: see it all
    open_page(page, f"{server}/ican")
    page.get_by_label("The client's first message").fill(data["input"]["raw_input"])
    if resume:
        path = tmp_path / resume[0]
        path.write_bytes(resume[1])
        act(page, lambda: page.locator("input[type='file']").first.set_input_files(str(path)))
    click(page, "Start the session")
    page.wait_for_url("**/ican?thread=*", timeout=30000)
    settle(page)
    page.screenshot(path=str(SHOTS / f"ican_{scenario}_01_greeting.png"), full_page=True)
    for answer in data["answers"]:  # the guide may have enough before the answers run out
        settle(page)
        if page.get_by_text("100 % — Done").count():
            break
        page.get_by_label("The client's answer", exact=False).fill(answer)
        click(page, "Send to the guide")
    page.screenshot(path=str(SHOTS / f"ican_{scenario}_02_chat.png"), full_page=True)
    assert page.get_by_text("100 % — Done").first.is_visible()
    act(page, lambda: page.get_by_role("tab", name="Results").click())
    page.screenshot(path=str(SHOTS / f"ican_{scenario}_03_results.png"), full_page=True)
    target = download(page, page.get_by_role("button", name="Download the PDF report"), tmp_path / f"{scenario}.pdf")
    assert target.read_bytes().startswith(b"%PDF")
    return "\n".join(p.extract_text() for p in PdfReader(target).pages)


def test_an_english_session_with_a_resume(server, browser_page, tmp_path):
    text = run_session(browser_page, server, "en_lab_to_data", tmp_path, ("daniel.docx", make_docx(RESUME_EN)))
    assert "iCan career report" in text and "Resume" in text and "daniel.docx" in text
    assert "Holland code" in text and "Page 1 of" in text


def test_a_chinese_session(server, browser_page, tmp_path):
    text = run_session(browser_page, server, "zh_teacher_to_design", tmp_path).replace(" ", "").replace("\n", "")
    assert "iCan职业发展报告" in text and "霍兰德代码" in text and "发展建议" in text
