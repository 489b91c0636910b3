"""The research report's downloads (Markdown, DOCX, PDF) from English and Chinese run states, hostile text included."""

from __future__ import annotations

import io
import re

import pytest
from docx import Document
from docx.enum.text import WD_COLOR_INDEX
from docx.oxml.ns import qn
from markdown_it import MarkdownIt
from pypdf import PdfReader

from pipelines.deep_research.export_parts import claim_spans, mark_claims, title
from pipelines.deep_research.exports import EAST_ASIAN_FONT, research_docx, research_markdown
from pipelines.deep_research.pdf_report import _highlight, research_pdf

SCRIPT = "<script>alert(1)</script>"
IMAGE = "![x](http://evil/x.png)"
LINK = "[click](javascript:alert(1))"
HOSTILE = f"{SCRIPT} {IMAGE} {LINK}"
UNSUPPORTED_EN = "Costs rose 47% in the second half [3]."
UNSUPPORTED_ZH = "下半年成本上涨了百分之四十七 [3]。"

REPORT_EN = f"""# Battery costs in 2023

## Key points

- Pack costs fell 14% in 2023 [1].
- {UNSUPPORTED_EN}
- An uploaded file said {SCRIPT} [2].

## Overview

The annual report describes falling costs [1][2]. {IMAGE} See {LINK} for more. Cell prices were **stable** [9].

## Detailed analysis

### Costs by segment

| Segment | 2022 (USD/kWh) | 2023 (USD/kWh) |
|---|---:|---:|
| Packs | 151 | 139 |
| Cells | 120 | 105 |

### Outlook

Analysts expect a further fall in 2024 [2].

```
if a<b and c>d: print("<b>")
```

## Key citations

- [1] report_2023.pdf
"""

REPORT_ZH = f"""# 2023 年电池成本

## 要点

- 2023 年电池包成本下降 14% [1]。
- {UNSUPPORTED_ZH}

## 概述

年度报告显示成本持续下降 [1][2]。{SCRIPT} {IMAGE} 参见 {LINK}。**电芯价格**在第四季度保持稳定 [9]。

## 详细分析

### 分部成本

| 分部 | 2022 年 | 2023 年 |
|---|---|---|
| 电池包 | 151 | 139 |
| 电芯 | 120 | 105 |
"""


def make_state(zh: bool = False) -> dict:
    citations = [
        {"n": 1, "passage_id": "c3f#4", "document": "年度报告_2023.pdf" if zh else "report_2023.pdf",
         "title": "2023 年年度报告" if zh else "Annual report 2023", "collection": "uploads", "page": 3,
         "section": "结果 > 成本" if zh else "Results > Costs", "chunk": 4,
         "text": "电池包成本下降了 14%。" if zh else "Pack costs fell 14% over the year."},
        {"n": 2, "passage_id": "a1#2", "document": "market_notes.docx", "title": HOSTILE, "collection": "uploads",
         "page": None, "section": "", "chunk": 2, "text": f"Notes: {HOSTILE}"},
        {"n": 3, "passage_id": "b2#1", "document": "survey.xlsx", "title": "", "collection": "uploads",
         "page": None, "section": "Sheet1", "chunk": 1, "text": "Costs in the second half were flat."},
    ]
    check = {"claims": 12, "supported": 11, "invalid_refs": [9], "unsupported": [
        {"sentence": UNSUPPORTED_ZH if zh else UNSUPPORTED_EN, "refs": [3],
         "reason": "来源 3 没有提到 47%" if zh else "passage 3 does not state 47%"}]}
    return {"final_report": REPORT_ZH if zh else REPORT_EN, "citations": citations, "citation_check": check,
            "user_query": "2023 年电池成本如何变化？" if zh else "How did battery costs change in 2023?",
            "locale": "zh-CN" if zh else "en-US",
            "current_plan": {"title": "2023 年电池成本" if zh else "Battery costs in 2023", "steps": []}}


def flat(value: str) -> str:
    return re.sub(r"\s+", " ", value)


