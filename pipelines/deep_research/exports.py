"""The research report's Markdown and Word (DOCX) downloads: the report, its sources and the citation check."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_COLOR_INDEX
from docx.oxml.ns import qn
from docx.shared import Pt, RGBColor
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from pipelines.core.markup import escape_markdown, unescape_markdown
from pipelines.core.pdf.markdown import CELL_SEPARATOR, LIST_ITEM, TABLE_RULE
from pipelines.core.pdf.text import plain_markdown
from pipelines.deep_research.export_parts import (SAY, Check, Source, body_markdown, check_summary, citation_check,
                                                   claim_spans, code_text, language, passage, refs_text, report_heading,
                                                   report_markdown, source_line, sources, text, title)

EAST_ASIAN_FONT = "Microsoft YaHei"  # Word's own Latin fonts have no Chinese glyphs
CODE_FONT = "Consolas"
FLAG_COLOR = RGBColor(0xB3, 0x26, 0x1E)
MUTED = RGBColor(0x6B, 0x74, 0x80)
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
# XML 1.0 has no place for control characters or lone surrogates: python-docx refuses the whole string.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
# A link reference definition inside a quote or a list item ("> [1]: http://…") outlives sanitize_markdown and
# would turn every [1] citation marker into a link: its bracket is escaped.
_NESTED_DEFINITION = re.compile(r"^([ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*)\[(?=[^\]\n]+\]:)", re.M)
# Inline Markdown as Word runs: escapes, `code`, **bold**, *italic*; anything else is plain text.
_INLINE = re.compile(r"(?P<escape>\\[!-/:-@\[-`{-~])|`(?P<code>[^`\n]+)`"
                     r"|\*\*(?P<bold>(?=\S)(?:\\.|[^*\\]|\*(?!\*))+?(?<=\S))\*\*"
                     r"|\*(?P<italic>(?=[^\s*])(?:\\.|[^*\\])+?(?<=\S))\*")


# Markdown -------------------------------------------------------------------------------------------------
def research_markdown(state: Mapping[str, Any]) -> str:
    """The report (sanitised: no images, links or HTML), its sources and the citation check, as Markdown."""
    state = state or {}
    lang = language(state)
    report = _NESTED_DEFINITION.sub(r"\1\\[", report_markdown(state))
    parts = [] if report_heading(report) else [f"# {escape_markdown(title(state, lang, report), line_breaks=False)}"]
    parts.append(report or SAY("empty", lang))
    parts.append(f"## {SAY('sources', lang)}")
    found = sources(state)
    lines = []
    for source in found:
        # \[n\]: a reference definition the sanitiser missed (in a quote or a list) cannot turn it into a link
        lines.append("- " + source_line(source, lang, _escape, number="\\[{n}\\]"))
        if source.passage.strip():
            lines.append(f"  > “{_escape(passage(source))}”")
    parts.append("\n".join(lines) if lines else SAY("no_sources", lang))
    check = citation_check(state)
    parts += [f"## {SAY('check', lang)}", check_summary(check, lang)]
    if check.unsupported:
        claims = [f"- “{_escape(c.sentence)}” {_escape(refs_text(c.refs))}".rstrip()
                  + (f" — {_escape(c.reason)}" if c.reason else "") for c in check.unsupported]
        parts.append(f"{SAY('unsupported', lang)}:\n\n" + "\n".join(claims))
    if check.invalid:
        parts.append(_escape(SAY("invalid", lang, refs=refs_text(check.invalid))))
    return "\n\n".join(parts).strip() + "\n"


def _escape(value: str) -> str:
    return escape_markdown(value, line_breaks=False)


# DOCX -----------------------------------------------------------------------------------------------------
def research_docx(state: Mapping[str, Any]) -> bytes:
    """The report as a Word document: headings, lists and tables from its Markdown, unsupported sentences
    highlighted and flagged, then the sources and the citation check. Every string goes in as plain text."""
    state = state or {}
    lang = language(state)
    report = report_markdown(state)
    doc_title = title(state, lang, report)
    check = citation_check(state)
    doc = Document()
    _east_asian_styles(doc)
    doc.core_properties.title = _xml(doc_title)[:250]
    _heading(doc, doc_title, 0)
    query = text(state.get("user_query")).strip()
    if query:
        _labelled(doc.add_paragraph(), SAY("query", lang), query)
    _run(doc.add_paragraph(), check_summary(check, lang), bold=True)
    body = body_markdown(report, doc_title)
    if body:
        _markdown(doc, body, [c.sentence for c in check.unsupported], lang)
    else:
        _run(doc.add_paragraph(), SAY("empty", lang), italic=True)
    _sources(doc, sources(state), lang)
    _check(doc, check, lang)
    buffer = io.BytesIO()
    doc.save(buffer)
    return buffer.getvalue()


def _xml(value: str) -> str:
    return _NOT_XML.sub("", value)


def _east_asian(rpr: Any) -> None:
    fonts = rpr.get_or_add_rFonts()
    fonts.set(qn("w:eastAsia"), EAST_ASIAN_FONT)
    # A theme font named next to it wins over the explicit one: drop it.
    fonts.attrib.pop(qn("w:eastAsiaTheme"), None)


def _east_asian_styles(doc: Any) -> None:
    """Chinese in every style: the document defaults and each style that names its own fonts."""
    for rpr in doc.styles.element.xpath("w:docDefaults/w:rPrDefault/w:rPr"):
        _east_asian(rpr)
    for style in doc.styles:
        if style.type in (WD_STYLE_TYPE.PARAGRAPH, WD_STYLE_TYPE.CHARACTER):
            rpr = style.element.rPr
            if style.name == "Normal" or (rpr is not None and rpr.rFonts is not None):
                _east_asian(style.element.get_or_add_rPr())


def _run(paragraph: Paragraph, value: str, bold: bool = False, italic: bool = False, code: bool = False,
         color: RGBColor | None = None, size: float | None = None) -> Run:
    value = _xml(value)
    run = paragraph.add_run(value)
    run.bold, run.italic = bold or None, italic or None
    if code:
        run.font.name = CODE_FONT
    if color is not None:
        run.font.color.rgb = color
    if size:
        run.font.size = Pt(size)
    if _CJK.search(value):
        _east_asian(run._r.get_or_add_rPr())
    return run


def _heading(doc: Any, value: str, level: int) -> None:
    paragraph = doc.add_heading("", level)
    _run(paragraph, value)


def _labelled(paragraph: Paragraph, label: str, value: str) -> None:
    _run(paragraph, f"{label}: " if not _CJK.search(label) else f"{label}：", bold=True)
    _run(paragraph, value)


def _segments(markdown: str) -> list[tuple[str, str]]:
    """(text, kind) pieces of one line of inline Markdown; kind is '', 'code', 'bold' or 'italic'."""
    out, pos = [], 0
    for match in _INLINE.finditer(markdown):
        out.append((unescape_markdown(markdown[pos:match.start()]), ""))
        kind = match.lastgroup or ""
        if kind == "escape":
            out.append((match.group()[1], ""))
        elif kind == "code":
            out.append((code_text(match.group(kind)), "code"))
        else:
            out.append((plain_markdown(match.group(kind)), kind))
        pos = match.end()
    out.append((unescape_markdown(markdown[pos:]), ""))
    return [(t, k) for t, k in out if t]


def _inline(paragraph: Paragraph, markdown: str, claims: Sequence[str], lang: str, bold: bool = False) -> None:
    """Runs for inline Markdown; an unsupported sentence is highlighted and followed by a red flag."""
    segments = _segments(markdown)
    plain = "".join(t for t, _ in segments)
    spans = claim_spans(plain, claims) if claims else []
    cuts = sorted({c for span in spans for c in span})
    pos = 0
    for value, kind in segments:
        start, end = pos, pos + len(value)
        pos = end
        points = [start, *(c for c in cuts if start < c < end), end]
        for a, b in itertools.pairwise(points):
            run = _run(paragraph, plain[a:b], bold=bold or kind == "bold", italic=kind == "italic",
                       code=kind == "code")
            if any(s <= a and b <= e for s, e in spans):
                run.font.highlight_color = WD_COLOR_INDEX.YELLOW
            if any(b == e for _, e in spans):
                after = plain[b:b + 1]
                gap = " " if after and not after.isspace() else ""  # "… [3]. ⚠ unsupported Next sentence"
                _run(paragraph, f" {SAY('flag', lang)}{gap}", bold=True, color=FLAG_COLOR)


def _markdown(doc: Any, markdown: str, claims: Sequence[str], lang: str) -> None:
    """Headings, paragraphs, lists, quotes, fenced code and pipe tables, like the PDF's Markdown."""
    para: list[str] = []

    def flush() -> None:
        if para:
            _inline(doc.add_paragraph(), " ".join(para), claims, lang)
            para.clear()

    lines, i = markdown.splitlines(), 0
    while i < len(lines):
        stripped = lines[i].strip()
        i += 1
        if stripped.startswith("```"):
            flush()
            block = list(itertools.takewhile(lambda ln: not ln.strip().startswith("```"), lines[i:]))
            paragraph = doc.add_paragraph()
            for n, line in enumerate(block):
                if n:
                    paragraph.add_run().add_break()
                _run(paragraph, code_text(line), code=True, size=9)
            i += len(block) + 1
        elif stripped.startswith("|"):
            flush()
            rows = [stripped, *itertools.takewhile(lambda ln: ln.strip().startswith("|"), lines[i:])]
            _table(doc, rows, claims, lang)
            i += len(rows) - 1
        elif match := _HEADING.match(stripped):
            flush()
            # The document's title is the Title style: '#' and '##' are its sections, '###' their parts.
            _heading(doc, plain_markdown(match.group(2).strip("# ")), min(max(len(match.group(1)) - 1, 1), 3))
        elif match := LIST_ITEM.match(lines[i - 1]):
            flush()
            if match.group(1):  # Word's own numbering would run on from one list into the next: keep the number
                paragraph = doc.add_paragraph(style="List Paragraph")
                _run(paragraph, f"{match.group(1)}. ")
            else:
                paragraph = doc.add_paragraph(style="List Bullet")
            _inline(paragraph, match.group(2), claims, lang)
        elif stripped.startswith(">"):
            flush()
            _inline(doc.add_paragraph(style="Quote"), stripped.lstrip("> "), claims, lang)
        elif not stripped:
            flush()
        else:
            para.append(stripped)
    flush()


