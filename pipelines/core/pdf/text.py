"""Text for ReportLab: escaped markup with CJK font runs, inline Markdown, table columns sized to their text."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.pdfbase.pdfmetrics import stringWidth

from pipelines.core.markup import unescape_markdown
from pipelines.core.pdf.drawing import CJK_FONT, is_wide, printable

# A backslash escape, `code`, **strong**, *emphasis* and _emphasis_ (never inside a word: user_profile stays).
# Escaped characters inside a span are skipped over, so `\*` never opens or closes one.
_INLINE = re.compile(
    r"(?P<escape>\\[!-/:-@\[-`{-~])"
    r"|(?P<code>`[^`\n]+`)"
    r"|\*\*(?P<strong>(?=\S)(?:\\.|[^*\\\n]|\*(?!\*))+?(?<=\S))\*\*"
    r"|\*(?P<em>(?=[^\s*])(?:\\.|[^*\\\n])+?(?<=\S))\*"
    r"|(?<![0-9A-Za-z\\])_(?P<em_>(?=\S)(?:\\.|[^_\\\n])+?(?<=\S))_(?![0-9A-Za-z])")
CODE_FONT = '<font face="Courier" size="-1" color="#8A2D3B">{}</font>'
CELL_PADDING = 8  # a table cell's left and right padding
UNBREAKABLE_CHARS = 25  # a token up to this long (a number, a word, "0.8/4") is never split across lines
_PIECES = re.compile(r"[^\s\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+|\S")


def markup(text: Any) -> str:
    """Plain text as paragraph markup: escaped, characters the standard fonts lack set in the CJK font."""
    out = []
    for wide, run in itertools.groupby(printable(text), key=is_wide):
        chunk = escape("".join(run))
        out.append(f'<font face="{CJK_FONT}">{chunk}</font>' if wide else chunk)
    return "".join(out)


def inline_markdown(text: str) -> str:
    """**bold**, *italic* (or _italic_) and `code` as paragraph markup; backslash escapes stand for their
    character; everything else escaped."""
    out, pos = [], 0
    for match in _INLINE.finditer(text):
        out.append(markup(unescape_markdown(text[pos:match.start()])))
        pos = match.end()
        kind = match.lastgroup
        if kind == "escape":
            out.append(markup(match.group()[1]))
        elif kind == "code":
            out.append(CODE_FONT.format(markup(match.group()[1:-1])))
        elif kind == "strong":
            out.append(f"<b>{inline_markdown(match.group(kind))}</b>")
        else:
            out.append(f"<i>{inline_markdown(match.group(kind))}</i>")
    out.append(markup(unescape_markdown(text[pos:])))
    return "".join(out)


def plain_markdown(text: str) -> str:
    """The text inline Markdown shows, without its markers (for outlines and for measuring)."""
    def visible(match: re.Match[str]) -> str:
        kind = match.lastgroup
        if kind == "escape":
            return match.group()[1]
        if kind == "code":
            return match.group()[1:-1]
        return plain_markdown(match.group(kind))
    out, pos = [], 0
    for match in _INLINE.finditer(text):
        out += [unescape_markdown(text[pos:match.start()]), visible(match)]
        pos = match.end()
    return "".join(out) + unescape_markdown(text[pos:])


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of one line of text in points, CJK runs in the CJK font."""
    latin = "Helvetica-Bold" if bold else "Helvetica"
    return sum(stringWidth("".join(run), CJK_FONT if wide else latin, size)
               for wide, run in itertools.groupby(printable(text), key=is_wide))


def _extent(text: str, size: float, bold: bool, whole: bool) -> tuple[float, float]:
    """(natural, minimum) width of a cell's text: its longest line, and its widest piece that must not break
    (the whole text when `whole`, else its longest short token; a CJK character is a piece of its own)."""
    lines = text.split("\n")
    natural = max(text_width(line, size, bold) for line in lines)
    if whole:
        return natural, natural
    pieces = [p for line in lines for p in _PIECES.findall(line) if len(p) <= UNBREAKABLE_CHARS]
    return natural, max((text_width(p, size, bold) for p in pieces), default=0.0)


def column_widths(header: Sequence[str], rows: Sequence[Sequence[str]], total: float, size: float) -> list[float]:
    """Widths that fit each column's text: narrow columns (numbers, codes, short labels) get their natural width,
    and what is left is shared among the wide text columns, never below the width of a header or a short
    token, so neither is broken in the middle."""
    columns = []
    for i, head in enumerate(header):
        natural, minimum = _extent(head, size, True, whole=len(head) <= UNBREAKABLE_CHARS)
        for row in rows:
            n, m = _extent(row[i] if i < len(row) else "", size, False, whole=False)
            natural, minimum = max(natural, n), max(minimum, m)
        columns.append((natural + CELL_PADDING + 1, minimum + CELL_PADDING + 1))
    return fit_columns([n for n, _ in columns], [m for _, m in columns], total)


def fit_columns(natural: Sequence[float], minimum: Sequence[float], total: float) -> list[float]:
    """Water-filling: a column whose natural width is within an equal share of the room left gets it; the
    others share the rest, each at least its minimum, the remainder in proportion to what they would take."""
    natural = [max(n, m) for n, m in zip(natural, minimum)]
    if sum(natural) <= total:
        return [n * total / sum(natural) for n in natural] if sum(natural) else [total / len(natural)] * len(natural)
    widths: list[float | None] = [None] * len(natural)
    while True:
        open_ = [i for i, w in enumerate(widths) if w is None]
        room = total - sum(w for w in widths if w is not None)
        narrow = [i for i in open_ if natural[i] <= room / len(open_)]
        if not narrow:
            break
        for i in narrow:
            widths[i] = natural[i]
    if sum(minimum[i] for i in open_) > room:  # the wide ones would break mid-token: every column shares
        return _share(natural, minimum, list(range(len(natural))), total)
    shared = _share(natural, minimum, open_, room)
    return [float(w if w is not None else shared[open_.index(i)]) for i, w in enumerate(widths)]


def _share(natural: Sequence[float], minimum: Sequence[float], columns: list[int], room: float) -> list[float]:
    """The room among `columns`: each its minimum, the rest in proportion to how much more it would take;
    when even the minimums do not fit, the minimums scaled down."""
    floor = sum(minimum[i] for i in columns)
    if floor >= room:
        return [minimum[i] * room / floor for i in columns]
    want = sum(natural[i] - minimum[i] for i in columns)
    return [minimum[i] + (room - floor) * ((natural[i] - minimum[i]) / want if want else 1 / len(columns))
            for i in columns]
