"""The research report as a PDF: question and citation check up front, the report, flagged claims, the sources."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pipelines.core.pdf.document import PdfDocument, markup
from pipelines.core.pdf.markdown import render_markdown
from pipelines.deep_research.export_parts import (END, SAY, START, Check, Source, body_markdown, citation_check,
                                                   code_text, language, location, mark_claims, passage, refs_text,
                                                   report_markdown, sources, strip_marks, support_figure, text, title)

HIGHLIGHT = "#FFE8A3"   # an unsupported sentence in the body
FLAG_COLOR = "#B3261E"  # its flag
FLAG_ROW = "#FDECEA"    # the rows of the unsupported claims' box
PDF_PASSAGE = 360       # a table row per source stays a few lines tall
# The PDF's CJK font (Adobe-GB1) has no ⚠: a viewer would draw a box. ▲ is in it.
PDF_FLAG = ("⚠", "▲")
_TOKEN = re.compile(r"<(/?)([a-zA-Z]+)[^>]*?(/?)>|[\ue000\ue001]")


def research_pdf(state: Mapping[str, Any]) -> bytes:
    """Title, question and support figure, the claims the sources do not support, the report with those
    sentences highlighted, and its sources with document, page and section."""
    state = state or {}
    lang = language(state)
    report = report_markdown(state)
    doc_title = title(state, lang, report)
    check = citation_check(state)
    found = sources(state)
    flag = SAY("flag", lang).replace(*PDF_FLAG)
    date = datetime.now().strftime("%Y-%m-%d")
    doc = PdfDocument(doc_title, subtitle=SAY("subtitle", lang), date=date)
    doc.key_values([(SAY("query", lang), text(state.get("user_query")).strip() or "—"), (SAY("date", lang), date),
                    (SAY("check", lang), support_figure(check, lang)), (SAY("count", lang), len(found))],
                   label_width=0.2)
    _flagged(doc, check, lang, flag)
    body = body_markdown(report, doc_title)
    if body:
        claims = [c.sentence for c in check.unsupported]
        render_markdown(_Marked(doc, flag), mark_claims(body, claims) if claims else body)
    else:
        doc.paragraph(SAY("empty", lang), "muted")
    _sources(doc, found, lang)
    return doc.build()


def _flagged(doc: PdfDocument, check: Check, lang: str, flag: str) -> None:
    """The claims the checker found unsupported, in a red-tinted box above the report."""
    if not (check.unsupported or check.invalid):
        return
    doc.heading(SAY("unsupported", lang), 2)
    if check.unsupported:
        rows = [[f"{flag}  {c.sentence}", refs_text(c.refs) or "—", c.reason or "—"]
                for c in check.unsupported]
        doc.table([SAY("claim", lang), SAY("refs", lang), SAY("reason", lang)], rows, col_widths=[0.52, 0.1, 0.38],
                  zebra=False, cell_colors={(i, None): FLAG_ROW for i in range(len(rows))})
    if check.invalid:
        doc.paragraph(SAY("invalid", lang, refs=refs_text(check.invalid)), "muted")


def _sources(doc: PdfDocument, found: list[Source], lang: str) -> None:
    doc.heading(SAY("sources", lang), 2)
    if not found:
        doc.paragraph(SAY("no_sources", lang), "muted")
        return
    rows = []
    for source in found:
        name = source.document + (f"\n{source.title}" if source.title and source.title != source.document else "")
        rows.append([f"[{source.n}]", name, location(source, lang) or "—", passage(source, PDF_PASSAGE) or "—"])
    doc.table([SAY(k, lang) for k in ("number", "document", "location", "passage")], rows,
              col_widths=[0.07, 0.25, 0.2, 0.48])


def _highlight(markup_text: str, flag: str) -> str:
    """Paragraph markup with the span between START and END on a highlight and the flag after it. ReportLab
    wants tags properly nested, so the tags open at a mark are closed before it and opened again after it."""
    out: list[str] = []
    stack: list[tuple[str, str]] = []  # (name, opening tag) of the tags open at this point
    pos, lit = 0, False

    def close() -> list[str]:
        return [f"</{name}>" for name, _ in reversed(stack)]

    def reopen() -> list[str]:
        return [tag for _, tag in stack]

    flag_markup = f'<font color="{FLAG_COLOR}"><b> {markup(flag)}</b></font> '  # ReportLab folds double spaces
    for match in _TOKEN.finditer(markup_text):
        out.append(markup_text[pos:match.start()])
        pos = match.end()
        token = match.group()
        if token == START:
            if not lit:
                out += [*close(), f'<font backColor="{HIGHLIGHT}">', *reopen()]
                lit = True
        elif token == END:
            if lit:
                out += [*close(), "</font>", flag_markup, *reopen()]
                lit = False
        elif match.group(3):  # <br/>
            out.append(token)
        elif match.group(1):
            if stack:
                stack.pop()
            out.append(token)
        else:
            stack.append((match.group(2), token))
            out.append(token)
    out.append(markup_text[pos:])
    if lit:  # a sentence that runs past its paragraph ends with it
        out += [*close(), "</font>", flag_markup, *reopen()]
    return "".join(out)


class _Marked:
    """render_markdown's target: the document, with the sentences mark_claims framed highlighted and flagged."""

    def __init__(self, doc: PdfDocument, flag: str) -> None:
        self.doc, self.flag = doc, flag

    def styled(self, markup_text: str, style: str, **kwargs: Any) -> Any:
        return self.doc.styled(_highlight(markup_text, self.flag), style, **kwargs)

    def heading(self, text: str, level: int = 1) -> None:
        self.doc.heading(strip_marks(text), level)

    def code(self, text: str, max_lines: int | None = None) -> None:
        self.doc.code(code_text(strip_marks(text)), max_lines)

    def table(self, header: Sequence[Any], rows: Sequence[Sequence[Any]], *args: Any, markdown: bool = False,
              **kwargs: Any) -> Any:
        # A cell's markup is made inside PdfDocument: a flagged cell is tinted as a whole and gets the flag in bold.
        tinted, shown = {}, []
        for r, row in enumerate(rows):
            cells = []
            for c, cell in enumerate(row):
                value = str(cell)
                if START in value or END in value:
                    tinted[(r, c)] = HIGHLIGHT
                    value = f"{strip_marks(value)} **{self.flag}**"
                cells.append(value)
            shown.append(cells)
        return self.doc.table([strip_marks(str(h)) for h in header], shown, *args, markdown=markdown,
                              cell_colors=tinted or None, **kwargs)
