"""Turning what engineers hand in (a .jsonl file, a log file, a pasted trace) into exceptions for the queue."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from pipelines.core.errors import format_validation_error
from pipelines.flink_diagnosis.patterns import exception_classes
from pipelines.flink_diagnosis.schemas import SubmittedException

MAX_UPLOAD_MB = 20  # the upload widget's limit too; megabytes as Streamlit counts them (MiB)
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024
# A line that starts an exception: optional log prefix, then a qualified class ending in Exception/Error.
HEADER_RE = re.compile(r"^(?!\s*(?:at\s|caused by|\.\.\.\s*\d+\s+more|suppressed:))"
                       r".*?\b((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable))(?::|\s*$)",
                       re.IGNORECASE)
CONTINUATION_RE = re.compile(r"^\s+\S|^\s*(?:at\s|caused by|\.\.\.\s*\d+\s+more|suppressed:)", re.IGNORECASE)
LOG_LINE_RE = re.compile(r"^\s*(?:\d{4}-\d{2}-\d{2}|\[?\d{2}:\d{2}:\d{2})")


@dataclass
class Intake:
    exceptions: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "line 7: job_id: Field required"


class UploadError(ValueError):
    """An upload that cannot be read at all (binary, too large, wrong encoding)."""


def decode_upload(data: bytes, name: str) -> str:
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"{name} is {len(data) / 1024 / 1024:.1f} MB; the limit is {MAX_UPLOAD_MB} MB per file")
    if b"\x00" in data[:4096]:
        raise UploadError(f"{name} looks like a binary file; upload a .jsonl file or a text log")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def validate_exception(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError("expected a JSON object with job_id and error_message")
    try:
        return SubmittedException.model_validate(raw).model_dump()
    except ValidationError as exc:
        raise ValueError(format_validation_error(exc)) from exc


def parse_jsonl(text: str) -> Intake:
    """One exception per line; a bad line is reported with its number and reason, the good ones go in."""
    intake = Intake()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            intake.exceptions.append(validate_exception(json.loads(line)))
        except json.JSONDecodeError as exc:
            intake.errors.append(f"line {number}: not valid JSON ({exc.msg} at column {exc.colno})")
        except ValueError as exc:
            intake.errors.append(f"line {number}: {exc}")
    return intake


@dataclass(frozen=True)
class LogBlock:
    """One exception of a log: its text and the lines it spans (1-based), for messages about it."""

    text: str
    first: int
    last: int

    @property
    def where(self) -> str:
        return f"line {self.first}" if self.first == self.last else f"lines {self.first}–{self.last}"


def log_blocks(text: str) -> list[LogBlock]:
    """The exception blocks of a log: a header line and its frames, `Caused by`s and indented lines."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if current is not None and CONTINUATION_RE.match(line) and not LOG_LINE_RE.match(line):
            current.append(line)
            continue
        current = None
        if HEADER_RE.match(line):
            current = [line]
            blocks.append((number, current))
    return [LogBlock("\n".join(lines).strip(), first, first + len(lines) - 1) for first, lines in blocks]


def split_log(text: str) -> list[str]:
    return [block.text for block in log_blocks(text)]


def parse_log(text: str, job_id: str, job_name: str | None = None) -> Intake:
    """Each exception block of a log file (or the whole text, if it has none) as one exception of `job_id`; a
    block that cannot go in is reported with the lines it spans."""
    intake = Intake()
    blocks = log_blocks(text)
    if not blocks and text.strip():
        lines = text.strip("\n").splitlines()
        leading = len(text) - len(text.lstrip("\n"))
        blocks = [LogBlock(text.strip(), leading + 1, leading + len(lines))]
    for block in blocks:
        classes = exception_classes(block.text.splitlines()[0])
        try:
            intake.exceptions.append(validate_exception({"job_id": job_id, "job_name": job_name,
                                                         "error_type": classes[0] if classes else None,
                                                         "error_message": block.text}))
        except ValueError as exc:
            intake.errors.append(f"{block.where}: {exc}")
    if not blocks:
        intake.errors.append("the text is empty")
    return intake


def parse_upload(data: bytes, name: str, job_id: str = "", job_name: str | None = None) -> Intake:
    """A `.jsonl` file line by line; anything else as a log file of `job_id`."""
    text = decode_upload(data, name)
    if name.lower().endswith((".jsonl", ".ndjson")):
        return parse_jsonl(text)
    return parse_log(text, job_id or name, job_name)
