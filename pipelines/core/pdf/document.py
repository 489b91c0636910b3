"""ReportLab document builder: CJK-aware text, a markdown subset, tables, charts, header and "Page N of M" footer."""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Flowable, Frame, PageBreak, PageTemplate, Paragraph,
                                Spacer, Table, TableStyle)

from pipelines.core.pdf import drawing as charts
from pipelines.core.pdf.drawing import CJK_FONT, INK, MUTED
from pipelines.core.pdf.markdown import render_markdown
from pipelines.core.pdf.text import column_widths, inline_markdown, markup, plain_markdown

__all__ = ["PdfDocument", "markup", "inline_markdown"]

ACCENT = colors.HexColor("#1F3A5F")
ZEBRA = colors.HexColor("#F3F5F8")
LINE = colors.HexColor("#C9D0D9")
CODE_BG = colors.HexColor("#F4F4F2")
CELL_LIMIT = 1500  # a table row taller than a page cannot be laid out; nobody reads more in a cell anyway
_CJK_RE = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


@functools.cache
def _register_fonts() -> None:
    pdfmetrics.registerFont(UnicodeCIDFont(CJK_FONT))
    # <b>/<i> around CJK text would otherwise fail: the CID font has no bold or italic face.
    pdfmetrics.registerFontFamily(CJK_FONT, normal=CJK_FONT, bold=CJK_FONT, italic=CJK_FONT, boldItalic=CJK_FONT)


def _lines(text: str) -> str:
    return "<br/>".join(text.split("\n"))


def _styles() -> dict[str, ParagraphStyle]:
    body = ParagraphStyle("body", fontName="Helvetica", fontSize=9.5, leading=13.5, textColor=INK, spaceAfter=5)

    def style(name: str, **kw: Any) -> ParagraphStyle:
        return ParagraphStyle(name, parent=body, **kw)

    flat = {"spaceAfter": 0}
    return {"body": body, "small": style("small", fontSize=8, leading=10.5, spaceAfter=3),
            "muted": style("muted", fontSize=8.5, leading=11.5, textColor=MUTED),
            "cell": style("cell", fontSize=7.5, leading=9.5, **flat),
            "head": style("head", fontName="Helvetica-Bold", fontSize=7.5, leading=9.5, textColor=colors.white, **flat),
            "label": style("label", fontName="Helvetica-Bold", fontSize=8.5, leading=11.5, textColor=MUTED, **flat),
            "value": style("value", fontSize=9, leading=11.5, **flat),
            "bullet": style("bullet", leftIndent=14, bulletIndent=3, spaceAfter=2),
            "code": style("code", fontName="Courier", fontSize=7.5, leading=9.5, backColor=CODE_BG, leftIndent=5,
                          rightIndent=5, borderPadding=(4, 5, 4, 5), spaceBefore=4, spaceAfter=9),
            "title": style("title", fontName="Helvetica-Bold", fontSize=19, leading=24, textColor=ACCENT, spaceAfter=3),
            "subtitle": style("subtitle", fontSize=11, leading=15, textColor=MUTED, spaceAfter=8),
            **{f"h{n}": style(f"h{n}", fontName="Helvetica-Bold", fontSize=size, leading=size * 1.3, textColor=ACCENT,
                              spaceBefore=before, spaceAfter=4) for n, size, before in ((1, 15, 12), (2, 12.5, 10),
                                                                                         (3, 10.5, 7))}}


class _Template(BaseDocTemplate):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._outline_level = -1

    def afterFlowable(self, flowable: Flowable) -> None:
        entry = getattr(flowable, "outline", None)
        if entry:
            text, level = entry
            # A viewer's outline cannot skip levels: an h3 straight after the title hangs under the last entry.
            level = min(level, self._outline_level + 1)
            key = f"h{id(flowable)}"
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(text, key, level=level)
            self._outline_level = level


