"""The run-trace PDF of any thread: header, steps, field-evolution matrix, counters, metrics and the domain report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from reportlab.lib import colors
from reportlab.graphics.shapes import Drawing
from reportlab.platypus import CondPageBreak, KeepTogether, Paragraph, Spacer, Table, TableStyle

from pipelines.core.pdf.document import ACCENT, PdfDocument, markup
from pipelines.core.pdf.drawing import fit, horizontal_bars, number
from pipelines.core.runtime.session import Session
from pipelines.core.trace.records import INPUT_NODE, EvolutionMatrix, StepRecord, evolution_matrix, node_usage
from pipelines.core.pdf.trace_charts import CounterSeries, TimelineBar, counter_panels, stacked_bars, timeline

STEPS_PER_TABLE = 18
# The dashboard's Evolution tab colours (dashboard/components/evolution.py), with letters a PDF font has.
CELL_LOOK = {"set": ("S", "#bbf7d0"), "changed": ("C", "#bfdbfe"), "appended": ("+", "#e9d5ff"),
             "removed": ("x", "#fecaca"), "unchanged": ("·", "#f1f5f9"), "absent": ("", "#ffffff")}
STEP_STATUS_COLORS = {"failed": "#FBE9EA", "interrupted": "#FFF3CD", "substep": "#EEF2F7"}
STATUS_TEXT = {"new": "new (no input yet)", "ready": "ready (paused between steps)",
               "waiting": "waiting for an answer", "completed": "completed", "failed": "failed"}


def build_trace_pdf(session: Session) -> bytes:
    """Every step of the thread's current branch and what it did, finished or not."""
    redact = _redactor(session.settings.api_key)
    records = session.records()
    info = session.thread
    title = redact(info.title) if info and info.title else session.spec.title
    doc = PdfDocument(f"Run trace · {session.spec.title}", subtitle=f"{title} · thread {session.thread_id[:8]}",
                      date=when(info.updated_at) if info else None)
    _header(doc, session, records, redact)
    _steps(doc, records, redact)
    _evolution(doc, evolution_matrix(records, session.spec.field_order))
    _counters(doc, session.counters(), records)
    _metrics(doc, records)
    _domain_report(doc, session, redact)
    return doc.build()


def when(epoch: float | None) -> str:
    return datetime.fromtimestamp(epoch).strftime("%Y-%m-%d %H:%M:%S") if epoch else "—"


def duration(ms: float) -> str:
    if ms < 1000:
        return f"{ms:.1f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.2f} s"
    minutes, seconds = divmod(ms / 1000, 60)
    return f"{int(minutes)} min {seconds:.0f} s"


def _inner(doc: PdfDocument) -> float:
    """The width a block really has: the page frame pads the text width by 6 points on each side."""
    return doc.width - 12


def _redactor(secret: str) -> Callable[[Any], str]:
    """Text on its way into the PDF, with the API key masked should a message or a report quote it."""
    def redact(text: Any) -> str:
        text = "" if text is None else str(text)
        return text.replace(secret, "***") if secret and len(secret) >= 4 else text
    return redact


def _nodes(record: StepRecord) -> str:
    return ", ".join("input" if n == INPUT_NODE else n for n in record.nodes) or "?"


def _header(doc: PdfDocument, session: Session, records: Sequence[StepRecord], redact) -> None:
    info = session.thread
    status = session.status()
    status_text = STATUS_TEXT.get(status, status)
    pending = session.pending_interrupts() if status == "waiting" else []
    if pending:
        status_text += f": {pending[0].spec.title if pending[0].spec else pending[0].kind}"
    next_nodes = list(session.snapshot().next) if status in ("ready", "waiting", "failed") else []
    kinds = {k: sum(1 for r in records if r.status == k) for k in ("completed", "substep", "interrupted", "failed")}
    detail = ", ".join(f"{n} {k}" for k, n in kinds.items() if n and k != "completed")
    usage = node_usage(records)
    calls = sum(u.calls for u in usage)
    tokens_in, tokens_out = sum(u.input_tokens for u in usage), sum(u.output_tokens for u in usage)
    doc.key_values([
        ("Workflow", f"{session.spec.title} ({session.spec.id})"),
        ("Provider", (info.provider if info else None) or session.settings.provider_label),
        ("Thread id", session.thread_id),
        ("Scenario", (info.scenario if info else None) or "— (own input)"),
        ("Status", status_text + (f" · next: {', '.join(next_nodes)}" if next_nodes else "")),
        ("Created", when(info.created_at) if info else "—"),
        ("Last updated", when(info.updated_at) if info else "—"),
        ("Steps", f"{kinds['completed']} completed" + (f" ({len(records)} records: {detail})" if detail else "")),
        ("Total duration", f"{duration(sum(r.duration_ms for r in records))} of step time "
                           "(waits between steps not counted)"),
        ("Model calls", f"{calls} · tokens {tokens_in:,} in / {tokens_out:,} out"),
    ])
    errors = [r for r in records if r.status == "failed" and r.error]
    if errors:
        doc.paragraph(f"Last failure (step {errors[-1].step}): {redact(errors[-1].error)}", "muted")


