"""`python -m pipelines flink enqueue|work|results|reindex`: the exception queue from the terminal."""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from collections.abc import Iterable
from typing import Any, TextIO

from pipelines.core.markup import spreadsheet_safe
from pipelines.core.errors import InvalidInput
from pipelines.core.settings import Settings, load_settings, parse_assignments
from pipelines.flink_diagnosis.settings import WORKFLOW_ID, flink_settings
from pipelines.flink_diagnosis.schemas import DiagnosisOutput
from pipelines.flink_diagnosis.tables import STATUSES

PARTLY_ENQUEUED = 2  # `flink enqueue`: the good lines went in, the lines listed on stderr did not
RESULT_FIELDS = ("exception_id", "job_id", "job_name", "status", "attempts", "updated_at",
                 *DiagnosisOutput.model_fields, "error")


class ProgressBar:
    """A one-line progress bar on stderr: done of total, failures and the rate."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30, rate: bool = True) -> None:
        self.total, self.stream, self.width, self.rate = max(total, 1), stream or sys.stderr, width, rate
        self.started = time.perf_counter()

    def show(self, done: int, note: str = "") -> None:
        filled = int(self.width * min(done, self.total) / self.total)
        rate = f"{done / max(time.perf_counter() - self.started, 1e-6):5.1f}/s" if self.rate else ""
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} {note} {rate} ")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def indexing_bars() -> tuple[Any, Any]:
    """A progress callback for indexing (one bar per collection) and a function that ends the bars."""
    bars: dict[str, ProgressBar] = {}

    def show(what: str, done: int, total: int) -> None:
        bars.setdefault(what, ProgressBar(total, rate=False)).show(done, f"indexing {what}")

    def close() -> None:
        for bar in bars.values():
            bar.close()
    return show, close


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings(data_dir=args.data_dir, db_url=args.db_url, chroma_url=args.chroma_url,
                             provider=getattr(args, "provider", None), model=getattr(args, "model", None),
                             base_url=getattr(args, "base_url", None),
                             workflow_overrides={WORKFLOW_ID: parse_assignments(getattr(args, "set", None))})
    flink_settings(settings)  # a refused --set value stops the command before the queue is touched
    return settings


def cmd_enqueue(args: argparse.Namespace) -> int:
    from pipelines.flink_diagnosis.intake import parse_jsonl
    from pipelines.flink_diagnosis.services import open_store

    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InvalidInput(f"file not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}") from exc
    intake = parse_jsonl(text)
    for error in intake.errors:
        print(f"{path}:{error}", file=sys.stderr)
    ids = open_store(_settings(args)).add_many(intake.exceptions) if intake.exceptions else []
    print(json.dumps({"enqueued": len(ids), "rejected": len(intake.errors),
                      "first_id": ids[0] if ids else None, "last_id": ids[-1] if ids else None}))
    if not intake.errors:
        return 0
    return PARTLY_ENQUEUED if ids else 1  # a script notices refused lines even when the others went in


def cmd_work(args: argparse.Namespace) -> int:
    from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store
    from pipelines.flink_diagnosis.worker_pool import run_workers, stop_summary

    settings = _settings(args)
    knowledge = open_flink_knowledge(settings)
    if knowledge.needs_index():
        show_indexing, end_indexing = indexing_bars()
        knowledge.ensure_indexed(show_indexing)
        end_indexing()
    counts = open_store(settings).count_by_status()
    start_done = counts["completed"] + counts["failed"]
    total = counts["pending"] + counts["in_progress"]
    if args.limit is not None:
        total = min(total, args.limit)
    progress = ProgressBar(total)

    def show(now: dict[str, int]) -> None:
        progress.show(now["completed"] + now["failed"] - start_done, f"failed {now['failed']}")

    started = time.perf_counter()
    reports = run_workers(settings, args.workers, until_empty=args.until_empty or args.limit is not None,
                          limit=args.limit, progress=show)
    progress.close()
    elapsed = time.perf_counter() - started
    completed = sum(r.completed for r in reports)
    failed = sum(r.failed for r in reports)
    print(json.dumps({"workers": args.workers, "completed": completed, "failed": failed,
                      "seconds": round(elapsed, 2), "per_second": round((completed + failed) / max(elapsed, 1e-6), 2)}))
    stopped = stop_summary(reports, flink_settings(settings).claim_lease_s)
    if stopped is None:
        return 0
    line, code = stopped
    print(f"error: {line}", file=sys.stderr)
    return code


def result_row(row: dict[str, Any]) -> dict[str, Any]:
    diagnosis = row.get("diagnosis") or {}
    out = {"exception_id": row["exception_id"], "job_id": row["job_id"], "job_name": row.get("job_name"),
           "status": row["status"], "attempts": row.get("attempts"), "updated_at": str(row.get("updated_at") or ""),
           "error": row.get("error")}
    for name in DiagnosisOutput.model_fields:
        out[name] = diagnosis.get(name)
    return out


def write_results_csv(rows: Iterable[dict[str, Any]], out: TextIO) -> None:
    """Result rows as CSV; list fields (related_docs) joined with "; ". Every text cell is spreadsheet-safe: an
    error message or job name starting with `=`, `+`, `-` or `@` must not run as a formula when opened."""
    writer = csv.DictWriter(out, fieldnames=RESULT_FIELDS)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: spreadsheet_safe("; ".join(map(str, v)) if isinstance(v, list) else v)
                         for k, v in row.items()})


def cmd_results(args: argparse.Namespace) -> int:
    from pipelines.flink_diagnosis.services import open_store

    rows = (result_row(row) for row in open_store(_settings(args)).iter_results(status=args.status))
    out = open(args.output, "w", encoding="utf-8", newline="") if args.output else sys.stdout
    try:
        if args.format == "csv":
            write_results_csv(rows, out)
        else:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    finally:
        if args.output:
            out.close()
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    from pipelines.flink_diagnosis.services import open_flink_knowledge

    knowledge = open_flink_knowledge(_settings(args))
    show_indexing, end_indexing = indexing_bars()
    knowledge.reindex(show_indexing)
    end_indexing()
    print(json.dumps({"cases": knowledge.kb.count("flink_cases"), "docs": knowledge.kb.count("flink_docs")}))
    return 0


def add_parser(sub: Any) -> None:
    flink = sub.add_parser("flink", help="the Flink exception queue: enqueue, work, results, reindex")
    commands = flink.add_subparsers(dest="flink_command", required=True)

    def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser.add_argument("--db-url", help="SQLAlchemy URL of the queue (default: SQLite in the data dir)")
        parser.add_argument("--data-dir", help="where the SQLite files and embedded Chroma live (default ./data)")
        parser.add_argument("--chroma-url", help="a shared Chroma server, http://host:port (default: embedded)")
        parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                            help="a Flink setting, as on the Settings page (accumulate_threshold, claim_lease_s, "
                                 "outage_budget_s)")
        return parser

    enqueue = common(commands.add_parser("enqueue", help="add the exceptions of a .jsonl file to the queue"))
    enqueue.add_argument("file")
    enqueue.set_defaults(func=cmd_enqueue)
    work = common(commands.add_parser("work", help="diagnose pending exceptions"))
    work.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    work.add_argument("--until-empty", action="store_true", help="stop when the queue is empty (else keep polling)")
    work.add_argument("--limit", type=int, help="diagnose at most this many exceptions")
    work.add_argument("--provider", help="model provider (default: offline)")
    work.add_argument("--model")
    work.add_argument("--base-url")
    work.set_defaults(func=cmd_work)
    results = common(commands.add_parser("results", help="diagnoses as JSON lines or CSV"))
    results.add_argument("--status", choices=STATUSES)
    results.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    results.add_argument("--output", help="write to this file instead of stdout")
    results.set_defaults(func=cmd_results)
    reindex = common(commands.add_parser("reindex", help="rebuild the knowledge base's Chroma collections"))
    reindex.set_defaults(func=cmd_reindex)