def pdf_text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    return flat("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages))


def docx_of(data: bytes):
    assert data.startswith(b"PK")
    return Document(io.BytesIO(data))


def docx_text(doc) -> str:
    cells = [cell.text for table in doc.tables for row in table.rows for cell in row.cells]
    return "\n".join([p.text for p in doc.paragraphs] + cells)


def inline_tokens(tokens):
    for token in tokens:
        yield token
        yield from inline_tokens(token.children or [])


# Markdown -----------------------------------------------------------------------------------------------
def test_markdown_export_is_sanitised_and_lists_sources_and_the_check():
    md = research_markdown(make_state())
    # CommonMark with raw HTML allowed: nothing from the report or a passage may become a tag, image or link
    parser = MarkdownIt("commonmark")
    kinds = {t.type for t in inline_tokens(parser.parse(md))}
    assert not kinds & {"image", "link_open", "html_inline", "html_block"}, kinds
    html = parser.render(md).replace("\u2060", "")
    assert "<script" not in html and "<img" not in html and "<a " not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the text survives, as text
    assert "See click" in html
    assert "![x](http://evil/x.png)" in html and "[click](javascript:alert(1))" in html  # a passage, quoted
    assert "[1] report_2023.pdf — Annual report 2023, p. 3 / § Results &gt; Costs" in html
    assert "[3] survey.xlsx — § Sheet1" in html and "market_notes.docx" in html
    assert "Citation check: 11 of 12 cited claims supported" in md
    assert "“Costs rose 47% in the second half [3].” [3] — passage 3 does not state 47%" in html
    assert "Citation markers with no source: [9]" in html
    assert md.startswith("# Battery costs in 2023\n")


@pytest.mark.parametrize("definition", ["> [1]: http://evil.com", "- [1]: http://evil.com",
                                        "- a\n  - b\n\n    [1]: http://evil.com", "[1]: http://evil.com"])
def test_a_reference_definition_cannot_link_the_citation_markers(definition):
    state = make_state()
    state["final_report"] = f"# T\n\nCosts fell [1].\n\n{definition}\n"
    html = MarkdownIt("commonmark").render(research_markdown(state))
    assert "<a " not in html and "Costs fell [1]." in html


def test_markdown_export_in_chinese_and_without_a_check():
    state = make_state(zh=True)
    md = research_markdown(state)
    assert "## 参考来源" in md and "年度报告\\_2023.pdf" in md and "第 3 页" in md
    assert "引用核查：12 条引用论断中 11 条有来源支持" in md
    del state["citation_check"]
    assert "引用核查：未核查" in research_markdown(state)
    state["locale"] = "en-US"
    assert "Citation check: not checked" in research_markdown(state)


# DOCX ---------------------------------------------------------------------------------------------------
def test_docx_has_headings_table_sources_check_and_a_flagged_claim():
    doc = docx_of(research_docx(make_state()))
    styles = {p.text: p.style.name for p in doc.paragraphs}
    assert styles["Battery costs in 2023"] == "Title"
    assert styles["Key points"] == styles["Sources"] == styles["Citation check"] == "Heading 1"
    assert styles["Costs by segment"] == "Heading 2"
    assert [[c.text for c in row.cells] for row in doc.tables[0].rows] == [
        ["Segment", "2022 (USD/kWh)", "2023 (USD/kWh)"], ["Packs", "151", "139"], ["Cells", "120", "105"]]
    assert all(run.bold for run in doc.tables[0].rows[0].cells[0].paragraphs[0].runs)
    text = docx_text(doc)
    assert "Question: How did battery costs change in 2023?" in text
    assert text.count("Citation check: 11 of 12 cited claims supported") == 2  # near the top and in its section
    assert "[1] report_2023.pdf — Annual report 2023, p. 3 / § Results > Costs" in text
    assert f"[2] market_notes.docx — {HOSTILE}" in text  # outside text goes in as it is, never as markup
    assert f"An uploaded file said {SCRIPT} [2]." in text and "See click" in text
    assert 'if a<b and c>d: print("<b>")' in text
    assert "Citation markers with no source: [9]" in text
    flagged = next(p for p in doc.paragraphs if p.text.startswith("Costs rose 47%"))
    assert flagged.text == f"{UNSUPPORTED_EN} ⚠ unsupported" and flagged.style.name == "List Bullet"
    assert flagged.runs[0].font.highlight_color == WD_COLOR_INDEX.YELLOW
    assert "“Costs rose 47% in the second half [3].” [3] — passage 3 does not state 47%" in text
    # no image or hyperlink reached the package
    assert not [r for r in doc.part.rels.values() if "image" in r.reltype or "hyperlink" in r.reltype]


def test_docx_in_chinese_sets_an_east_asian_font():
    doc = docx_of(research_docx(make_state(zh=True)))
    text = docx_text(doc)
    assert "研究问题：2023 年电池成本如何变化？" in text and "参考来源" in text
    assert f"{UNSUPPORTED_ZH} ⚠ 依据不足" in text
    assert "[1] 年度报告_2023.pdf — 2023 年年度报告, 第 3 页 / § 结果 > 成本" in text
    assert [c.text for c in doc.tables[0].rows[1].cells] == ["电池包", "151", "139"]
    for name in ("Normal", "Title", "Heading 1", "Heading 2"):
        fonts = doc.styles[name].element.rPr.rFonts
        assert fonts.get(qn("w:eastAsia")) == EAST_ASIAN_FONT, name
        assert fonts.get(qn("w:eastAsiaTheme")) is None, name  # a theme font would win over it
    assert doc.styles["List Bullet"].element.rPr is None  # it takes Normal's fonts
    run = next(r for p in doc.paragraphs for r in p.runs if "要点" in r.text)
    assert run._r.rPr.rFonts.get(qn("w:eastAsia")) == EAST_ASIAN_FONT
    assert doc.core_properties.title == "2023 年电池成本"


# PDF ----------------------------------------------------------------------------------------------------
def test_pdf_in_english_has_the_query_figure_sources_and_flag():
    text = pdf_text(research_pdf(make_state()))
    for part in ("Battery costs in 2023", "How did battery costs change in 2023?", "11 of 12 cited claims supported",
                 "Claims the sources do not support", "passage 3 does not state 47%",
                 "Citation markers with no source: [9]", "report_2023.pdf", "market_notes.docx", "survey.xlsx",
                 "p. 3 / § Results > Costs", "§ Sheet1", "Annual report 2023", "Segment", "Packs",
                 f"{UNSUPPORTED_EN} ▲ unsupported", f"An uploaded file said {SCRIPT} [2].", HOSTILE):
        assert part in text, part
    assert text.index("11 of 12 cited claims supported") < text.index("Key points")  # the figure comes first
    assert text.index("Key points") < text.index("survey.xlsx")
    assert "![x](http://evil/x.png) See" not in text  # the report's image became its alt text
    assert 'if a<b and c>d: print("<b>")' in text  # code as written, without the sanitiser's escapes


def test_pdf_in_chinese_renders_chinese():
    text = pdf_text(research_pdf(make_state(zh=True)))
    for part in ("2023 年电池成本如何变化？", "12 条引用论断中 11 条有来源支持", "来源不支持的论断", "年度报告_2023.pdf",
                 "第 3 页 / § 结果 > 成本", "电池包", "参考来源", f"{UNSUPPORTED_ZH} ▲ 依据不足", "来源 3 没有提到 47%"):
        assert part in text, part


def test_pdf_highlight_keeps_tags_nested():
    lit = _highlight('<b>a \ue000b</b> <font face="STSong-Light">中\ue001文</font>', "▲ flag")
    assert lit.count("<font") == lit.count("</font>") and lit.count("<b>") == lit.count("</b>")
    assert lit.startswith('<b>a </b><font backColor="#FFE8A3"><b>b</b>')
    unclosed = _highlight("\ue000open to the end", "!")
    assert unclosed.rstrip().endswith("</b></font>") and unclosed.count("<font") == unclosed.count("</font>")


# shared -------------------------------------------------------------------------------------------------
def test_claims_are_found_across_markers_emphasis_and_line_breaks():
    body = "First point [1]. **Costs rose** 47% in\nthe second half [3][4]. Next."
    start, end = claim_spans(body, ["Costs rose 47% in the second half"])[0]
    assert body[start:end] == "Costs rose** 47% in\nthe second half [3][4]."  # the highlight opens inside the bold
    zh = "**下半年成本上涨了百分之四十七** [3]。下一句。"
    start, end = claim_spans(zh, [UNSUPPORTED_ZH])[0]
    assert zh[start:end] == "下半年成本上涨了百分之四十七** [3]。"
    assert claim_spans(body, ["short"]) == [] and claim_spans(body, ["not in the text at all"]) == []
    assert mark_claims("a \\<b\\> claim here [2].", ["<b> claim here"]) == "a \ue000\\<b\\> claim here [2].\ue001"


def test_title_comes_from_the_plan_then_the_report_then_the_query():
    assert title({"current_plan": '{"title": "From JSON"}'}, "en", "# Report") == "From JSON"
    assert title({"current_plan": "not json"}, "en", "# Report **title**") == "Report title"
    assert title({"user_query": "A question"}, "en", "") == "A question"
    assert title({}, "zh", "") == "研究报告"


EMPTY_STATES = [
    {},
    {"final_report": None, "citations": None, "citation_check": None, "user_query": None, "locale": None,
     "current_plan": None},
    {"final_report": "", "citations": [], "citation_check": {}, "locale": "zh-CN", "current_plan": ""},
    {"final_report": "text with \x00 control \x1b chars and 🔥 | a |\n|---|\n| b |", "citations": [None, "x", {"n": "a"}],
     "citation_check": {"claims": "many", "unsupported": ["a bare sentence", {"refs": "3"}, None], "invalid_refs": "9"},
     "current_plan": ["not", "a", "plan"], "user_query": 42},
]


@pytest.mark.parametrize("state", EMPTY_STATES)
def test_empty_or_odd_states_give_valid_files(state):
    md = research_markdown(state)
    assert md.startswith("# ")
    doc = docx_of(research_docx(state))
    assert doc.paragraphs[0].style.name == "Title"
    text = pdf_text(research_pdf(state))
    assert "Page 1 of 1" in text
    if not state.get("citation_check"):
        assert ("not checked" in text or "未核查" in text) and ("not checked" in md or "未核查" in md)
