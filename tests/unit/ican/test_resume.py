"""Resume files: PDF and DOCX read with the langchain-community loaders, and every way a file can be unusable."""

import io
import zipfile

import pytest

from pipelines.ican.resume import MAX_RESUME_BYTES, ResumeFileError, looks_like_resume, profile_from, read_resume
from tests.support.resume_files import RESUME_EN, RESUME_ZH, make_docx, make_pdf


def _zip_of(name: str) -> bytes:
    """A zip package without the parts of a Word document: what a renamed archive looks like."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, "hi")
    return buffer.getvalue()


@pytest.mark.parametrize("maker,name", [(make_pdf, "cv.pdf"), (make_docx, "cv.docx")])
def test_pdf_and_docx_resumes_are_read(maker, name):
    text = read_resume(name, maker(RESUME_EN))
    assert "Laboratory Technician" in text and "Lakeside University" in text


@pytest.mark.parametrize("maker,name", [(make_pdf, "简历.pdf"), (make_docx, "简历.docx")])
def test_chinese_resumes_are_read(maker, name):
    text = read_resume(name, maker(RESUME_ZH))
    assert "汉语言文学" in text and "UI设计师" in text


def test_markdown_and_text_resumes_are_read():
    assert "Lakeside" in read_resume("cv.md", RESUME_EN.encode())
    assert "师范大学" in read_resume("cv.txt", RESUME_ZH.encode("gbk"))  # encoding detected, not assumed


def test_the_structured_profile_comes_from_the_resume():
    profile = profile_from(read_resume("cv.pdf", make_pdf(RESUME_EN)), "I want to become a data analyst.", {}, "en")
    assert profile.source == "resume+conversation"
    assert profile.name == "Daniel Kim"
    assert profile.education and profile.education[0].degree == "Bachelor's"
    assert profile.education[0].school == "Lakeside University"
    assert profile.experience[0].period.startswith("2020")
    assert profile.years_experience and profile.years_experience >= 5
    assert {"Python", "SQL"} <= set(profile.skills)
    assert profile.target == "data analyst"


def test_without_a_resume_the_profile_comes_from_the_conversation():
    said = "我是一名初中语文老师，工作了6年，本科是汉语言文学专业，想转行做UI设计师。"
    profile = profile_from("", said, {}, "zh")
    assert profile.source == "conversation"
    assert profile.years_experience == 6
    assert profile.education[0].degree == "Bachelor's" and profile.education[0].field == "汉语言文学"
    assert profile.target == "UI设计师"


def test_the_client_s_years_beat_the_years_the_resume_s_dates_add_up_to():
    resume = RESUME_ZH.replace("2018 - 至今", "2018 - 2022")  # 4 years by its dates
    stated = profile_from(resume, "我当了10年老师，想转行。", {}, "zh")
    assert stated.years_experience == 10 and "10 年经验" in stated.summary and "约" not in stated.summary
    dated = profile_from(resume, "我想转行。", {}, "zh")
    assert dated.years_experience == 4 and "约 4 年经验" in dated.summary  # an estimate says so


@pytest.mark.parametrize("name,data,reason", [
    ("cv.pdf", b"%PDF-1.7\n this is not really a pdf \x00\x01", "is not a readable PDF"),
    ("cv.pdf", b"GIF89a....", "not a PDF file"),
    ("cv.docx", b"PK\x03\x04 broken zip", "is not a Word document"),
    ("cv.docx", _zip_of("hello.txt"), "is not a Word document"),
    ("cv.doc", b"\xd0\xcf\x11\xe0 old word", "only PDF, DOCX, TXT or Markdown"),
    ("cv.png", b"\x89PNG", "only PDF, DOCX, TXT or Markdown"),
    ("cv.txt", b"   ", "is empty"),
    ("cv.txt", b"x" * (MAX_RESUME_BYTES + 1), "MB; resumes up to 5 MB"),
    ("notes.txt", b"Shopping list: flour, butter, eggs. Call the plumber on Monday about the oven.",
     "does not look like a resume"),
])
def test_unusable_files_get_a_clear_reason(name, data, reason):
    with pytest.raises(ResumeFileError, match=reason):
        read_resume(name, data)


def test_a_pdf_with_no_text_says_it_needs_ocr():
    from pipelines.core.pdf.document import PdfDocument
    with pytest.raises(ResumeFileError, match="no text|does not look like a resume"):
        read_resume("scan.pdf", PdfDocument("").build())


def test_resume_detection():
    assert looks_like_resume(RESUME_EN) and looks_like_resume(RESUME_ZH)
    assert not looks_like_resume("Dear team, the meeting moves to Friday. Thanks!")


def test_a_resume_over_the_limit_is_refused_with_its_length_never_cut():
    projects = [f"Project {i}: built a reporting pipeline for the lab." for i in range(2000)]  # ~100,000 characters
    long_resume = RESUME_EN + "\n" + "\n".join(projects)
    with pytest.raises(ResumeFileError, match=r"^cv\.md has \d{2,3},\d{3} characters of text; resumes up to 60,000 "
                                              r"characters can be read$"):
        read_resume("cv.md", long_resume.encode())
    fits = RESUME_EN + "\n" + "\n".join(projects[:1000])
    assert read_resume("cv.md", fits.encode()).endswith(projects[999])  # read whole, to its last line
