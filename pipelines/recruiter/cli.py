"""`python -m pipelines recruiter import|match|guard`: the recruiting data and the guardrails from the terminal."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from pipelines.core.errors import InvalidInput
from pipelines.core.markup import spreadsheet_safe
from pipelines.core.settings import Settings, load_settings, parse_assignments
from pipelines.recruiter.settings import WORKFLOW_ID, recruiter_settings

MATCH_FIELDS = ("rank", "candidate_id", "name", "score", "bm25", "skills", "embedding", "filter", "passes_filters",
                "matched_skills", "missing_skills", "reasons", "filter_notes")


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings(data_dir=args.data_dir, db_url=getattr(args, "db_url", None),
                             chroma_url=getattr(args, "chroma_url", None),
                             workflow_overrides={WORKFLOW_ID: parse_assignments(getattr(args, "set", None))})
    recruiter_settings(settings)  # a refused --set value stops the command before the database is touched
    return settings


def _read(path_text: str) -> tuple[str, Path]:
    from pipelines.recruiter.importing import read_import_file

    path = Path(path_text)
    try:
        return read_import_file(path), path
    except (FileNotFoundError, ValueError) as exc:
        raise InvalidInput(str(exc)) from exc
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}") from exc


def cmd_import(args: argparse.Namespace) -> int:
    from pipelines.recruiter.importing import candidates_from_text, flag_injected, jobs_from_text
    from pipelines.recruiter.services import open_store
    from pipelines.core.guardrails.log import GuardrailLog

    if not args.jobs and not args.candidates:
        raise InvalidInput("give --jobs FILE, --candidates FILE or both")
    store = open_store(_settings(args), demo=False)
    log = GuardrailLog(store.engine)
    summary: dict[str, Any] = {}
    for kind, path_text in (("jobs", args.jobs), ("candidates", args.candidates)):
        if not path_text:
            continue
        text, path = _read(path_text)
        if kind == "jobs":
            report = jobs_from_text(text, path.name)
            flagged = flag_injected(report, lambda job: job.description)
            report.inserted, report.updated = store.upsert_jobs(report.rows, source=path.name)
        else:
            report = candidates_from_text(text, path.name, path.parent)
            flagged = flag_injected(report, lambda c: c.resume_text)
            report.inserted, report.updated = store.upsert_candidates(report.rows, source=path.name)
        for row_id, findings in flagged:
            log.write(findings, context={"import": path.name, kind[:-1]: row_id})
        for error in report.errors:
            print(f"{path}: {error}", file=sys.stderr)
        for row_id in report.flagged:
            print(f"{path}: {row_id}: instructions addressed to an AI were found in the document; it was imported "
                  "and will be treated as data, never followed", file=sys.stderr)
        summary[kind] = report.as_dict() | {"errors": len(report.errors)}
    print(json.dumps(summary, ensure_ascii=False))
    imported = sum(s["inserted"] + s["updated"] for s in summary.values())
    rejected = sum(s["rejected"] for s in summary.values())
    return 0 if imported or not rejected else 1


def match_row(rank: int, match: Any) -> dict[str, Any]:
    return {"rank": rank, "candidate_id": match.candidate_id, "name": match.name, "score": round(match.score, 4),
            **{part: round(match.parts.get(part, 0.0), 4) for part in ("bm25", "skills", "embedding", "filter")},
            "passes_filters": match.passes_filters, "matched_skills": list(match.matched_skills),
            "missing_skills": list(match.missing_skills), "reasons": list(match.reasons),
            "filter_notes": list(match.filter_notes)}


def write_rows(rows: list[dict[str, Any]], fmt: str, out: TextIO) -> None:
    if fmt == "jsonl":
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
        return
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else list(MATCH_FIELDS))
    writer.writeheader()
    for row in rows:
        writer.writerow({k: spreadsheet_safe("; ".join(map(str, v)) if isinstance(v, list) else v)
                         for k, v in row.items()})


def cmd_match(args: argparse.Namespace) -> int:
    from pipelines.recruiter.services import services_for

    services = services_for(_settings(args))
    job = services.store.job(args.job_id)
    if job is None:
        known = ", ".join(j.id for j in services.store.jobs()[:20])
        raise InvalidInput(f"no job {args.job_id!r} (known: {known or 'none; import some with recruiter import'})")
    if args.top < 1:
        raise InvalidInput("--top must be at least 1")
    matches = services.index().rank(job, top=args.top)
    write_rows([match_row(rank, m) for rank, m in enumerate(matches, start=1)], args.format, sys.stdout)
    return 0


def cmd_guard(args: argparse.Namespace) -> int:
    from pipelines.core.guardrails.input_validator import guard_record

    text, path = _read(args.file)
    out_lines, unjudged = [], []
    # JSONL records end at "\n" only: str.splitlines() also cuts at U+2028 and other separators inside a text.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not isinstance(record.get("text"), str):
                raise ValueError('a line is {"id": ..., "text": "..."}')
        except (json.JSONDecodeError, ValueError) as exc:
            print(f"{path}: line {number}: {exc}", file=sys.stderr)
            unjudged.append(number)
            continue
        line_out = json.dumps(guard_record(record), ensure_ascii=False)
        # Escaped, so that a reader that splits lines at every separator still gets one record per line.
        out_lines.append(line_out.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    body = "\n".join(out_lines) + ("\n" if out_lines else "")
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(body, encoding="utf-8")
    else:
        sys.stdout.write(body)
    if unjudged:
        print(f"{path}: {len(unjudged)} record(s) were not judged: line(s) {', '.join(map(str, unjudged))}",
              file=sys.stderr)
        return 1
    return 0


def add_parser(sub: Any) -> None:
    recruiter = sub.add_parser("recruiter", help="the recruiting data and guardrails: import, match, guard")
    commands = recruiter.add_subparsers(dest="recruiter_command", required=True)

    def common(parser: argparse.ArgumentParser, database: bool = True) -> argparse.ArgumentParser:
        if database:
            parser.add_argument("--db-url", help="SQLAlchemy URL of the app database (default: SQLite in the data dir)")
            parser.add_argument("--chroma-url", help="a shared Chroma server, http://host:port (default: embedded)")
        parser.add_argument("--data-dir", help="where the SQLite files and embedded Chroma live (default ./data)")
        parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                            help="a recruiter setting, as on the Settings page (max_input_chars, emails_per_day, …)")
        return parser

    importer = common(commands.add_parser("import", help="import jobs and candidates from JSONL or CSV files"))
    importer.add_argument("--jobs", help="a .jsonl or .csv file of jobs")
    importer.add_argument("--candidates", help="a .jsonl or .csv file of candidates")
    importer.set_defaults(func=cmd_import)
    match = common(commands.add_parser("match", help="rank candidates for a job, with the score's parts"))
    match.add_argument("job_id", metavar="JOB_ID")
    match.add_argument("--top", type=int, default=10, help="how many candidates (default 10)")
    match.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    match.set_defaults(func=cmd_match)
    guard = common(commands.add_parser("guard", help="check texts ({id, text} per line) with the input guardrails"),
                   database=False)
    guard.add_argument("file", metavar="FILE.jsonl")
    guard.add_argument("--output", help="write the verdicts to this file instead of stdout")
    guard.set_defaults(func=cmd_guard)