def _steps(doc: PdfDocument, records: Sequence[StepRecord], redact) -> None:
    doc.heading("Steps", 1)
    if not records:
        doc.paragraph("No step has been recorded yet.", "muted")
        return
    doc.paragraph("Each super-step of the current branch in the order it ran. A sub-step is a node inside a "
                  "subgraph; an interrupted step paused for an answer and ran again once it came.", "muted")
    rows, tints = [], {}
    for i, r in enumerate(records):
        tokens = sum(t.input_tokens + t.output_tokens for t in r.tasks)
        rows.append([r.step, _nodes(r), r.status, f"{r.duration_ms:,.1f}", r.model_calls, f"{tokens:,}",
                     redact(r.error) if r.error else ""])
        if r.status in STEP_STATUS_COLORS:
            tints[(i, 2)] = STEP_STATUS_COLORS[r.status]
    doc.table(["Step", "Nodes", "Status", "Duration (ms)", "Model calls", "Tokens", "Error"], rows, cell_colors=tints)


def _section(doc: PdfDocument, title: str, room: float) -> None:
    """A section title that moves to the next page unless `room` points of its first block fit below it."""
    doc.add(CondPageBreak(room + 60))
    doc.heading(title, 1)


def _evolution(doc: PdfDocument, matrix: EvolutionMatrix) -> None:
    _section(doc, "Field evolution", min(11 * len(matrix.fields) + 60, 500))
    if not matrix.steps:
        doc.paragraph("No step has completed yet.", "muted")
        return
    doc.paragraph("What each completed step did to each state field. Columns are step numbers; the key under "
                  f"each table names the nodes of its steps (at most {STEPS_PER_TABLE} steps per table).", "muted")
    numbers = _step_numbers(matrix.steps)
    for start in range(0, len(matrix.steps), STEPS_PER_TABLE):
        stop = min(start + STEPS_PER_TABLE, len(matrix.steps))
        key = " · ".join(f"<b>{numbers[i]}</b> {markup(matrix.steps[i].split(' ', 1)[-1].replace('+', ' + '))}"
                         for i in range(start, stop))
        legend = [_legend_table(_inner(doc)), Spacer(1, 8)] if start == 0 else []
        doc.add(KeepTogether([*legend, _matrix_table(_inner(doc), matrix, numbers, start, stop),
                              Paragraph(key, doc.styles["small"])]))
        doc.spacer(8)


def _step_numbers(labels: Sequence[str]) -> list[str]:
    """The step number of each column, marked when a fork repeats one."""
    seen: dict[str, int] = {}
    out = []
    for text in labels:
        step = text.split(" ", 1)[0]
        seen[step] = seen.get(step, 0) + 1
        out.append(step if seen[step] == 1 else f"{step}'{seen[step]}")
    return out


def _grid_style(header_cols: int = 1) -> list[tuple]:
    return [("FONT", (0, 0), (-1, -1), "Helvetica", 6.5), ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 6.5),
            ("TEXTCOLOR", (0, 0), (-1, 0), colors.white), ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
            ("ALIGN", (header_cols, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("GRID", (0, 0), (-1, -1), 0.4, colors.white), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2), ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2)]


