"""PdfDocument builds real PDFs: read back with pypdf for text, pages, CJK, escaping and wrapping."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from pipelines.core.pdf.document import PdfDocument, inline_markdown, markup

CHINESE = "检查点超时，作业重启"


def read(doc: PdfDocument) -> tuple[PdfReader, str]:
    pdf = doc.build()
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def test_a_document_has_its_title_date_and_page_numbers(tmp_path):
    doc = PdfDocument("Weekly report", subtitle="All jobs", date="2025-03-01")
    doc.heading("First", 1)
    doc.paragraph("Hello world")
    doc.page_break()
    doc.heading("Second", 2)
    doc.paragraph("Bye")
    reader, text = read(doc)
    assert len(reader.pages) == 2
    assert "Page 1 of 2" in text and "Page 2 of 2" in text
    assert text.count("2025-03-01") == 2 and "All jobs" in text
    assert reader.metadata.title == "Weekly report"
    first, children = reader.outline  # h2 nests under the h1 before it in the viewer's outline
    assert first.title == "First" and [c.title for c in children] == ["Second"]
    assert doc.save(tmp_path / "r.pdf").read_bytes() == doc.build()


def test_chinese_text_comes_back_from_the_pdf():
    doc = PdfDocument(f"诊断报告 {CHINESE}", date="2025年3月1日")
    doc.heading("根因", 2)
    doc.paragraph(f"Mixed English and Chinese: {CHINESE}. Then English again.")
    doc.table(["类别", "count"], [[CHINESE, 3]])
    doc.markdown(f"- **{CHINESE}**\n\n`{CHINESE}`")
    doc.key_values([("说明", CHINESE)])
    _, text = read(doc)
    assert text.count(CHINESE) >= 6
    assert "根因" in text and "2025年3月1日" in text


def test_markup_characters_in_user_text_survive():
    doc = PdfDocument("Escaping <init> & co")
    sample = "at Foo.<init>(Foo.java:12) took <NUM> ms & failed </b> <font>"
    doc.paragraph(sample)
    doc.markdown(f"Text with **bold <b>** and `code <init> & more`\n\n```\n{sample}\n```")
    doc.table(["a<b", "c&d"], [[sample, "<NUM>"]])
    _, text = read(doc)
    assert text.count("Foo.<init>(Foo.java:12) took <NUM> ms & failed </b> <font>") >= 3
    assert "bold <b>" in text and "code <init> & more" in text and "a<b" in text and "c&d" in text


def test_markup_helpers_escape_and_switch_fonts():
    assert markup("<init> & 中") == '&lt;init&gt; &amp; <font face="STSong-Light">中</font>'
    code = '<font face="Courier" size="-1" color="#8A2D3B">x&amp;y</font>'
    assert inline_markdown("**a<b** `x&y` c") == f"<b>a&lt;b</b> {code} c"
    assert markup("a\x00b\r\nc") == "ab\nc"
    assert markup("ok 🔥") == 'ok <font face="STSong-Light">\u25a1</font>'  # no UCS-2 surrogate garbage


def test_a_long_unbroken_token_wraps_inside_the_page():
    token = "org.apache.flink.VeryLongClassName$" + "x" * 3000
    doc = PdfDocument("Long tokens")
    doc.paragraph(token)
    doc.code(token)
    doc.table(["frame"], [[token]])
    doc.paragraph(CHINESE + token)
    reader, text = read(doc)
    lines = [ln for ln in text.splitlines() if "xxxx" in ln]
    assert len(lines) > 30  # split over many lines rather than run off the page
    assert max(len(ln) for ln in lines) < 200
    assert len(re.sub(r"[^x]", "", text)) >= 3 * 3000 + 1400  # table cells are cut at 1500 characters


def test_a_long_table_spans_pages_with_the_header_repeated():
    doc = PdfDocument("Long table")
    rows = [[i, f"job-{i}", "checkpoint timeout " * (i % 4), "high"] for i in range(300)]
    doc.table(["ID", "Job", "Category", "Priority"], rows, col_widths=[0.1, 0.3, 0.45, 0.15],
              cell_colors={(0, 3): "#F8D7DA", (5, None): "#FFF3CD"})
    reader, text = read(doc)
    assert len(reader.pages) >= 5
    assert all("ID" in page.extract_text() and "Priority" in page.extract_text() for page in reader.pages)
    assert "job-299" in text and f"Page {len(reader.pages)} of {len(reader.pages)}" in text


def test_markdown_subset():
    doc = PdfDocument("Markdown")
    doc.markdown("# Top\n\nA paragraph\nover two lines.\n\n## Sub\n- one\n- two\n1. first\n\n### Small\n"
                 "```python\nif x:\n    return y\n```\nAfter.")
    reader, text = read(doc)
    for part in ("Top", "A paragraph over two lines.", "Sub", " one\n", " two\n", "1. first", "Small",
                 "if x:", "return y", "After."):
        assert part in text, part
    assert "```" not in text and "#" not in text


def test_markdown_tables_and_quotes():
    doc = PdfDocument("Tables")
    doc.markdown("Before.\n| Occupation | Score |\n|---|---:|\n| **Data Scientists** | 0.93 |\n| 数据科学家 | 0.91 |\n"
                 "After the table.\n\n> A note to the reader.")
    _, text = read(doc)
    for part in ("Before.", "Occupation", "Data Scientists", "0.93", "数据科学家", "After the table.",
                 "A note to the reader."):
        assert part in text, part
    assert "|" not in text and "---" not in text and "**" not in text and ">" not in text


def test_charts_build_and_their_labels_are_in_the_pdf():
    doc = PdfDocument("Charts")
    doc.bar_chart(["Checkpoint timeout", "Heap out of memory", "检查点"], [5, 3, 1], title="Categories")
    doc.bar_chart(["high", "low"], [2, 1], title="Priorities", width=200)
    doc.bar_chart([], [], title="Empty bars")
    doc.histogram([0.1, 0.5, 0.52, 0.9, 1.0], bins=10, value_range=(0, 1), title="Confidence",
                  fmt=lambda v: f"{v:.0%}")
    doc.histogram([], title="Empty histogram")
    doc.pie_chart(["completed", "failed"], [8, 2], title="Status")
    doc.pie_chart(["only"], [1], title="One slice")
    doc.radar_chart(["Realistic", "Investigative", "Artistic", "Social", "Enterprising", "Conventional"],
                    [72, 88, 40, 55, 30, 120], title="Holland RIASEC")
    doc.radar_chart(["现实型", "研究型", "艺术型", "社会型", "企业型", "常规型"],
                    {"来访者": [72, 88, 40, 55, 30, 65], "Occupation": [50, 90, 20, 40, 60, 70]}, title="对比")
    reader, text = read(doc)
    for part in ("Categories", "Heap out of memory", "检查点", "Confidence", "100%", "Status", "completed — 8 (80%)",
                 "Holland RIASEC", "Investigative (88)", "研究型", "来访者", "Occupation", "No data"):
        assert part in text, part


def test_a_radar_chart_needs_three_axes_and_matching_values():
    doc = PdfDocument("Radar")
    with pytest.raises(ValueError, match="three axes"):
        doc.radar_chart(["a", "b"], [1, 2])
    with pytest.raises(ValueError, match="2 values for 3 axes"):
        doc.radar_chart(["a", "b", "c"], [1, 2])


def test_a_built_document_refuses_more_content():
    doc = PdfDocument("Once")
    doc.paragraph("x")
    first = doc.build()
    assert doc.build() is first
    with pytest.raises(RuntimeError):
        doc.paragraph("more")
