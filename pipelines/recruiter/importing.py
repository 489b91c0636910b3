"""Import jobs and candidates from JSONL or CSV: each row checked, bad rows reported with their line number, good
rows upserted by id, resume files read with the shared loaders, and every document scanned for injected
instructions before an agent can read it."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pipelines.core.errors import format_validation_error
from pipelines.core.file_errors import unreadable_reason
from pipelines.core.guardrails.pii import EMAIL
from pipelines.core.resume_files import MAX_RESUME_BYTES, ResumeFileError, read_resume
from pipelines.core.text import one_line_name
from pipelines.recruiter.records import Candidate, Job

MAX_IMPORT_BYTES = 50 * 1024 * 1024
MAX_TEXT_CHARS = 64_000
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$"


def _split_list(value: Any) -> Any:
    """CSV cells hold lists as "a; b; c" (or a JSON list); JSONL rows hold real lists."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                return json.loads(text)
            except json.JSONDecodeError:
                pass
        separator = ";" if ";" in text else "|" if "|" in text else ","
        return [part.strip() for part in text.split(separator) if part.strip()]
    return value


def _blank_to_none(value: Any) -> Any:
    return None if isinstance(value, str) and not value.strip() else value


class JobRow(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)
    id: str = Field(pattern=ID_PATTERN)
    title: str = Field(min_length=1, max_length=300)
    description: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    location: str | None = Field(default=None, max_length=200)
    skills: list[str] = Field(default_factory=list, max_length=60)
    min_years: float | None = Field(default=None, ge=0, le=60)

    _lists = field_validator("skills", mode="before")(_split_list)
    _blanks = field_validator("location", "min_years", mode="before")(_blank_to_none)


class CandidateRow(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1, max_length=200)
    email: str | None = Field(default=None, max_length=320)
    phone: str | None = Field(default=None, max_length=64)
    resume_text: str | None = Field(default=None, max_length=MAX_TEXT_CHARS)
    resume_file: str | None = Field(default=None, max_length=500)
    skills: list[str] = Field(default_factory=list, max_length=100)
    years_experience: float | None = Field(default=None, ge=0, le=70)
    location: str | None = Field(default=None, max_length=200)

    _lists = field_validator("skills", mode="before")(_split_list)
    # A name is one line: a line break in a file's cell is layout, and the checks compare names the same way.
    _one_line = field_validator("name")(one_line_name)
    _blanks = field_validator("email", "phone", "resume_text", "resume_file", "years_experience", "location",
                              mode="before")(_blank_to_none)

    @field_validator("email")
    @classmethod
    def _an_address(cls, value: str | None) -> str | None:
        # The masker's own pattern: an address it would not recognise could reach a model in clear.
        if value is not None and not EMAIL.fullmatch(value):
            raise ValueError("not an email address")
        return value

    @model_validator(mode="after")
    def _has_a_resume(self) -> CandidateRow:
        if not self.resume_text and not self.resume_file:
            raise ValueError("a candidate needs resume_text or resume_file")
        return self


@dataclass
class ImportReport:
    kind: str
    inserted: int = 0
    updated: int = 0
    errors: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)
    rows: list[Any] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "inserted": self.inserted, "updated": self.updated, "rejected": len(self.errors),
                "flagged": self.flagged, "errors": self.errors}


def _records(text: str, name: str) -> Iterator[tuple[int, Any]]:
    """(line number, raw row) from JSONL or CSV; a row that cannot be parsed comes as (line, error text)."""
    stripped = text.lstrip("\ufeff")
    suffix = Path(name).suffix.lower()
    is_csv = suffix == ".csv" or (suffix not in (".jsonl", ".json", ".ndjson") and not stripped.lstrip().startswith("{"))
    if is_csv:
        reader = csv.DictReader(io.StringIO(stripped))
        try:
            for row in reader:
                if any((v or "").strip() for v in row.values() if isinstance(v, str)):
                    yield reader.line_num, {k.strip(): v for k, v in row.items() if k}
        except csv.Error as exc:
            yield reader.line_num, f"from here the file {unreadable_reason(exc, 'CSV')}"
        return
    for number, line in enumerate(stripped.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, f"not valid JSON ({exc.msg} at column {exc.colno})"
            continue
        yield number, row if isinstance(row, dict) else "not a JSON object"


def parse_rows(text: str, name: str, model: type[BaseModel]) -> tuple[list[tuple[int, BaseModel]], list[str]]:
    """The rows that pass the schema with their line numbers, and one error line per bad row. A repeated id
    keeps its last row, as an update would."""
    good: dict[str, tuple[int, BaseModel]] = {}
    errors: list[str] = []
    for number, raw in _records(text, name):
        if isinstance(raw, str):
            errors.append(f"line {number}: {raw}")
            continue
        try:
            row = model.model_validate(raw)
        except ValidationError as exc:
            errors.append(f"line {number}: {format_validation_error(exc)}")
            continue
        good[row.id] = (number, row)
    return list(good.values()), errors


def read_import_file(path: Path) -> str:
    if not path.is_file():
        raise FileNotFoundError(f"file not found: {path}")
    if path.stat().st_size > MAX_IMPORT_BYTES:
        raise ValueError(f"{path.name} is {path.stat().st_size / 1024 / 1024:.0f} MB; the limit is "
                         f"{MAX_IMPORT_BYTES // 1024 // 1024} MB")
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path.name} is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def jobs_from_text(text: str, name: str) -> ImportReport:
    parsed, errors = parse_rows(text, name, JobRow)
    report = ImportReport("jobs", errors=errors)
    report.rows = [Job(r.id, r.title, r.description, r.location, tuple(r.skills), r.min_years) for _, r in parsed]
    return report


def candidates_from_text(text: str, name: str, base_dir: Path | None) -> ImportReport:
    """Candidates with their resume text; a resume file is read relative to the import file's folder."""
    parsed, errors = parse_rows(text, name, CandidateRow)
    report = ImportReport("candidates", errors=errors)
    for number, row in parsed:
        resume_text, source_file = row.resume_text, None
        if row.resume_file:
            path = Path(row.resume_file).expanduser()
            if not path.is_absolute() and base_dir is not None:
                path = base_dir / path
            try:
                data = path.read_bytes()
                if len(data) > MAX_RESUME_BYTES:
                    raise ResumeFileError(f"{path.name} is over {MAX_RESUME_BYTES // 1024 // 1024} MB")
                resume_text, source_file = read_resume(path.name, data), row.resume_file
            except FileNotFoundError:
                report.errors.append(f"line {number}: resume_file {row.resume_file!r} not found")
                continue
            except (ResumeFileError, OSError) as exc:
                report.errors.append(f"line {number}: {exc}")
                continue
        report.rows.append(Candidate(row.id, row.name, resume_text or "", row.email, row.phone, tuple(row.skills),
                                     row.years_experience, row.location, source_file))
    return report


def flag_injected(report: ImportReport, text_of: Callable[[Any], str]) -> list[tuple[str, list[Any]]]:
    """Each row's document through the documents' scan; the rows still go in (the data is the recruiter's), but
    are named in the report and their findings returned for the guardrail log."""
    from pipelines.core.guardrails.document_scan import scan_document

    flagged = []
    for row in report.rows:
        scanned = scan_document(text_of(row))
        if scanned:
            report.flagged.append(row.id)
            flagged.append((row.id, list(scanned.findings)))
    return flagged
