"""Drawing for the PDF builder: charts from reportlab.graphics shapes, and page text in mixed fonts."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reportlab.graphics.shapes import Circle, Drawing, Line, Polygon, Rect, String, Wedge
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

CJK_FONT = "STSong-Light"
PALETTE = [colors.HexColor(c) for c in ("#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#EECA3B",
                                        "#B279A2", "#FF9DA6", "#9D755D", "#BAB0AC")]
GRID = colors.HexColor("#D9DEE5")
INK = colors.HexColor("#333A44")
MUTED = colors.HexColor("#6B7480")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ASTRAL = re.compile(r"[\U00010000-\U0010ffff]")


def printable(text: object) -> str:
    """Text without control characters; emoji and other non-BMP characters as a box."""
    text = _CONTROL.sub("", str(text).replace("\r\n", "\n").replace("\r", "\n"))
    # The CID font is addressed in UCS-2: such a character would come out as two unrelated glyphs.
    return _ASTRAL.sub("\u25a1", text)


def is_wide(ch: str) -> bool:
    """True for a character the standard PDF fonts cannot draw (CJK, arrows...): it goes to the CID font."""
    try:
        ch.encode("cp1252")
        return False
    except UnicodeEncodeError:
        return True


def font_for(text: str, bold: bool = False) -> str:
    if any(is_wide(c) for c in text):
        return CJK_FONT
    return "Helvetica-Bold" if bold else "Helvetica"


def fit(text: str, font: str, size: float, width: float) -> str:
    """The text cut with an ellipsis so it fits in width points."""
    text = " ".join(str(text).split())
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def label(x: float, y: float, text: str, size: float = 7.5, anchor: str = "start", width: float | None = None,
          bold: bool = False, color=INK) -> String:
    text = printable(text)
    font = font_for(text, bold)
    text = fit(text, font, size, width) if width else text
    return String(x, y, text, fontName=font, fontSize=size, fillColor=color, textAnchor=anchor)


def _canvas(width: float, height: float, title: str | None) -> tuple[Drawing, float]:
    """A drawing with its title on top; returns it and the height left below the title."""
    drawing = Drawing(width, height)
    drawing.hAlign = "CENTER"
    if title:
        drawing.add(label(width / 2, height - 11, title, 9.5, "middle", width, bold=True))
        return drawing, height - 20
    return drawing, height


def _empty(drawing: Drawing, top: float) -> Drawing:
    drawing.add(label(drawing.width / 2, top / 2, "No data", 9, "middle", color=MUTED))
    return drawing


def nice_step(top: float, ticks: int = 5) -> float:
    raw = max(top, 1e-9) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def _value_axis(drawing: Drawing, x0: float, y0: float, w: float, h: float, top: float) -> float:
    """Gridlines and tick labels of a vertical value axis; returns the axis maximum."""
    step = nice_step(top)
    axis_max = step * math.ceil(top / step) if top > 0 else 1.0
    ticks = int(round(axis_max / step))
    for i in range(ticks + 1):
        y = y0 + h * i / ticks
        drawing.add(Line(x0, y, x0 + w, y, strokeColor=GRID, strokeWidth=0.5))
        drawing.add(label(x0 - 4, y - 2.5, number(step * i), 7, "end", color=MUTED))
    return axis_max


def horizontal_bars(labels: Sequence[str], values: Sequence[float], title: str | None, width: float,
                    height: float | None = None, color=PALETTE[0]) -> Drawing:
    n = len(labels)
    height = height or (26 if title else 8) + max(n, 1) * 16 + 8
    drawing, top = _canvas(width, height, title)
    if not n:
        return _empty(drawing, top)
    # Long category names get the room they need, up to 45% of the width.
    label_w = min(max(stringWidth(str(t), font_for(str(t)), 7.5) for t in labels) + 6, width * 0.45)
    value_w = max(stringWidth(number(v), "Helvetica", 7.5) for v in values) + 8
    bar_w = width - label_w - value_w
    slot = (top - 6) / n
    biggest = max(max(values), 1e-9)
    for i, (name, value) in enumerate(zip(labels, values)):
        y = top - (i + 1) * slot
        bar_h = min(slot * 0.7, 14)
        mid = y + slot / 2
        drawing.add(label(label_w - 6, mid - 2.5, name, 7.5, "end", label_w - 6))
        length = bar_w * value / biggest
        drawing.add(Rect(label_w, mid - bar_h / 2, max(length, 0.5), bar_h, fillColor=color, strokeColor=None))
        drawing.add(label(label_w + length + 3, mid - 2.5, number(value), 7.5))
    return drawing


def vertical_bars(labels: Sequence[str], values: Sequence[float], title: str | None, width: float,
                  height: float, color=PALETTE[0], edges: Sequence[str] | None = None) -> Drawing:
    """Bars over categories, or touching bins with their edges labelled when edges is given."""
    drawing, top = _canvas(width, height, title)
    n = len(values)
    if not n:
        return _empty(drawing, top)
    x0, y0 = 30, 22
    w, h = width - x0 - 10, top - y0 - 12
    axis_max = _value_axis(drawing, x0, y0, w, h, max(values))
    slot = w / n
    gap = 1 if edges is not None else slot * 0.25
    for i, value in enumerate(values):
        x = x0 + i * slot
        bar_h = h * value / axis_max
        if value:
            drawing.add(Rect(x + gap / 2, y0, slot - gap, bar_h, fillColor=color, strokeColor=None))
            drawing.add(label(x + slot / 2, y0 + bar_h + 2, number(value), 7, "middle"))
        if edges is None:
            drawing.add(label(x + slot / 2, y0 - 10, labels[i], 7, "middle", slot - 2))
    if edges is not None:
        every = max(1, math.ceil(len(edges) * 28 / w))
        for i, edge in enumerate(edges):
            if i % every == 0 or i == len(edges) - 1:
                drawing.add(label(x0 + i * slot, y0 - 10, edge, 7, "middle"))
    drawing.add(Line(x0, y0, x0 + w, y0, strokeColor=MUTED, strokeWidth=0.8))
    return drawing


def histogram(values: Sequence[float], bins: int, title: str | None, width: float, height: float,
              value_range: tuple[float, float] | None = None,
              fmt: Callable[[float], str] = number, color=PALETTE[0]) -> Drawing:
    values = [float(v) for v in values if v is not None]
    if not values:
        return vertical_bars([], [], title, width, height)
    lo, hi = value_range or (min(values), max(values))
    if hi <= lo:
        hi = lo + 1
    counts = [0] * bins
    for v in values:
        if lo <= v <= hi:
            counts[min(int((v - lo) / (hi - lo) * bins), bins - 1)] += 1
    edges = [fmt(lo + (hi - lo) * i / bins) for i in range(bins + 1)]
    return vertical_bars(edges[:-1], counts, title, width, height, color, edges=edges)


def pie(labels: Sequence[str], values: Sequence[float], title: str | None, width: float, height: float,
        palette: Sequence = PALETTE) -> Drawing:
    drawing, top = _canvas(width, height, title)
    parts = [(str(n), float(v), palette[i % len(palette)]) for i, (n, v) in enumerate(zip(labels, values)) if v > 0]
    total = sum(v for _, v, _ in parts)
    if not total:
        return _empty(drawing, top)
    r = min(top - 12, width * 0.4) / 2
    cx, cy = r + 10, top / 2
    if len(parts) == 1:
        drawing.add(Circle(cx, cy, r, fillColor=parts[0][2], strokeColor=colors.white))
    angle = 90.0
    for _name, value, color in parts if len(parts) > 1 else ():
        sweep = 360 * value / total
        # Clockwise from twelve o'clock, the way people read a pie.
        drawing.add(Wedge(cx, cy, r, angle - sweep, angle, fillColor=color, strokeColor=colors.white,
                          strokeWidth=1))
        angle -= sweep
    legend_x, row = cx + r + 18, min(14, (top - 8) / len(parts))
    legend_top = cy + row * len(parts) / 2
    for i, (name, value, color) in enumerate(parts):
        y = legend_top - (i + 1) * row
        drawing.add(Rect(legend_x, y, 8, 8, fillColor=color, strokeColor=None))
        drawing.add(label(legend_x + 12, y + 1, f"{name} — {number(value)} ({value / total:.0%})", 7.5,
                          width=width - legend_x - 14))
    return drawing


def radar(labels: Sequence[str], series: Mapping[str, Sequence[float]], title: str | None, width: float,
          height: float, max_value: float = 100, rings: int = 5, show_values: bool = True) -> Drawing:
    """A spider chart: one spoke per label from twelve o'clock clockwise, rings every max_value/rings."""
    n = len(labels)
    if n < 3:
        raise ValueError("a radar chart needs at least three axes")
    for name, values in series.items():
        if len(values) != n:
            raise ValueError(f"radar series {name!r} has {len(values)} values for {n} axes")
    drawing, top = _canvas(width, height, title)
    legend_h = 20 if len(series) > 1 else 0
    label_w = min(90, width * 0.22)
    r = max(20, min((top - legend_h) / 2 - 16, width / 2 - label_w - 8))
    cx, cy = width / 2, legend_h + (top - legend_h) / 2

    def point(i: int, value: float) -> tuple[float, float]:
        a = math.pi / 2 - 2 * math.pi * i / n
        k = max(0.0, min(value, max_value)) / max_value * r
        return cx + k * math.cos(a), cy + k * math.sin(a)

    for ring in range(1, rings + 1):
        pts = [c for i in range(n) for c in point(i, max_value * ring / rings)]
        drawing.add(Polygon(pts, fillColor=None, strokeColor=GRID, strokeWidth=0.6))
        drawing.add(label(cx + 2, point(0, max_value * ring / rings)[1] - 7, number(max_value * ring / rings),
                          6, color=MUTED))
    single = list(series.values())[0] if len(series) == 1 else None
    for i, name in enumerate(labels):
        x, y = point(i, max_value)
        drawing.add(Line(cx, cy, x, y, strokeColor=GRID, strokeWidth=0.6))
        a = math.pi / 2 - 2 * math.pi * i / n
        lx, ly = cx + (r + 6) * math.cos(a), cy + (r + 6) * math.sin(a)
        anchor = "middle" if abs(math.cos(a)) < 0.25 else ("start" if math.cos(a) > 0 else "end")
        ly += 2 if math.sin(a) > 0.25 else (-9 if math.sin(a) < -0.25 else -3)
        text = f"{name} ({number(single[i])})" if single is not None and show_values else str(name)
        drawing.add(label(lx, ly, text, 7.5, anchor, label_w if anchor != "middle" else 2 * label_w))
    for k, (_name, values) in enumerate(series.items()):
        color = PALETTE[k % len(PALETTE)]
        pts = [c for i, v in enumerate(values) for c in point(i, float(v))]
        drawing.add(Polygon(pts, fillColor=color, fillOpacity=0.22, strokeColor=color, strokeWidth=1.5))
        for i, v in enumerate(values):
            drawing.add(Circle(*point(i, float(v)), 2, fillColor=color, strokeColor=None))
    if legend_h:
        _legend(drawing, list(series), 3)
    return drawing


