"""The Flink diagnosis report as a PDF: one exception in full, or a batch with summary, table and sections."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pipelines.core.pdf.document import PdfDocument
from pipelines.flink_diagnosis.categories import label
from pipelines.flink_diagnosis.display import confidence_text, status_label, unique
from pipelines.flink_diagnosis.patterns import headline
from pipelines.flink_diagnosis.tables import STATUSES

PRIORITIES = ("high", "medium", "low")
PRIORITY_COLORS = {"high": "#F8D7DA", "medium": "#FFF3CD", "low": "#D4EDDA"}
FAILED_COLOR = "#FBE9EA"
MAX_SECTIONS = 200
# Job configs may carry connector credentials; a PDF is handed around, so their values never go in it.
SECRET_KEY = re.compile(r"pass(word|wd)?\b|secret|token|credential|jaas|api[._-]?key|access[._-]?key|private[._-]?key",
                        re.IGNORECASE)


def diagnosis_pdf(rows: list[dict], title: str = "Flink diagnosis report", filters: dict | None = None,
                  date: str | None = None) -> bytes:
    """One row: the exception and its diagnosis in full. Several (or none): summary, table, then sections."""
    date = date or datetime.now().strftime("%Y-%m-%d %H:%M")
    if len(rows) == 1:
        row = rows[0]
        doc = PdfDocument(title, subtitle=f"Exception #{_id(row)} · job {_job(row)}", date=date)
        _single(doc, row)
    else:
        doc = PdfDocument(title, subtitle=f"{len(rows)} exceptions", date=date)
        _batch(doc, rows, filters or {})
    return doc.build()


def _id(row: Mapping[str, Any]) -> Any:
    # The store labels the primary key exception_id; older callers pass id.
    return row.get("id", row.get("exception_id", "?"))


def _job(row: Mapping[str, Any]) -> str:
    return str(row.get("job_name") or row.get("job_id") or "?")


def _diagnosis(row: Mapping[str, Any]) -> dict[str, Any] | None:
    value = row.get("diagnosis")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, dict) and value else None


def _when(value: Any) -> str:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    return "" if value is None else str(value)


def _confidence(diagnosis: Mapping[str, Any] | None) -> float | None:
    try:
        return min(max(float(diagnosis["confidence"]), 0.0), 1.0) if diagnosis else None
    except (KeyError, TypeError, ValueError):
        return None


def _even(columns: int) -> list[float]:
    return [1 / columns] * columns


def _config(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    items = []
    for key, value in list(config.items())[:40]:
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        items.append((str(key), "***" if SECRET_KEY.search(str(key)) else shown))
    if len(config) > 40:
        items.append(("…", f"{len(config) - 40} more settings"))
    return items


def _single(doc: PdfDocument, row: Mapping[str, Any]) -> None:
    doc.key_values([("Exception", f"#{_id(row)}"), ("Job id", row.get("job_id") or ""),
                    ("Job name", row.get("job_name") or "—"), ("Error type", row.get("error_type") or "—"),
                    ("Status", status_label(row.get("status"))), ("Attempts", row.get("attempts", 0)),
                    ("Claimed by", row.get("claimed_by") or "—"), ("Created", _when(row.get("created_at"))),
                    ("Updated", _when(row.get("updated_at")))])
    doc.heading("Error message", 2)
    doc.code(row.get("error_message") or "", max_lines=60)
    _diagnosis_body(doc, row, level=2)
    if isinstance(row.get("job_config"), Mapping) and row["job_config"]:
        doc.heading("Job configuration", 2)
        doc.key_values(_config(row["job_config"]), label_width=0.42)


def _diagnosis_body(doc: PdfDocument, row: Mapping[str, Any], level: int, compact: bool = False) -> None:
    """The card (category, priority, confidence) and the texts; compact puts the texts in one label/value block."""
    diagnosis, status = _diagnosis(row), row.get("status") or "pending"
    if status == "failed" or (row.get("error") and not diagnosis):
        doc.heading("Diagnosis failed", level)
        doc.code(row.get("error") or "no error was recorded", max_lines=20)
    if not diagnosis:
        if status != "failed":
            doc.paragraph(f"Not diagnosed yet (status: {status.replace('_', ' ')}).", "muted")
        return
    if not compact:
        doc.heading("Diagnosis", level)
    priority = str(diagnosis.get("priority") or "—")
    doc.table(["Category", "Priority", "Confidence"],
              [[label(diagnosis.get("category") or "unknown"), priority, confidence_text(_confidence(diagnosis))]],
              col_widths=[0.5, 0.25, 0.25], zebra=False,
              cell_colors={(0, 1): PRIORITY_COLORS[priority]} if priority in PRIORITY_COLORS else None)
    texts = [(name, str(diagnosis[key])) for name, key in (("Root cause", "root_cause"),
             ("Analysis", "detailed_analysis"), ("Suggested fix", "suggested_fix")) if diagnosis.get(key)]
    docs = unique(diagnosis.get("related_docs") or [])
    if compact:
        doc.key_values(texts + ([("Related documentation", "\n".join(f"- {d}" for d in docs))] if docs else []),
                       label_width=0.2, markdown=True)
        return
    for name, text in texts:
        doc.heading(name, level + 1)
        doc.markdown(text)
    if docs:
        doc.heading("Related documentation", level + 1)
        doc.bullets(docs)


def _batch(doc: PdfDocument, rows: list[dict], filters: Mapping[str, Any]) -> None:
    diagnosed = [(row, d) for row in rows if (d := _diagnosis(row))]
    doc.heading("Summary", 1)
    shown = [(str(k).replace("_", " ").capitalize(), ", ".join(map(str, v)) if isinstance(v, (list, tuple, set))
              else str(v)) for k, v in filters.items() if v not in (None, "", [], ())]
    doc.heading("Filters", 3)
    doc.key_values(shown or [("Filters", "none: every exception")])
    if not rows:
        doc.paragraph("No exception matches these filters.")
        return
    doc.heading("Counts", 3)
    status = Counter(str(r.get("status") or "pending") for r in rows)
    names = [*STATUSES, *sorted(set(status) - set(STATUSES))]
    doc.table(["Status", *(n.replace("_", " ") for n in names), "total"],
              [["exceptions", *(status.get(n, 0) for n in names), len(rows)]], _even(len(names) + 2), zebra=False)
    priority = Counter(str(d.get("priority") or "unknown") for _, d in diagnosed)
    names = [*PRIORITIES, *sorted(set(priority) - set(PRIORITIES))]
    doc.table(["Priority", *names, "not diagnosed"],
              [["diagnoses", *(priority.get(n, 0) for n in names), len(rows) - len(diagnosed)]],
              _even(len(names) + 2), zebra=False)
    if diagnosed:
        categories = Counter(label(d.get("category") or "unknown") for _, d in diagnosed).most_common()
        doc.bar_chart([c for c, _ in categories], [n for _, n in categories], title="Diagnoses by category")
        doc.histogram([c for _, d in diagnosed if (c := _confidence(d)) is not None], bins=10, value_range=(0, 1),
                      title="Confidence of the diagnoses", fmt=lambda v: f"{v:.0%}")
    doc.page_break()
    doc.heading("Exceptions", 1)
    table, colors = [], {}
    for i, row in enumerate(rows):
        d = _diagnosis(row)
        pr = str(d.get("priority") or "—") if d else "—"
        text = headline(row.get("error_message") or "", 160)
        if row.get("status") == "failed":
            text += f"\nDiagnosis failed: {headline(str(row.get('error') or ''), 160)}"
            colors[(i, None)] = FAILED_COLOR
        if pr in PRIORITY_COLORS:
            colors[(i, 3)] = PRIORITY_COLORS[pr]
        table.append([_id(row), _job(row), label(d.get("category") or "unknown") if d else "—", pr,
                      confidence_text(_confidence(d)), status_label(row.get("status")), text])
    doc.table(["ID", "Job", "Category", "Priority", "Conf.", "Status", "Error"], table,
              col_widths=[0.06, 0.16, 0.16, 0.09, 0.07, 0.1, 0.36], cell_colors=colors)
    _sections(doc, [r for r in rows if r.get("status") in ("completed", "failed") or _diagnosis(r)])


def _sections(doc: PdfDocument, rows: list[dict]) -> None:
    if not rows:
        return
    doc.page_break()
    doc.heading("Diagnoses", 1)
    if len(rows) > MAX_SECTIONS:
        doc.paragraph(f"The first {MAX_SECTIONS} of {len(rows)} diagnosed or failed exceptions are shown in "
                      f"full; the table above lists them all.", "muted")
    for row in rows[:MAX_SECTIONS]:
        doc.heading(f"#{_id(row)} · {_job(row)}", 2)
        doc.paragraph(" · ".join(p for p in (f"job id {row.get('job_id') or '?'}", row.get("error_type"),
                                             f"created {_when(row.get('created_at'))}") if p), "muted")
        doc.code(row.get("error_message") or "", max_lines=12)
        _diagnosis_body(doc, row, level=3, compact=True)
