"""PDF text as a reader sees it: table columns sized to their content, *italic*, and Markdown escapes honoured."""

from __future__ import annotations

import io

from pypdf import PdfReader

from pipelines.core.markup import escape_markdown
from pipelines.core.pdf.document import PdfDocument
from pipelines.core.pdf.text import column_widths, fit_columns, plain_markdown, text_width

REASON = ("O*NET interest code ASE matches your strong A and S interests (interest fit 0.91); uses your skills: "
          "teaching, writing, drawing and illustration, graphic design.")


def read(doc: PdfDocument) -> str:
    reader = PdfReader(io.BytesIO(doc.build()))
    return "\n".join(page.extract_text() for page in reader.pages)


def fonts(doc: PdfDocument) -> set[str]:
    reader = PdfReader(io.BytesIO(doc.build()))
    return {str(f.get_object()["/BaseFont"]) for page in reader.pages
            for f in page["/Resources"]["/Font"].values()}


def test_headers_and_short_values_are_never_split():
    doc = PdfDocument("Matches")
    doc.table(["#", "职业", "兴趣代码", "匹配度", "理由"],
              [[i, "平面设计师（Graphic Designers）", "ASE", f"0.{80 - i}", REASON] for i in range(1, 11)])
    doc.table(["Type", "Score", "Ratio", "Evidence"], [["I · Investigative", 94, "0.8/4", REASON * 2]])
    doc.markdown("| Week | Task | Hours | Deliverable |\n|---|---|---|---|\n"
                 "| 1 | Week 1: Prototyping: start with the core of \"Sprint\" and take notes on it. | 5 | "
                 "Prototyping study notes |")
    text = read(doc)
    for token in ("兴趣代码", "匹配度", "Score", "Ratio", "0.8/4", "0.79", "Week", "Hours", "Deliverable",
                  "Investigative"):
        assert token in text, token


def test_narrow_columns_get_their_natural_width_and_the_text_column_the_rest():
    header, rows = ["#", "Occupation", "Code", "Score", "Why"], [["10", "Data Scientists", "IC", "0.74", REASON]]
    widths = column_widths(header, rows, 480, 7.5)
    assert abs(sum(widths) - 480) < 0.01
    assert widths[3] < 40 and widths[0] < 20  # numbers take what they need
    assert widths[3] >= text_width("Score", 7.5, bold=True) + 8
    assert widths[4] == max(widths)  # the long text gets the room
    assert widths[1] >= text_width("Data Scientists", 7.5) + 8  # a short title fits on one line


def test_columns_that_fit_share_the_width_and_too_many_columns_shrink_together():
    assert fit_columns([100, 50], [20, 20], 300) == [200, 100]
    squeezed = fit_columns([200] * 6, [60] * 6, 300)
    assert abs(sum(squeezed) - 300) < 0.01 and len(set(round(w, 6) for w in squeezed)) == 1


def test_italic_bold_and_code_are_rendered_not_shown_as_markers():
    doc = PdfDocument("Inline")
    doc.markdown("- **Goal** (2-4 months): Complete the course. — *success:* ten interviews and _two_ referrals\n\n"
                 "A `user_profile` field and snake_case_names stay as they are; 5 * 3 = 15.")
    text = read(doc)
    assert "success: ten interviews and two referrals" in " ".join(text.split())
    assert "*" not in text.replace("5 * 3", "") and "`" not in text
    assert "user_profile" in text and "snake_case_names" in text
    assert {"/Helvetica-Oblique", "/Helvetica-Bold"} <= fonts(doc)


def test_escaped_outside_text_shows_as_written():
    written = "Client said: **not bold** [a link](http://x.example) <b>tag</b> `tick` | pipe _under_ 1. #5"
    doc = PdfDocument("Escapes")
    doc.markdown(f"## About {escape_markdown('*you*')}\n\nQuote: “{escape_markdown(written)}”\n\n"
                 f"| Who | Said |\n|---|---|\n| {escape_markdown('A|B')} | {escape_markdown('*x*')} |")
    text = " ".join(read(doc).split())
    assert f"Quote: “{written}”" in text
    assert "\\" not in text
    assert "A|B *x*" in text  # an escaped pipe stays inside its cell
    assert "About *you*" in text and plain_markdown(f"About {escape_markdown('*you*')}") == "About *you*"
