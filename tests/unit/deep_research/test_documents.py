"""Research documents: every supported format read with its pages or sections, chunks of whole sentences with
overlap, and every way a file can be unusable ending in a DocumentError that names the file."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from pipelines.deep_research.documents import (MAX_DOCUMENT_BYTES, SUFFIXES, Chunk, DocumentError, LoadedDocument,
                                               Section, chunk_document, load_document, split_sentences)

DEVSET = Path(__file__).resolve().parents[2] / "devsets" / "research" / "docs"
EN_SENTENCES = ["The recovery rate rose to 9.8% in 2023, e.g. in Hubei province, while costs fell by 1.2 points.",
                "Dr. Chen says collection networks matter more than plant capacity."]
EN_PAGE = " ".join(EN_SENTENCES) + " "
ZH_PAGE = "电池回收率在2023年达到9.8%。政策要求企业建立回收网络！这样的要求是否足够？地方政府还在评估效果。"


def _pdf(tmp_path: Path) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    styles = getSampleStyleSheet()
    chinese = ParagraphStyle("zh", parent=styles["Normal"], fontName="STSong-Light", leading=16)
    path = tmp_path / "battery.pdf"
    SimpleDocTemplate(str(path), pagesize=A4, title="Battery Recycling Study").build([
        Paragraph("Introduction", styles["Heading1"]), Paragraph(EN_PAGE * 4, styles["Normal"]), PageBreak(),
        Paragraph(ZH_PAGE * 3, chinese), PageBreak(),
        Paragraph("Outlook: approx. five plants will open. The last page ends here.", styles["Normal"])])
    return path.read_bytes()


def _docx(tmp_path: Path) -> bytes:
    from docx import Document

    document = Document()
    document.add_heading("Plant Survey", level=0)
    document.add_paragraph("This survey covers three plants. It was run in 2024.")
    document.add_heading("Results", level=1)
    document.add_heading("Costs", level=2)
    document.add_paragraph("Costs fell by 9.8% last year. Energy was the largest item.")
    table = document.add_table(rows=2, cols=2)
    for row, values in zip(table.rows, [("Plant", "Cost"), ("North", "1.2 million")]):
        for cell, value in zip(row.cells, values):
            cell.text = value
    document.add_heading("结论", level=1)
    document.add_paragraph("回收率稳步提高。成本仍需控制。")
    path = tmp_path / "survey.docx"
    document.save(str(path))
    return path.read_bytes()


MARKDOWN = """# Battery Report

Opening words of the report.

## Results

The rate rose to 9.8% in 2023, e.g. in Hubei.
This line wraps the same paragraph in the source.

- first item
- second item with **bold** words

### Costs

Costs fell. Energy was the largest item.

## 结论

回收率达到百分之九点八。政策要求企业建立回收网络！

### 下一步

继续评估。
"""

HTML = """<!doctype html><html><head><meta charset="utf-8"><title>Grid Report</title>
<style>body { color: red; }</style><script>var secret = "tracking code";</script></head>
<body><h1>Grid Report</h1><p>The grid added <b>1.2 GW</b> of storage. Prices
 fell sharply.</p><div><h2>Storage</h2></div><p>Batteries lead.</p>