def _table(doc: Any, lines: list[str], claims: Sequence[str], lang: str) -> None:
    rows = [[c.strip() for c in CELL_SEPARATOR.split(_outer_pipes(line))] for line in lines]
    rows = [row for row in rows if not all(TABLE_RULE.fullmatch(c) for c in row if c)]
    if not rows:
        return
    width = max(len(row) for row in rows)
    table = doc.add_table(rows=len(rows), cols=width)
    table.style = "Table Grid"
    for r, row in enumerate(rows):
        for c in range(width):
            _inline(table.cell(r, c).paragraphs[0], row[c] if c < len(row) else "", claims, lang, bold=r == 0)
    doc.add_paragraph()


def _outer_pipes(line: str) -> str:
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    return line[:-1] if line.endswith("|") and not line.endswith("\\|") else line


def _sources(doc: Any, found: list[Source], lang: str) -> None:
    _heading(doc, SAY("sources", lang), 1)
    if not found:
        _run(doc.add_paragraph(), SAY("no_sources", lang), italic=True)
    for source in found:
        paragraph = doc.add_paragraph()
        _run(paragraph, f"[{source.n}] ", bold=True)
        _run(paragraph, source_line(source, lang, number="").strip())
        if source.passage.strip():
            quote = doc.add_paragraph()
            quote.paragraph_format.left_indent = Pt(18)
            _run(quote, f"“{passage(source)}”", italic=True, color=MUTED, size=9)


def _check(doc: Any, check: Check, lang: str) -> None:
    _heading(doc, SAY("check", lang), 1)
    _run(doc.add_paragraph(), check_summary(check, lang), bold=True)
    if check.unsupported:
        _run(doc.add_paragraph(), SAY("unsupported", lang), bold=True, color=FLAG_COLOR)
        for claim in check.unsupported:
            paragraph = doc.add_paragraph(style="List Bullet")
            _run(paragraph, f"“{claim.sentence}”").font.highlight_color = WD_COLOR_INDEX.YELLOW
            _run(paragraph, f" {refs_text(claim.refs)}".rstrip())
            if claim.reason:
                _run(paragraph, f" — {claim.reason}", italic=True)
    if check.invalid:
        _run(doc.add_paragraph(), SAY("invalid", lang, refs=refs_text(check.invalid)), color=FLAG_COLOR)
