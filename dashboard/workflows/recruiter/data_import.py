"""The Recruiting data page's Import tab: jobs and candidates from uploaded JSON Lines or CSV files, each row checked
(a bad row is listed with its line number and reason, the good ones go in), upserted by id, and every document
scanned for instructions addressed to an AI (imported all the same, named, and written to the guardrail log).

An upload that cannot be read at all (empty, binary, not UTF-8, too large, neither JSON Lines nor CSV) stops the
whole import before the database is touched: nothing is half-imported and both uploads stay in their boxes."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.workflows.recruiter import stores
from pipelines.core.file_errors import unreadable_reason
from pipelines.core.markup import escape_markdown
from pipelines.recruiter.importing import (MAX_IMPORT_BYTES, CandidateRow, ImportReport, JobRow, flag_injected,
                                           jobs_from_text, parse_rows)
from pipelines.recruiter.records import Candidate
from pipelines.recruiter.store import RecruitingStore

MAX_IMPORT_MB = MAX_IMPORT_BYTES // (1024 * 1024)
IMPORT_TYPES = ["jsonl", "ndjson", "json", "csv"]
REQUIRED_COLUMNS = {"jobs": ("id", "title", "description"), "candidates": ("id", "name", "resume_text")}
COLUMNS = {"jobs": tuple(JobRow.model_fields),
           "candidates": tuple(name for name in CandidateRow.model_fields if name != "resume_file")}
RESULT_KEY = "recruiting_import_result"
ERROR_COLUMNS = {"file": "File", "line": "Line", "reason": "Reason"}
_LINE_ERROR = re.compile(r"^line (\d+): (.*)$", re.S)


class UploadProblem(ValueError):
    """An upload that cannot be imported at all; the message names the file and says why."""


@dataclass(frozen=True)
class Upload:
    kind: str  # "jobs" or "candidates"
    name: str
    text: str


def _check_csv_header(kind: str, name: str, text: str) -> None:
    try:
        header = [cell.strip() for cell in next(csv.reader(io.StringIO(text)), [])]
    except csv.Error as exc:
        raise UploadProblem(f"{name} {unreadable_reason(exc, 'CSV')}") from exc
    missing = [column for column in REQUIRED_COLUMNS[kind] if column not in header]
    if missing:
        raise UploadProblem(f"the header row of {name} has no {', '.join(missing)} column; a {kind} CSV has the "
                            f"columns {', '.join(COLUMNS[kind])}")


def read_upload(kind: str, name: str, data: bytes) -> Upload:
    """The upload's text, or UploadProblem when it cannot be a JSON Lines or CSV file of `kind`."""
    suffix = Path(name).suffix.lower().lstrip(".")
    if suffix not in IMPORT_TYPES:
        raise UploadProblem(f"{name} is not a .jsonl or .csv file")
    if len(data) > MAX_IMPORT_BYTES:
        raise UploadProblem(f"{name} is {len(data) / 1024 / 1024:.1f} MB; the limit is {MAX_IMPORT_MB} MB per file")
    if b"\x00" in data[:8192]:
        raise UploadProblem(f"{name} looks like a binary file, not JSON Lines or CSV text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UploadProblem(f"{name} is not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8 and "
                            "upload it again") from exc
    if not text.strip():
        raise UploadProblem(f"{name} is empty")
    if suffix == "csv":
        _check_csv_header(kind, name, text)
    elif text.lstrip().startswith("["):
        raise UploadProblem(f"{name} holds a JSON array; the import reads JSON Lines, one object per line")
    elif not any(line.lstrip().startswith("{") for line in text.splitlines()):
        raise UploadProblem(f"{name} is not JSON Lines: no line holds a JSON object")
    return Upload(kind, name, text)


def candidates_from_upload(upload: Upload) -> ImportReport:
    """Candidates with their resume text. A `resume_file` is not read: it names a file on the server, not one
    that came with the upload (the command line's import reads them, next to its file)."""
    parsed, errors = parse_rows(upload.text, upload.name, CandidateRow)
    report = ImportReport("candidates", errors=errors)
    for number, row in parsed:
        if not row.resume_text:
            report.errors.append(f"line {number}: resume_file is not read from an upload; give the resume as "
                                 "resume_text, or import with `python -m pipelines recruiter import`")
            continue
        report.rows.append(Candidate(row.id, row.name, row.resume_text, row.email, row.phone, tuple(row.skills),
                                     row.years_experience, row.location, None))
    return report


def split_error(error: str) -> tuple[int | None, str]:
    """"line 7: id: Field required" → (7, "id: Field required")."""
    match = _LINE_ERROR.match(error)
    return (int(match.group(1)), match.group(2)) if match else (None, error)