def _matrix_table(width: float, matrix: EvolutionMatrix, numbers: Sequence[str], start: int, stop: int) -> Table:
    field_w = width * 0.28
    cell_w = (width - field_w) / STEPS_PER_TABLE  # the same cell width in every table, the last one too
    data = [["field", *numbers[start:stop]]]
    style = _grid_style()
    style += [("FONT", (0, 1), (0, -1), "Helvetica", 7), ("LEFTPADDING", (0, 0), (0, -1), 4),
              ("BACKGROUND", (0, 1), (0, -1), colors.HexColor("#F3F5F8"))]
    for row, (name, cells) in enumerate(zip(matrix.fields, matrix.cells), 1):
        data.append([fit(name, "Helvetica", 7, field_w - 6), *(CELL_LOOK[k][0] for k in cells[start:stop])])
        for col, kind in enumerate(cells[start:stop], 1):
            if kind != "absent":
                style.append(("BACKGROUND", (col, row), (col, row), colors.HexColor(CELL_LOOK[kind][1])))
    table = Table(data, colWidths=[field_w] + [cell_w] * (stop - start), repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


def _legend_table(width: float) -> Table:
    cells, style = [], _grid_style(0)
    style = [s for s in style if s[0] not in ("BACKGROUND", "TEXTCOLOR")]
    for i, (kind, (glyph, color)) in enumerate(CELL_LOOK.items()):
        cells += [glyph, kind]
        style += [("BACKGROUND", (2 * i, 0), (2 * i, 0), colors.HexColor(color)),
                  ("BOX", (2 * i, 0), (2 * i, 0), 0.4, colors.HexColor("#C9D0D9")),
                  ("ALIGN", (2 * i + 1, 0), (2 * i + 1, 0), "LEFT"), ("FONT", (0, 0), (-1, -1), "Helvetica", 7.5)]
    step = width / len(CELL_LOOK)
    table = Table([cells], colWidths=[14, step - 14] * len(CELL_LOOK), hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


def _counters(doc: PdfDocument, counters: dict[str, dict[str, Any]], records: Sequence[StepRecord]) -> None:
    _section(doc, "Counters and limits", 20 * len(counters) + 30 + 120 * min(-(-len(counters) // 2), 2))
    if not counters:
        doc.paragraph("This workflow declares no loop counters.", "muted")
        return
    rows = []
    for name, c in counters.items():
        limit, value = c.get("limit"), int(c.get("value") or 0)
        state = "limit reached" if limit and value >= limit else (f"{value / limit:.0%} of the limit" if limit else "")
        rows.append([c["label"], name, value, limit if limit is not None else "none", state])
    doc.table(["Counter", "Field", "Value", "Limit", ""], rows)
    completed = [r for r in records if r.status == "completed" and r.counters]
    series = [CounterSeries(title=f"{c['label']} ({name})", steps=[r.step for r in completed if name in r.counters],
                            values=[r.counters[name] for r in completed if name in r.counters],
                            limit=c.get("limit")) for name, c in counters.items()]
    doc.add(counter_panels(series, _inner(doc)))
    doc.spacer(10)


def _chart(doc: PdfDocument, title: str, drawing: Drawing | None, note: str = "", empty: str = "") -> None:
    """A titled chart that starts a new page rather than leave its title behind at the bottom of one."""
    doc.add(CondPageBreak((drawing.height if drawing else 0) + 60))
    doc.heading(title, 2)
    if note:
        doc.paragraph(note, "muted")
    if drawing is None:
        doc.paragraph(empty, "muted")
        return
    doc.add(drawing)
    doc.spacer(10)


def _metrics(doc: PdfDocument, records: Sequence[StepRecord]) -> None:
    _section(doc, "Metrics", 200)
    usage = node_usage(records)
    if not usage:
        doc.paragraph("No node has run yet.", "muted")
        return
    nodes = [u.node for u in usage]
    _chart(doc, "Mean latency per node (ms)", horizontal_bars(
        [f"{u.node} ({u.runs}×)" for u in usage], [round(u.mean_ms, 1 if u.mean_ms < 100 else 0) for u in usage],
        None, _inner(doc)), note="The number of runs of each node is in brackets.")
    calls = [u.calls for u in usage]
    _chart(doc, "Model calls per node", horizontal_bars(nodes, calls, None, _inner(doc)) if any(calls) else None,
           empty="No node called a model.")
    tokens = {"input tokens": [u.input_tokens for u in usage], "output tokens": [u.output_tokens for u in usage]}
    _chart(doc, "Tokens per node", stacked_bars(nodes, tokens, _inner(doc))
           if any(map(any, tokens.values())) else None, empty="No tokens were reported (the offline engine counts none).")
    _timeline(doc, records, nodes)


def _timeline(doc: PdfDocument, records: Sequence[StepRecord], lanes: list[str]) -> None:
    """Steps laid end to end with the waits between them cut out; tasks at their offset inside their step."""
    bars, starts, offset = [], [], 0.0
    for record in records:
        tasks = [t for t in record.tasks if t.node != INPUT_NODE]
        if not tasks:
            continue
        starts.append(offset)
        span = record.duration_ms
        for task in tasks:
            inside = max(0.0, (task.started_at - record.started_at) * 1000)
            bars.append(TimelineBar(task.graph_node, offset + inside, task.duration_ms, task.status))
            span = max(span, inside + task.duration_ms)
        offset += span
    fmt = (lambda v: f"{number(round(v, 1))} ms") if offset < 2_000 else (lambda v: f"{number(round(v / 1000, 1))} s")
    _chart(doc, "Timeline of the tasks", timeline(lanes, bars, starts, _inner(doc), fmt),
           note="One row per node: the tasks of a parallel step sit on their own rows side by side. Steps are laid "
                "end to end (dotted lines) without the time spent waiting between them.")


def _domain_report(doc: PdfDocument, session: Session, redact) -> None:
    values = session.values()
    if not values:
        return
    try:
        report = session.spec.report(values)
    except Exception as exc:  # noqa: BLE001 - an unfinished state may not make a report; the trace still stands
        doc.heading("Workflow report", 1)
        doc.paragraph(f"The workflow's report cannot be drawn from this state yet ({type(exc).__name__}: "
                      f"{redact(exc)}).", "muted")
        return
    if not report.strip():
        return
    doc.page_break()
    doc.paragraph(f"The report of {session.spec.title}, from the state the run has reached.", "muted")
    doc.markdown(redact(report))