def _legend(drawing: Drawing, names: Sequence[str], y: float) -> None:
    """Coloured squares with names in one centred row."""
    widths = [min(stringWidth(n, font_for(n), 7.5), 150) + 28 for n in names]
    x = max(4.0, (drawing.width - sum(widths)) / 2)
    for k, (name, w) in enumerate(zip(names, widths)):
        drawing.add(Rect(x, y, 8, 8, fillColor=PALETTE[k % len(PALETTE)], strokeColor=None))
        drawing.add(label(x + 12, y + 1, name, 7.5, width=w - 16))
        x += w


def draw_text(canv: Canvas, x: float, y: float, text: str, size: float, font: str = "Helvetica",
              anchor: str = "start", max_width: float | None = None) -> None:
    """One line in the standard font with CJK runs switched to the CID font, clipped to max_width."""
    text = " ".join(printable(text).split())
    if max_width:
        text = fit(text, CJK_FONT if font_for(text) == CJK_FONT else font, size, max_width)
    runs = [(CJK_FONT if wide else font, "".join(r)) for wide, r in itertools.groupby(text, key=is_wide)]
    total = sum(stringWidth(t, f, size) for f, t in runs)
    # One text object for all runs, so the line reads back as one string when text is extracted.
    line = canv.beginText(x - {"start": 0, "middle": total / 2, "end": total}[anchor], y)
    for f, t in runs:
        line.setFont(f, size)
        line.textOut(t)
    canv.drawText(line)


class NumberedCanvas(Canvas):
    """Holds every page until the end so the footer can say "Page N of M"."""

    def __init__(self, *args: Any, chrome: Callable[[Canvas, int, int], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._chrome, self._pages = chrome, []

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        for number, state in enumerate(self._pages, 1):
            self.__dict__.update(state)
            self._chrome(self, number, len(self._pages))
            super().showPage()
        super().save()
