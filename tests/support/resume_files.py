"""Resume files made by the tests: a PDF (ReportLab, CJK-capable) and a DOCX (python-docx) from plain lines."""

from __future__ import annotations

import io

from pipelines.core.pdf.document import PdfDocument

RESUME_EN = """Daniel Kim
Summary: Data-minded chemist who automates lab analysis.
Experience
Laboratory Technician, FreshFoods Testing Ltd 2020 - present
Run chemical and microbiological tests; analyse results with Python and Excel; write quality reports.
Education
Bachelor of Science in Chemistry, Lakeside University, 2020
Skills
Python, SQL, statistics, laboratory testing, data analysis"""

RESUME_ZH = """王芳
求职意向：UI设计师
工作经历
2018 - 至今 语文教师，第一中学
负责初二语文教学，设计学校海报和公众号排版。
教育背景
本科 汉语言文学 师范大学 2018
技能
Photoshop、Figma、平面设计、写作"""


def make_pdf(text: str) -> bytes:
    """The first line (the name) as the document title, the rest as paragraphs."""
    first, *rest = text.splitlines()
    doc = PdfDocument(first)
    for line in rest:
        doc.paragraph(line)
    return doc.build()


def make_docx(text: str) -> bytes:
    from docx import Document

    document = Document()
    for line in text.splitlines():
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