class PdfDocument:
    """A report assembled block by block and rendered once by build()."""

    def __init__(self, title: str, subtitle: str | None = None, date: str | None = None, pagesize=A4,
                 author: str = "Stepwise") -> None:
        _register_fonts()
        self.title, self.subtitle, self.date, self.pagesize, self.author = title, subtitle, date, pagesize, author
        self.styles = _styles()
        self.margin = 18 * mm
        self.width = pagesize[0] - 2 * self.margin
        self._story: list[Flowable] = []
        self._pdf: bytes | None = None
        self._para(markup(title), "title")
        if subtitle:
            self._para(markup(subtitle), "subtitle")

    # text -------------------------------------------------------------------------------------
    def _make(self, text: str, style: str, **kwargs: Any) -> Paragraph:
        base = self.styles[style]
        if _CJK_RE.search(text):
            # CJK lines break between any two characters; a Latin word is still kept whole where possible.
            base = ParagraphStyle(f"{style}-cjk", parent=base, wordWrap="CJK")
        return Paragraph(text, base, **kwargs)

    def _para(self, text: str, style: str, **kwargs: Any) -> Paragraph:
        return self.add(self._make(text, style, **kwargs))

    def styled(self, markup_text: str, style: str, **kwargs: Any) -> Paragraph:
        """A paragraph of ReportLab markup already escaped (inline_markdown, markup) in one of the styles."""
        return self._para(markup_text, style, **kwargs)

    def add(self, flowable: Flowable) -> Flowable:
        if self._pdf is not None:
            raise RuntimeError("this PDF has been built; start a new PdfDocument to add more")
        self._story.append(flowable)
        return flowable

    def heading(self, text: str, level: int = 1) -> None:
        level = min(max(int(level), 1), 3)
        # Not keepWithNext: that moves a heading and a block taller than the rest of the page to a new page.
        self.add(CondPageBreak(70))
        para = self._para(markup(text), f"h{level}")
        para.outline = (" ".join(str(text).split()), level - 1)

    def paragraph(self, text: str, style: str = "body") -> None:
        """Plain text (no markup is interpreted); line breaks are kept."""
        self._para(_lines(markup(text)), style)

    def bullets(self, items: Iterable[str], markdown: bool = False) -> None:
        for item in items:
            self._para(_lines(inline_markdown(item) if markdown else markup(item)), "bullet", bulletText="•")

    def code(self, text: str, max_lines: int | None = None) -> None:
        """Monospace text with its line breaks and indentation, long lines wrapped."""
        lines = str(text).expandtabs(4).split("\n")
        if max_lines and len(lines) > max_lines:
            lines = lines[:max_lines] + [f"… {len(lines) - max_lines} more lines"]
        # Pairs of spaces become "nbsp space" so indentation shows and lines may still break between words.
        out = [markup(line).replace("  ", "&nbsp; ") for line in lines]
        out = [("&nbsp;" + line[1:]) if line.startswith(" ") else line for line in out]
        self._para("<br/>".join(out) or "&nbsp;", "code")

    def markdown(self, md: str) -> None:
        """#/##/### headings, paragraphs, - and 1. lists, | tables |, > quotes, **bold**, `code` and fenced code."""
        render_markdown(self, md)

    def spacer(self, height: float = 8) -> None:
        self.add(Spacer(1, height))

    def page_break(self) -> None:
        self.add(PageBreak())

    # tables -----------------------------------------------------------------------------------
    @staticmethod
    def _cell_text(value: Any, md: bool = False) -> str:
        text = "" if value is None else str(value)
        text = text if len(text) <= CELL_LIMIT else text[:CELL_LIMIT] + "…"
        # a Markdown cell holds no block markup: list items become bullet characters on their own lines
        return re.sub(r"(?m)^\s*[-*+]\s+", "• ", text) if md else text

    def _cell(self, value: Any, style: str = "cell", md: bool = False) -> Paragraph:
        text = self._cell_text(value, md)
        return self._make(_lines(inline_markdown(text) if md else markup(text)), style)

    def _widths(self, header: Sequence[Any], rows: Sequence[Sequence[Any]],
                col_widths: Sequence[float] | None, md: bool = False) -> list[float]:
        if col_widths:
            # Fractions of the text width (summing to at most 1) or absolute points.
            scale = self.width if sum(col_widths) <= 1.0001 else 1
            return [w * scale for w in col_widths]
        def shown(value: Any) -> str:
            text = self._cell_text(value, md)
            return plain_markdown(text) if md else text
        size = self.styles["cell"].fontSize
        # The frame pads the text width by 6 points on each side: a table as wide as the text would overflow it.
        return column_widths([shown(h) for h in header], [[shown(c) for c in row] for row in rows[:200]],
                             self.width - 12, size)

    def table(self, header: Sequence[Any], rows: Sequence[Sequence[Any]], col_widths: Sequence[float] | None = None,
              zebra: bool = True, cell_colors: Mapping[tuple[int, int | None], Any] | None = None,
              markdown: bool = False) -> Table:
        """Wrapped cells; the header repeats on every page. cell_colors maps (row, col) of rows — col None for
        the whole row — to a colour or "#hex"."""
        widths = self._widths(header, rows, col_widths, markdown)
        data = [[self._cell(h, "head", markdown) for h in header]]
        data += [[self._cell(row[i] if i < len(row) else "", md=markdown) for i in range(len(header))] for row in rows]
        style = [("BACKGROUND", (0, 0), (-1, 0), ACCENT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                 ("LINEBELOW", (0, 0), (-1, -1), 0.4, LINE), ("TOPPADDING", (0, 0), (-1, -1), 3),
                 ("BOTTOMPADDING", (0, 0), (-1, -1), 3), ("LEFTPADDING", (0, 0), (-1, -1), 4),
                 ("RIGHTPADDING", (0, 0), (-1, -1), 4)]
        if zebra and rows:
            style.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, ZEBRA]))
        for (r, c), color in (cell_colors or {}).items():
            color = colors.HexColor(color) if isinstance(color, str) else color
            cells = ((0, r + 1), (-1, r + 1)) if c is None else ((c, r + 1), (c, r + 1))
            style.append(("BACKGROUND", *cells, color))
        table = Table(data, colWidths=widths, repeatRows=1, splitInRow=1, hAlign="LEFT")
        table.setStyle(TableStyle(style))
        self.add(table)
        self.spacer(6)
        return table

    def key_values(self, items: Iterable[tuple[Any, Any]], label_width: float = 0.26, markdown: bool = False) -> None:
        """Label and value rows; markdown=True renders **bold**, `code` and - items in the values."""
        data = [[self._cell(k, "label"), self._cell(v, "value", markdown)] for k, v in items]
        if not data:
            return
        table = Table(data, colWidths=[self.width * label_width, self.width * (1 - label_width)], hAlign="LEFT",
                      splitInRow=1)
        table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                   ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                                   ("LINEBELOW", (0, 0), (-1, -1), 0.3, LINE)]))
        self.add(table)
        self.spacer(6)

    # charts -----------------------------------------------------------------------------------
    def _chart(self, drawing: Flowable) -> None:
        self.add(drawing)
        self.spacer(10)

    def bar_chart(self, labels: Sequence[str], values: Sequence[float], title: str | None = None,
                  width: float | None = None, height: float | None = None, horizontal: bool | None = None) -> None:
        """Horizontal bars by default when labels are long or many (height then grows with the count)."""
        width = width or self.width
        if horizontal is None:
            horizontal = len(labels) > 8 or any(len(str(t)) > 12 for t in labels)
        self._chart(charts.horizontal_bars(labels, values, title, width, height) if horizontal
                    else charts.vertical_bars(labels, values, title, width, height or 170))

    def histogram(self, values: Sequence[float], bins: int = 10, title: str | None = None, width: float | None = None,
                  height: float = 160, value_range: tuple[float, float] | None = None,
                  fmt: Callable[[float], str] | None = None) -> None:
        self._chart(charts.histogram(values, bins, title, width or self.width, height, value_range,
                                     fmt or charts.number))

    def pie_chart(self, labels: Sequence[str], values: Sequence[float], title: str | None = None,
                  width: float | None = None, height: float = 160) -> None:
        self._chart(charts.pie(labels, values, title, width or self.width, height))

    def radar_chart(self, labels: Sequence[str], values: Sequence[float] | Mapping[str, Sequence[float]],
                    title: str | None = None, width: float | None = None, height: float = 260,
                    max_value: float = 100) -> None:
        """values on a 0..max_value scale; a mapping of name → values draws several profiles with a legend."""
        series = dict(values) if isinstance(values, Mapping) else {"": list(values)}
        self._chart(charts.radar(labels, series, title, width or self.width, height, max_value))

    # output -----------------------------------------------------------------------------------
    def _chrome(self, canv: Canvas, page: int, pages: int) -> None:
        w, h = self.pagesize
        canv.saveState()
        canv.setFillColor(MUTED)
        top = h - self.margin + 16
        date_w = pdfmetrics.stringWidth(self.date or "", "Helvetica", 8) + 12
        charts.draw_text(canv, self.margin, top, self.title, 8, max_width=self.width - date_w)
        if self.date:
            charts.draw_text(canv, w - self.margin, top, self.date, 8, anchor="end")
        canv.setStrokeColor(LINE)
        canv.setLineWidth(0.5)
        canv.line(self.margin, top - 5, w - self.margin, top - 5)
        charts.draw_text(canv, w / 2, self.margin - 24, f"Page {page} of {pages}", 8, anchor="middle")
        canv.restoreState()

    def build(self) -> bytes:
        if self._pdf is None:
            buffer = io.BytesIO()
            doc = _Template(buffer, pagesize=self.pagesize, leftMargin=self.margin, rightMargin=self.margin,
                            topMargin=self.margin + 6, bottomMargin=self.margin, title=self.title,
                            author=self.author, subject=self.subtitle or "", creator="Stepwise")
            frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body")
            doc.addPageTemplates([PageTemplate(id="page", frames=[frame])])
            doc.build(self._story or [Spacer(1, 1)], canvasmaker=functools.partial(charts.NumberedCanvas,
                                                                                  chrome=self._chrome))
            self._pdf = buffer.getvalue()
        return self._pdf

    def save(self, path: str | Path) -> Path:
        Path(path).write_bytes(self.build())
        return Path(path)