def import_uploads(store: RecruitingStore, uploads: list[Upload]) -> list[dict[str, Any]]:
    """Each upload's rows upserted by id; what went in, what was refused and what was flagged, per file."""
    log = stores.guardrail_log(store)
    results = []
    for upload in uploads:
        if upload.kind == "jobs":
            report = jobs_from_text(upload.text, upload.name)
            flagged = flag_injected(report, lambda job: job.description)
            report.inserted, report.updated = store.upsert_jobs(report.rows, source=upload.name)
        else:
            report = candidates_from_upload(upload)
            flagged = flag_injected(report, lambda person: person.resume_text)
            report.inserted, report.updated = store.upsert_candidates(report.rows, source=upload.name)
        for row_id, findings in flagged:
            log.write(findings, context={"import": upload.name, upload.kind[:-1]: row_id})
        errors = sorted((split_error(e) for e in report.errors), key=lambda pair: (pair[0] is None, pair[0] or 0))
        results.append({"kind": upload.kind, "file": upload.name, "inserted": report.inserted,
                        "updated": report.updated, "flagged": list(report.flagged), "errors": errors})
    return results


def run_import(store: RecruitingStore, files: list[tuple[str, Any]]) -> dict[str, Any]:
    """Read every upload first: one that cannot be read stops the import with nothing written."""
    uploads, problems = [], []
    for kind, file in files:
        if file is None:
            continue
        try:
            uploads.append(read_upload(kind, file.name, file.getvalue()))
        except UploadProblem as exc:
            problems.append(str(exc))
    if problems:
        return {"problems": problems, "files": []}
    return {"problems": [], "files": import_uploads(store, uploads)}


def _forget_result() -> None:
    st.session_state.pop(RESULT_KEY, None)


def render_import_tab(store: RecruitingStore) -> None:
    st.caption(f"JSON Lines (one object per line) or CSV with a header row, up to {MAX_IMPORT_MB} MB per file. Rows "
               "are matched by id: a new id is added, a known one updated. Lists (skills) in a CSV cell are written "
               "`a; b; c`. Documents that carry instructions addressed to an AI are imported as data, named below "
               "and written to the guardrail log.")
    left, right = st.columns(2)
    with left:
        jobs_file = st.file_uploader(f"Jobs (.jsonl or .csv, up to {MAX_IMPORT_MB} MB)", type=IMPORT_TYPES,
                                     key="recruiting_import_jobs",
                                     max_upload_size=MAX_IMPORT_MB, on_change=_forget_result)
        st.caption("Columns: " + escape_markdown(", ".join(COLUMNS["jobs"])))
    with right:
        people_file = st.file_uploader(f"Candidates (.jsonl or .csv, up to {MAX_IMPORT_MB} MB)", type=IMPORT_TYPES,
                                       key="recruiting_import_candidates", max_upload_size=MAX_IMPORT_MB,
                                       on_change=_forget_result)
        st.caption("Columns: " + escape_markdown(", ".join(COLUMNS["candidates"])))
    if st.button("Import", key="recruiting_import_run", type="primary", disabled=jobs_file is None and people_file is None):
        with st.spinner("Importing…"):
            st.session_state[RESULT_KEY] = run_import(store, [("jobs", jobs_file), ("candidates", people_file)])
    result = st.session_state.get(RESULT_KEY)
    if result:
        render_import_result(result)
    _render_reset(store)


def render_import_result(result: dict[str, Any]) -> None:
    if result.get("notice"):
        st.success(escape_markdown(result["notice"]))
    if result.get("failure"):
        st.error(escape_markdown(result["failure"]))
    for problem in result.get("problems", []):
        st.error(escape_markdown(problem))
    if result.get("problems"):
        st.caption("Nothing was imported: fix the file (or replace the upload) and press Import again.")
    rows = []
    for item in result.get("files", []):
        name = escape_markdown(item["file"], line_breaks=False)
        refused = len(item["errors"])
        text = (f"{item['kind'].capitalize()} from {name}: {item['inserted']} added, {item['updated']} updated"
                + (f", {refused} row(s) refused." if refused else "."))
        (st.success if item["inserted"] or item["updated"] else st.warning)(text)
        if item["flagged"]:
            ids = escape_markdown(", ".join(item["flagged"][:50]) + (" …" if len(item["flagged"]) > 50 else ""),
                                  line_breaks=False)
            st.warning(f"{len(item['flagged'])} {item['kind'][:-1]} document(s) in {name} carry instructions "
                       f"addressed to an AI: {ids}. They were imported and are treated as data, never followed; "
                       "the guardrail log lists them.", icon=":material/gpp_maybe:")
        rows += [{"file": item["file"], "line": line, "reason": reason} for line, reason in item["errors"]]
    if rows:
        st.markdown("**Refused rows**")
        frame = pd.DataFrame(rows, columns=list(ERROR_COLUMNS)).astype({"line": "Int64"})
        st.dataframe(frame, hide_index=True, width="stretch", placeholder="—", key="recruiting_import_errors",
                     column_config=ERROR_COLUMNS)


def _render_reset(store: RecruitingStore) -> None:
    with st.popover("Reset to the demo data…"):
        st.caption("Deletes every job, candidate, application, chat session and paused workflow of the recruiting "
                   "database, then loads the shipped demo data again. The guardrail log is kept.")
        if st.button("Delete everything and reload the demo", key="recruiting_reset_demo", type="primary"):
            store.clear()
            problem = stores.load_demo(store)
            st.session_state[RESULT_KEY] = ({"failure": problem} if problem else
                                            {"notice": "The recruiting data was reset to the demo data."})
            st.rerun()
