"""Words and numbers the Flink views, reports and run titles share: confidence digits, status names, titles."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from pipelines.core.markup import escape_markdown
from pipelines.core.text import clip
from pipelines.flink_diagnosis.patterns import EXCEPTION_CLASS_RE, deepest_cause, headline, simple_name

STATUS_LABELS = {"pending": "Pending", "in_progress": "In progress", "completed": "Completed", "failed": "Failed"}
PRIORITY_LABELS = {"high": "High", "medium": "Medium", "low": "Low"}
SOURCE_LABELS = {"shipped": "Shipped", "accumulated": "Learnt from diagnoses"}
TITLE_MAX_CHARS = 120
_DIGITS = 3
# A code span of configuration (`state.backend.type: rocksdb`, `-XX:+HeapDumpOnOutOfMemoryError`): with no
# brackets, parentheses, `!`, `<` or `*` in it nothing can be markup, so it keeps its code look.
_KEY_SPAN = re.compile(r"`([\w$.\-:+=/%@,](?:[\w$.\-:+=/%@, ]{0,158}[\w$.\-:+=/%@,])?)`")


def status_label(status: Any) -> str:
    return STATUS_LABELS.get(str(status), str(status or "—").replace("_", " ").capitalize())


def shown_confidence(value: Any) -> float | None:
    """The confidence cut (not rounded) to three decimals: what is shown compares with a threshold of up to
    three decimals exactly as the value itself does (0.7996 shows 0.799, never 0.80 next to "≥ 0.80")."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if math.isnan(number):
        return None
    scale = 10 ** _DIGITS
    # round() first absorbs float noise: 0.795 * 1000 is 794.999…, which must still show 0.795.
    return math.floor(round(number * scale, 6)) / scale


def confidence_text(value: Any) -> str:
    """0.8 → "0.80", 0.795 → "0.795": two decimals, a third when it matters; "—" when there is none."""
    shown = shown_confidence(value)
    if shown is None:
        return "—"
    text = f"{shown:.{_DIGITS}f}"
    return text[:-1] if text.endswith("0") else text


def threshold_verdict(value: Any, threshold: float) -> str:
    """How a confidence compares with the accumulate threshold, in the digits the page shows."""
    shown, limit = confidence_text(value), confidence_text(threshold)
    try:
        learnt = float(value) >= float(threshold)
    except (TypeError, ValueError):
        return f"confidence {shown}"
    return f"confidence {shown} ≥ {limit}" if learnt else f"confidence {shown} is below the {limit} threshold"


def text_markdown(text: Any) -> str:
    """Outside text (a model's or the engine's diagnosis quoting a user's exception) as Markdown that shows it
    as written, except that `config.keys` keep their code look."""
    text = "" if text is None else str(text)
    out, last = [], 0
    for match in _KEY_SPAN.finditer(text):
        out += [escape_markdown(text[last:match.start()]), f"`{match.group(1)}`"]
        last = match.end()
    return "".join(out) + escape_markdown(text[last:])


def unique(items: Iterable[Any]) -> list[str]:
    """Non-blank texts once each, in their first order (related docs a model or the engine listed twice)."""
    return list(dict.fromkeys(text for item in items or () if (text := str(item or "").strip())))


def _short_classes(text: str) -> str:
    """`java.lang.OutOfMemoryError` → `OutOfMemoryError`, so a title has room for the message."""
    return EXCEPTION_CLASS_RE.sub(lambda m: simple_name(m.group(0)), text)


def exception_summary(error_message: Any, error_type: Any = None, limit: int = 70) -> str:
    """What the exception is, with short class names: the deepest cause's (else the text's) first line naming an
    exception class, else its first line behind the error type."""
    message = str(error_message or "")
    text = deepest_cause(message) or message
    lines = [headline(line, 400) for line in text.splitlines()]  # log prefixes and stack frames left out
    line = next((line for line in lines if EXCEPTION_CLASS_RE.search(line)), "")
    kind = simple_name(str(error_type or ""))
    if not line:
        line = f"{kind}: {headline(text, 400)}".strip(": ") if kind else headline(text, 400)
    line = re.sub(r"\s+", " ", _short_classes(line)).strip()
    return clip(line or "exception", limit)


def exception_title(job: Mapping[str, Any], when: datetime | None = None) -> str:
    """A run's title from its exception: "OutOfMemoryError: Metaspace · job orders-etl · #12 · 2026-05-01 14:03"."""
    parts = [exception_summary(job.get("error_message"), job.get("error_type"))]
    if who := str(job.get("job_name") or job.get("job_id") or "").strip():
        parts.append(f"job {clip(who, 32)}")
    if job.get("exception_id"):
        parts.append(f"#{job['exception_id']}")
    parts.append((when or datetime.now()).strftime("%Y-%m-%d %H:%M"))
    return clip(" · ".join(parts), TITLE_MAX_CHARS)


def run_title(raw: Mapping[str, Any]) -> str | None:
    """The title of a run whose input carries the exception (a scenario, a pasted trace); None otherwise."""
    exception = raw.get("exception") if isinstance(raw.get("exception"), Mapping) else raw
    if not isinstance(exception, Mapping) or not exception.get("error_message"):
        return None
    return exception_title(exception)
