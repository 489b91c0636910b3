"""Charts of one run for the trace PDF (reportlab.graphics): stacked bars, the task timeline, counter panels."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from reportlab.graphics.shapes import Circle, Drawing, Line, PolyLine, Rect
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipelines.core.pdf.drawing import GRID, MUTED, PALETTE, font_for, label, nice_step, number

LIMIT_COLOR = colors.HexColor("#D62728")
STATUS_COLORS = {"completed": PALETTE[0], "interrupted": PALETTE[1], "failed": PALETTE[3]}


@dataclass(frozen=True)
class TimelineBar:
    lane: str
    start_ms: float
    duration_ms: float
    status: str


@dataclass(frozen=True)
class CounterSeries:
    title: str
    steps: Sequence[int]
    values: Sequence[float]
    limit: float | None


def _drawing(width: float, height: float) -> Drawing:
    drawing = Drawing(width, height)
    drawing.hAlign = "CENTER"
    return drawing


def _label_width(names: Sequence[str], width: float, share: float = 0.4) -> float:
    return min(max(stringWidth(str(n), font_for(str(n)), 7.5) for n in names) + 8, width * share)


def _legend(drawing: Drawing, items: Sequence[tuple[str, colors.Color]], y: float) -> None:
    widths = [stringWidth(name, font_for(name), 7.5) + 24 for name, _ in items]
    x = max(4.0, (drawing.width - sum(widths)) / 2)
    for (name, color), w in zip(items, widths):
        drawing.add(Rect(x, y, 8, 8, fillColor=color, strokeColor=None))
        drawing.add(label(x + 12, y + 1, name, 7.5))
        x += w


def _ticks(drawing: Drawing, x0: float, y0: float, w: float, top: float, fmt: Callable[[float], str],
           grid_to: float) -> float:
    """Vertical gridlines and labels of a horizontal value axis; returns the axis maximum."""
    step = nice_step(top)
    axis_max = step * math.ceil(top / step) if top > 0 else 1.0
    ticks = max(1, int(round(axis_max / step)))
    for i in range(ticks + 1):
        x = x0 + w * i / ticks
        drawing.add(Line(x, y0, x, grid_to, strokeColor=GRID, strokeWidth=0.5))
        drawing.add(label(x, y0 - 10, fmt(step * i), 7, "middle", color=MUTED))
    return axis_max


def stacked_bars(labels: Sequence[str], series: Mapping[str, Sequence[float]], width: float) -> Drawing:
    """Horizontal bars, one per label, split into the named series (e.g. input and output tokens)."""
    names = list(series)
    n = len(labels)
    top = 8 + max(n, 1) * 16 + 36
    drawing = _drawing(width, top)
    if not n:
        return drawing
    totals = [sum(series[s][i] for s in names) for i in range(n)]
    label_w = _label_width(labels, width)
    value_w = max(stringWidth(number(t), "Helvetica", 7.5) for t in totals) + 8
    x0, y0 = label_w, 34
    bar_w = width - label_w - value_w
    axis_max = _ticks(drawing, x0, y0, bar_w, max(max(totals), 1e-9), number, top)
    slot = (top - y0) / n
    for i, name in enumerate(labels):
        mid = top - (i + 0.5) * slot
        bar_h = min(slot * 0.7, 12)
        drawing.add(label(label_w - 6, mid - 2.5, name, 7.5, "end", label_w - 6))
        x = x0
        for k, part in enumerate(names):
            length = bar_w * series[part][i] / axis_max
            if length > 0:
                drawing.add(Rect(x, mid - bar_h / 2, length, bar_h, fillColor=PALETTE[k % len(PALETTE)],
                                 strokeColor=None))
            x += length
        drawing.add(label(x + 3, mid - 2.5, number(totals[i]), 7.5))
    _legend(drawing, [(part, PALETTE[k % len(PALETTE)]) for k, part in enumerate(names)], 2)
    return drawing


def timeline(lanes: Sequence[str], bars: Sequence[TimelineBar], step_starts: Sequence[float], width: float,
             fmt: Callable[[float], str]) -> Drawing:
    """A Gantt of the tasks: one row per node, so the parallel tasks of a step sit on rows of their own."""
    row, y0 = 13, 34
    top = max(len(lanes), 1) * row + y0
    drawing = _drawing(width, top + 4)
    if not lanes or not bars:
        return drawing
    label_w = _label_width(lanes, width, 0.35)
    x0, w = label_w, width - label_w - 14
    for i in range(1, len(lanes), 2):
        drawing.add(Rect(x0, top - (i + 1) * row, w, row, fillColor=colors.HexColor("#F6F8FA"), strokeColor=None))
    total = max(b.start_ms + b.duration_ms for b in bars)
    axis_max = _ticks(drawing, x0, y0, w, max(total, 1e-6), fmt, top)
    if len(step_starts) <= 60:  # more boundaries than that only grey the chart out
        for start in step_starts:
            x = x0 + w * start / axis_max
            drawing.add(Line(x, y0, x, top, strokeColor=MUTED, strokeWidth=0.3, strokeDashArray=[1, 2]))
    lane_index = {name: i for i, name in enumerate(lanes)}
    for i, name in enumerate(lanes):
        y = top - (i + 1) * row
        drawing.add(label(label_w - 6, y + row / 2 - 2.5, name, 7.5, "end", label_w - 6))
    for bar in bars:
        y = top - (lane_index[bar.lane] + 1) * row
        x = x0 + w * bar.start_ms / axis_max
        drawing.add(Rect(x, y + 2, max(w * bar.duration_ms / axis_max, 1.0), row - 4, strokeColor=None,
                         fillColor=STATUS_COLORS.get(bar.status, PALETTE[0])))
    drawing.add(Line(x0, y0, x0 + w, y0, strokeColor=MUTED, strokeWidth=0.8))
    present = [s for s in STATUS_COLORS if any(b.status == s for b in bars)]
    _legend(drawing, [(s, STATUS_COLORS[s]) for s in present], 2)
    return drawing


def counter_panels(counters: Sequence[CounterSeries], width: float, columns: int = 2) -> Drawing:
    """One small chart per counter, its value over the completed steps and its limit as a dashed line."""
    rows = math.ceil(len(counters) / columns)
    panel_w, panel_h = width / columns, 120
    drawing = _drawing(width, max(rows, 1) * panel_h)
    for k, counter in enumerate(counters):
        left = (k % columns) * panel_w
        bottom = (rows - 1 - k // columns) * panel_h
        _counter_panel(drawing, counter, left, bottom, panel_w, panel_h, PALETTE[k % len(PALETTE)])
    return drawing


def _counter_panel(drawing: Drawing, counter: CounterSeries, left: float, bottom: float, w: float, h: float,
                   color: colors.Color) -> None:
    drawing.add(label(left + w / 2, bottom + h - 12, counter.title, 8.5, "middle", w - 12, bold=True))
    x0, y0 = left + 30, bottom + 20
    pw, ph = w - 48, h - 44
    top = max([*counter.values, counter.limit or 0, 1])
    step = nice_step(top, 4)
    axis_max = step * math.ceil(top / step)
    for i in range(int(round(axis_max / step)) + 1):
        y = y0 + ph * i * step / axis_max
        drawing.add(Line(x0, y, x0 + pw, y, strokeColor=GRID, strokeWidth=0.5))
        drawing.add(label(x0 - 4, y - 2.5, number(step * i), 7, "end", color=MUTED))
    if not counter.steps:
        drawing.add(label(x0 + pw / 2, y0 + ph / 2, "No completed step yet", 8, "middle", color=MUTED))
        return
    first, last = counter.steps[0], counter.steps[-1]
    span = max(last - first, 1)

    def x_of(step_no: float) -> float:
        return x0 + pw * (step_no - first) / span

    every = max(1, math.ceil(nice_step(span, 5)))
    ticks = [n for n in range(first, last, every) if last - n >= every * 0.6] + [last]  # the last never crowded
    for step_no in ticks:
        drawing.add(label(x_of(step_no), y0 - 10, str(step_no), 7, "middle", color=MUTED))
    if counter.limit is not None:
        y = y0 + ph * counter.limit / axis_max
        drawing.add(Line(x0, y, x0 + pw, y, strokeColor=LIMIT_COLOR, strokeWidth=0.9, strokeDashArray=[3, 2]))
        drawing.add(label(x0 + pw, y + 2, f"limit {number(counter.limit)}", 6.5, "end", color=LIMIT_COLOR))
    points: list[float] = []
    for i, (step_no, value) in enumerate(zip(counter.steps, counter.values)):
        y = y0 + ph * value / axis_max
        if i:  # a counter holds its value until the next step changes it
            points += [x_of(step_no), points[-1]]
        points += [x_of(step_no), y]
    if len(points) == 2:
        points += [x0 + pw, points[1]]
    drawing.add(PolyLine(points, strokeColor=color, strokeWidth=1.4))
    if len(counter.steps) <= 60:  # a dot per step shows the last value, which the line reaches at the edge
        for step_no, value in zip(counter.steps, counter.values):
            drawing.add(Circle(x_of(step_no), y0 + ph * value / axis_max, 1.8, fillColor=color, strokeColor=None))
    drawing.add(Line(x0, y0, x0 + pw, y0, strokeColor=MUTED, strokeWidth=0.8))