<script>alert("do not index me")</script><h3>Costs</h3><ul><li>Lithium fell.</li><li>Labour rose.</li></ul>
<h2>电网</h2><p>储能增加了。价格下降了！</p></body></html>"""


def _csv(rows: int = 95) -> bytes:
    lines = ["city,share,note"] + [f"City {i},{i / 10:.1f}%,{'ok' if i % 2 else ''}" for i in range(1, rows + 1)]
    return "\n".join(lines).encode()


def _sentences_whole(document: LoadedDocument, chunks: list[Chunk]) -> None:
    """Every sentence of a chunk is a sentence of its own section: no chunk starts or ends mid-sentence."""
    for chunk in chunks:
        source = [s for s in document.sections if s.page == chunk.page and s.section == chunk.section]
        sentences = {s for section in source for s in split_sentences(section.text)}
        assert chunk.text.strip() and set(split_sentences(chunk.text)) <= sentences, chunk


def test_suffixes_name_every_supported_format():
    assert set(SUFFIXES) == {".pdf", ".docx", ".md", ".markdown", ".txt", ".html", ".htm", ".csv", ".xlsx"}
    assert MAX_DOCUMENT_BYTES == 50 * 1024 * 1024


def test_pdf_pages_keep_their_numbers_and_the_chinese_page_is_read(tmp_path):
    document = load_document("reports/battery.pdf", _pdf(tmp_path))
    assert (document.name, document.title, document.kind, document.pages) == (
        "battery.pdf", "Battery Recycling Study", "PDF", 3)
    assert [s.page for s in document.sections] == [1, 2, 3]
    assert "9.8%" in document.sections[0].text and "政策要求企业建立回收网络！" in document.sections[1].text
    chunks = chunk_document(document, max_chars=300, overlap_chars=120)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert {c.page for c in chunks} == {1, 2, 3}
    assert all("回收" in c.text for c in chunks if c.page == 2) and not any("回收" in c.text for c in chunks if c.page != 2)
    assert all(len(c.text) <= 300 for c in chunks)
    _sentences_whole(document, chunks)
    # a wrapped line of the PDF is not a sentence end: each sentence comes out whole, every time
    assert split_sentences(document.sections[0].text) == ["Introduction"] + EN_SENTENCES * 4


def test_chunks_carry_whole_trailing_sentences_as_overlap_within_a_page_only(tmp_path):
    document = load_document("battery.pdf", _pdf(tmp_path))
    chunks = chunk_document(document, max_chars=250, overlap_chars=150)
    overlapped = 0
    for before, after in zip(chunks, chunks[1:]):
        last = split_sentences(before.text)[-1]
        if before.page == after.page:
            overlapped += after.text.startswith(last) and len(last) <= 150
        else:
            assert not after.text.startswith(last)
    assert overlapped >= 2


def test_no_overlap_when_asked_for_none(tmp_path):
    chunks = chunk_document(load_document("battery.pdf", _pdf(tmp_path)), max_chars=250, overlap_chars=0)
    assert all(not b.text.startswith(split_sentences(a.text)[-1]) for a, b in zip(chunks, chunks[1:]))


def test_markdown_headings_become_section_paths_and_open_their_first_chunk():
    document = load_document("report.md", MARKDOWN.encode())
    assert document.title == "Battery Report" and document.kind == "Markdown"
    by_section = {s.section: s.text for s in document.sections}
    assert set(by_section) == {"Battery Report", "Battery Report > Results", "Battery Report > Results > Costs",
                               "Battery Report > 结论", "Battery Report > 结论 > 下一步"}
    assert "9.8% in 2023, e.g. in Hubei. This line wraps" in by_section["Battery Report > Results"]
    assert "- second item with bold words" in by_section["Battery Report > Results"]
    chunks = chunk_document(document, max_chars=120, overlap_chars=40)
    first = {}
    for chunk in chunks:
        first.setdefault(chunk.section, chunk.text)
    assert first["Battery Report > Results > Costs"].startswith("Costs\n")
    assert first["Battery Report > 结论"].startswith("结论\n")
    assert not any("#" in c.text or "**" in c.text for c in chunks)
    _sentences_whole(document, chunks)


def test_html_drops_scripts_and_styles_and_sections_on_headings():
    document = load_document("grid.html", HTML.encode())
    assert document.title == "Grid Report" and document.kind == "HTML"
    assert [s.section for s in document.sections] == ["Grid Report", "Grid Report > Storage",
                                                      "Grid Report > Storage > Costs", "Grid Report > 电网"]
    text = "\n".join(s.text for s in document.sections)
    assert "secret" not in text and "alert" not in text and "color" not in text
    assert "The grid added 1.2 GW of storage." in split_sentences(document.sections[0].text)
    assert split_sentences(document.sections[-1].text) == ["电网", "储能增加了。", "价格下降了！"]


def test_docx_headings_from_paragraph_styles_become_sections(tmp_path):
    document = load_document("survey.docx", _docx(tmp_path))
    assert document.title == "Plant Survey" and document.kind == "DOCX"
    assert [s.section for s in document.sections] == ["", "Results > Costs", "结论"]
    costs = document.sections[1].text
    assert costs.startswith("Results\nCosts\n") and "Costs fell by 9.8% last year." in costs
    assert "North | 1.2 million" in costs
    chunks = chunk_document(document, max_chars=60, overlap_chars=30)
    assert {c.section for c in chunks} == {"", "Results > Costs", "结论"}
    _sentences_whole(document, chunks)


def test_csv_rows_become_labelled_groups_of_col_value_text():
    document = load_document("cities.csv", _csv())
    assert [s.section for s in document.sections] == ["rows 1-40", "rows 41-80", "rows 81-95"]
    first = document.sections[0].text.split("\n")
    assert first[0] == "city: City 1; share: 0.1%; note: ok" and first[1] == "city: City 2; share: 0.2%"
    chunks = chunk_document(document, max_chars=200)
    assert chunks[0].section == "rows 1-6" and chunks[0].text.split("\n")[-1].startswith("city: City 6;")
    assert all(len(c.text) <= 200 for c in chunks)
    rows = [line for c in chunks for line in c.text.split("\n")]
    assert len(rows) == 95  # whole rows, none repeated as overlap


def test_semicolon_csv_and_gbk_text_are_detected_not_assumed():
    document = load_document("成本.csv", "城市;份额\n北京;9.8%\n上海;1.2%\n".encode("gbk"))
    assert document.sections[0].text == "城市: 北京; 份额: 9.8%\n城市: 上海; 份额: 1.2%"
    text = "电池回收率达到9.8%。政策要求企业建立回收网络！\n这样的要求是否足够？地方政府正在评估。"
    document = load_document("报告.txt", text.encode("gbk"))
    assert document.kind == "text" and document.title == "" and document.pages == 1
    assert split_sentences(document.sections[0].text) == ["电池回收率达到9.8%。", "政策要求企业建立回收网络！",
                                                          "这样的要求是否足够？", "地方政府正在评估。"]


def test_long_sentences_are_cut_only_when_they_must_be():
    words = "，".join(f"第{i}项指标保持稳定" for i in range(40)) + "。"
    document = LoadedDocument("long.txt", "", "text", [Section(f"短句一。{words}短句二。")])
    chunks = chunk_document(document, max_chars=100, overlap_chars=20)
    assert chunks[0].text.startswith("短句一。") and all(0 < len(c.text) <= 100 for c in chunks)
    assert "".join(c.text for c in chunks).count("第39项指标保持稳定") == 1
    assert chunks[-1].text.endswith("短句二。")


@pytest.mark.parametrize("text,expected", [
    ("The rate rose to 9.8% in 2023. It was 1.2 points higher! Why? Nobody knows.",
     ["The rate rose to 9.8% in 2023.", "It was 1.2 points higher!", "Why?", "Nobody knows."]),
    ("Dr. Chen met Mr. Li, e.g. at the U.S. office. Costs fell approx. five points. See fig. 3 below.",
     ["Dr. Chen met Mr. Li, e.g. at the U.S. office.", "Costs fell approx. five points.", "See fig. 3 below."]),
    ("回收率达到9.8%。政策要求企业建立网络！是否足够？“是的。”他说。",
     ["回收率达到9.8%。", "政策要求企业建立网络！", "是否足够？", "“是的。”", "他说。"]),
    ("Key points:\n1. Demand grew\n2. Prices fell. Margins held\n- see annex\n## Next steps",
     ["Key points:", "1. Demand grew", "2. Prices fell.", "Margins held", "- see annex", "## Next steps"]),
    ("Visit example.com/a?b=1 today. Mixed 中文句子。And English again.",
     ["Visit example.com/a?b=1 today.", "Mixed 中文句子。", "And English again."]),
    ("", []),
])
def test_split_sentences(text, expected):
    assert split_sentences(text) == expected


def test_names_lose_their_folders_and_pages_are_estimated_for_text():
    document = load_document("C:\\Users\\amy\\notes.md", ("word " * 900).encode())
    assert document.name == "notes.md" and document.pages == 3 and document.chars == len("word " * 900) - 1


def _xlsx_bytes() -> bytes:
    import openpyxl

    buffer = io.BytesIO()
    openpyxl.Workbook().save(buffer)
    return buffer.getvalue()


def _zip_without_docx() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "hi")
    return buffer.getvalue()


def _pdf_without_text() -> bytes:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer)
    page.rect(100, 100, 200, 200, fill=1)
    page.showPage()
    page.save()
    return buffer.getvalue()


def _locked_pdf() -> bytes:
    from reportlab.lib import pdfencrypt
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, encrypt=pdfencrypt.StandardEncryption("secret"))
    page.drawString(72, 720, "Hidden words.")
    page.showPage()
    page.save()
    return buffer.getvalue()


JUNK = bytes(range(128, 256)) * 20


@pytest.mark.parametrize("name,data,reason", [
    ("setup.exe", b"MZ binary", "only PDF, DOCX, Markdown, TXT, HTML, CSV or Excel (.xlsx) files can be added"),
    ("old.doc", b"\xd0\xcf\x11\xe0", "only PDF, DOCX, Markdown, TXT, HTML, CSV or Excel (.xlsx) files can be added"),
    ("huge.txt", b"a" * (MAX_DOCUMENT_BYTES + 1), "documents up to 50 MB"),
    ("empty.md", b"", "is empty"),
    ("blank.txt", b" \n\t \n", "is empty"),
    ("fake.pdf", b"GIF89a not a pdf", "is not a PDF file"),
    ("broken.pdf", b"%PDF-1.7\n this is not really a pdf \x00\x01", "is not a readable PDF: it is damaged or incomplete"),
    ("scan.pdf", _pdf_without_text(), "a scanned PDF needs OCR first"),
    ("locked.pdf", _locked_pdf(), "password-protected"),
    ("old.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64, "not a Word .docx file"),
    ("renamed.docx", _zip_without_docx(), "is not a Word document (.docx)"),
    ("cut.docx", b"PK\x03\x04" + b"half a download" * 20, "is not a Word document (.docx)"),
    ("sheet.docx", _xlsx_bytes(), "is not a Word document (.docx)"),
    ("notes.xlsx", _zip_without_docx(), "is not an Excel workbook (.xlsx)"),
    ("wide.csv", b"a,b\n" + b"x" * 200_000 + b",1\n", "has a cell longer than 131,072 characters"),
    ("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is not a text file"),
    ("junk.md", JUNK, "is not readable text"),
    ("junk.csv", b"a,b\n1,2\n\x00\x00\x00", "is not a text file"),
    ("junk.txt", JUNK, "is not readable text"),
    ("empty.html", b"<html><script>var a = 1;</script></html>", "has no text to read"),
])
def test_unusable_files_say_why_and_name_the_file(name, data, reason):
    with pytest.raises(DocumentError) as caught:
        load_document(name, data)
    message = str(caught.value)
    assert name in message and reason in message
    # never the reader library's own words: no exception class, no temporary path
    assert not re.search(r"KeyError|BadZipFile|PdfStreamError|RuntimeError|ValueError|/tmp/|stepwise-research-", message)


def test_every_devset_document_yields_chunks_with_sections():
    paths = sorted(DEVSET.glob("*.md"))
    assert len(paths) == 10
    for path in paths:
        document = load_document(path.name, path.read_bytes())
        chunks = chunk_document(document)
        assert document.kind == "Markdown" and document.title, path.name
        assert chunks and all(c.section and c.text.strip() and len(c.text) <= 900 for c in chunks), path.name
        _sentences_whole(document, chunks)
