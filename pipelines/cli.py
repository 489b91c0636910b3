"""Headless CLI: `python -m pipelines list`, `run PIPELINE ...`, `step THREAD_ID ...` and `trace THREAD_ID ...` for scripts,
demos and tests."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from pipelines.core.storage.checkpoints import CheckpointStoreError, checkpoint_errors
from pipelines.core.knowledge.store import KnowledgeStoreError
from pipelines.core.trace.export import run_status, trace_document
from pipelines.core.registry import available_specs, get_spec, storage_errors, workflows
from pipelines.core.errors import ConcurrentChange, InvalidInput
from pipelines.core.storage.runstore import RunStore, RunStoreError
from pipelines.core.storage.sqlerrors import first_line
from pipelines.core.runtime.outcomes import StepOutcome
from pipelines.core.runtime.session import Session
from pipelines.core.settings import PROVIDERS, SettingsError, load_settings, parse_assignments
from pipelines.core.runtime.studio import Studio
from pipelines.core.pdf.trace_report import build_trace_pdf


class CliError(RuntimeError):
    """Stops the CLI with a one-line reason and a non-zero exit code."""


def _read_json(path: str, what: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CliError(f"{what} file not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {what} file {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise CliError(f"{what} file {path} is not valid JSON (line {exc.lineno}: {exc.msg})") from exc


def cmd_list(_: argparse.Namespace) -> int:
    for entry in workflows():
        if not entry.built:
            print(f"{entry.id:<18} {entry.title}  (coming)")
            continue
        spec = get_spec(entry.id)
        print(f"{entry.id:<18} {entry.title}")
        for scenario in spec.scenarios():
            answers = f", {len(scenario.answers)} sample answers" if scenario.answers else ""
            print(f"  - {scenario.name:<22} {scenario.title}{answers}")
    return 0


def _print_step(outcome: StepOutcome) -> None:
    record = outcome.record
    if record is None:
        return
    changed = ", ".join(f"{k}:{v}" for k, v in record.changes.items()) or "-"
    print(f"step {record.step:>3}  {'+'.join(record.nodes):<48} {record.duration_ms:8.1f} ms  {record.status:<11} {changed}",
          file=sys.stderr)


def drive(session: Session, answers: list[Any]) -> None:
    """Run to the end, answering each interrupt with the next answer; stop when answers run out."""
    answered = 0
    while True:
        session.run("end", on_step=_print_step)
        if session.status() != "waiting" or answered >= len(answers):
            return
        pending = session.pending_interrupts()[0]
        try:
            _print_step(session.resume(answers[answered]))
        except InvalidInput as exc:
            raise CliError(f"answer {answered + 1} ({pending.kind}) rejected: {exc}") from exc
        answered += 1


def cmd_run(args: argparse.Namespace) -> int:
    spec = get_spec(args.pipeline)
    sample_answers: list[Any] = []
    if args.scenario:
        scenario = spec.scenario(args.scenario)
        raw, scenario_name, sample_answers = scenario.input, scenario.name, list(scenario.answers)
    else:
        raw, scenario_name = _read_json(args.input, "input"), None
        if not isinstance(raw, dict):
            raise CliError("input file must hold a JSON object")
    # A scenario's own sample answers, as the dashboard fills them in, unless --answers says otherwise.
    answers = _read_json(args.answers, "answers") if args.answers else sample_answers
    if not isinstance(answers, list):
        raise CliError("answers file must hold a JSON list of resume values")
    settings = load_settings(provider=args.provider, data_dir=args.data_dir, model=args.model, base_url=args.base_url,
                             workflow_overrides={spec.id: parse_assignments(args.set)})
    spec.settings(settings)  # a refused --set value stops the run before anything is stored
    studio = Studio.from_settings(settings)
    try:
        session = studio.new_session(spec, raw, settings, scenario=scenario_name, strict=True)
        print(f"thread {session.thread_id} ({spec.id}, {settings.provider_label}, data in {settings.data_path})",
              file=sys.stderr)
        drive(session, answers)
        document = trace_document(session)
        if args.trace:
            Path(args.trace).parent.mkdir(parents=True, exist_ok=True)
            Path(args.trace).write_text(json.dumps(document, ensure_ascii=False, indent=2), encoding="utf-8")
        if args.pdf:
            if spec.pdf is None:
                raise CliError(f"{spec.id} has no PDF report")
            Path(args.pdf).parent.mkdir(parents=True, exist_ok=True)
            Path(args.pdf).write_bytes(spec.pdf(session.values()))
        if args.report:
            Path(args.report).parent.mkdir(parents=True, exist_ok=True)
            Path(args.report).write_text(spec.report(session.values()), encoding="utf-8")
        status = run_status(session)
        print(json.dumps({"thread_id": session.thread_id, "status": status, "steps": len(document["steps"]),
                          "next": document["next"], "pending_interrupt": document["pending_interrupt"]},
                         ensure_ascii=False))
        if status == "failed":
            errors = [s["error"] for s in document["steps"] if s.get("error")]
            raise CliError(f"run failed: {errors[-1] if errors else 'unknown error'}")
        return 0
    finally:
        studio.close()


def _open_stored(thread_id: str, data_dir: str | None) -> tuple[Studio, Any]:
    """The studio on the stored runs and the run's thread, or CliError when there is no such run."""
    settings = load_settings(data_dir=data_dir)
    if not settings.db_url and not settings.data_path.is_dir():
        # Opening the stores would create an empty data directory where the user mistyped a path.
        raise CliError(f"no run with thread id {thread_id} (there is no data directory {settings.data_path})")
    studio = Studio.from_settings(settings)
    info = studio.runs.get_thread(thread_id)
    if info is None:
        studio.close()
        raise CliError(f"no run with thread id {thread_id} in {RunStore.engine_label(settings.effective_db_url)}")
    return studio, info


def cmd_step(args: argparse.Namespace) -> int:
    """Step a stored run: answer its question first (--answer), then run --steps super-steps, or to its next question."""
    answer = None
    if args.answer is not None:
        try:
            answer = json.loads(args.answer)
        except json.JSONDecodeError as exc:
            raise CliError(f"--answer is not valid JSON (column {exc.colno}: {exc.msg})") from exc
    if args.steps < 1:
        raise CliError("--steps must be at least 1")
    studio, info = _open_stored(args.thread_id, args.data_dir)
    try:
        spec = get_spec(info.pipeline)
        settings = load_settings(provider=args.provider, data_dir=args.data_dir, model=args.model, base_url=args.base_url)
        session = studio.open_session(spec, args.thread_id, settings)
        steps = args.steps
        with session.claimed("a step from the command line"):  # one claim for the answer and the steps after it
            if answer is not None:
                try:
                    _print_step(session.resume(answer))
                except ConcurrentChange:
                    raise
                except InvalidInput as exc:
                    raise CliError(f"answer rejected: {exc}") from exc
                steps -= 1
            if steps and session.status() == "waiting":
                raise CliError("the run is waiting for an answer: give it with --answer JSON")
            if steps:
                session.run("end", on_step=_print_step, max_steps=steps)
        status = run_status(session)
        print(json.dumps({"thread_id": session.thread_id, "status": status, "next": list(session.next_nodes()),
                          "pending_interrupt": _pending(session)}, ensure_ascii=False))
        return 1 if status == "failed" else 0
    finally:
        studio.close()


def _pending(session: Session) -> dict[str, Any] | None:
    pending = session.pending_interrupts()
    return {"kind": pending[0].kind, "value": pending[0].value} if pending else None


def _write(path: str, data: bytes) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(data)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from exc


def cmd_trace(args: argparse.Namespace) -> int:
    if not (args.pdf or args.json):
        raise CliError("trace needs --pdf FILE, --json FILE or both")
    studio, info = _open_stored(args.thread_id, args.data_dir)
    try:
        session = studio.open_session(get_spec(info.pipeline), args.thread_id, load_settings(data_dir=args.data_dir))
        if args.json:
            _write(args.json, json.dumps(trace_document(session), ensure_ascii=False, indent=2).encode("utf-8"))
        if args.pdf:
            _write(args.pdf, build_trace_pdf(session))
        print(json.dumps({"thread_id": session.thread_id, "pipeline": info.pipeline, "status": run_status(session),
                          "pdf": args.pdf, "json": args.json}, ensure_ascii=False))
        return 0
    finally:
        studio.close()


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m pipelines", description="Stepwise workflows, headless.")
    sub = root.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the pipelines and their scenarios").set_defaults(func=cmd_list)
    run = sub.add_parser("run", help="run a pipeline to its end or until the answers run out")
    run.add_argument("pipeline")
    source = run.add_mutually_exclusive_group(required=True)
    source.add_argument("--scenario", help="a shipped scenario (see `list`)")
    source.add_argument("--input", help="a JSON file with the initial state")
    run.add_argument("--answers", help="a JSON list of resume values, one per interrupt, in order (default: the "
                     "scenario's sample answers)")
    run.add_argument("--provider", choices=PROVIDERS, help="model provider (default: offline, or STEPWISE_PROVIDER)")
    run.add_argument("--model", help="model name for a real provider")
    run.add_argument("--base-url", help="base URL of an OpenAI-compatible or Ollama server")
    run.add_argument("--data-dir", help="where checkpoints and run records live (default ./data)")
    run.add_argument("--trace", help="write the run's trace as JSON to this file")
    run.add_argument("--pdf", help="write the workflow's PDF report to this file (workflows that have one, such as ican)")
    run.add_argument("--report", help="write the workflow's report (Markdown) to this file")
    run.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                     help="one of the workflow's own settings, as on the Settings page (e.g. guide_max_loops=3)")
    run.set_defaults(func=cmd_run)
    step = sub.add_parser("step", help="step a stored run: answer its question, run one or more super-steps")
    step.add_argument("thread_id", metavar="THREAD_ID", help="the run's thread id (printed by `run`)")
    step.add_argument("--steps", type=int, default=1, help="how many super-steps to run (default 1; an answer counts as one)")
    step.add_argument("--answer", metavar="JSON", help="the answer to the question the run waits on, as JSON")
    step.add_argument("--provider", choices=PROVIDERS, help="model provider (default: offline, or STEPWISE_PROVIDER)")
    step.add_argument("--model", help="model name for a real provider")
    step.add_argument("--base-url", help="base URL of an OpenAI-compatible or Ollama server")
    step.add_argument("--data-dir", help="where checkpoints and run records live (default ./data)")
    step.set_defaults(func=cmd_step)
    trace = sub.add_parser("trace", help="write a stored run's trace as a PDF and/or JSON")
    trace.add_argument("thread_id", metavar="THREAD_ID", help="the run's thread id (printed by `run`)")
    trace.add_argument("--pdf", help="write the run-trace PDF to this file")
    trace.add_argument("--json", help="write the run's trace as JSON to this file")
    trace.add_argument("--data-dir", help="where checkpoints and run records live (default ./data)")
    trace.set_defaults(func=cmd_trace)
    for spec in available_specs():
        if spec.cli:
            spec.cli(sub)
    return root


def main(argv: list[str] | None = None) -> int:
    # The connection pool logs each failed connection attempt; the CLI says what failed once, in its error line.
    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except ConcurrentChange as exc:  # another tab or process moves the run: nothing was done here
        print(f"error: {exc}", file=sys.stderr)
        return 3
    except (CliError, InvalidInput, SettingsError, CheckpointStoreError, RunStoreError, KnowledgeStoreError,
            *storage_errors()) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except checkpoint_errors() as exc:  # a checkpoint store that failed outside a step (reading a run's state)
        print(f"error: the checkpoint store failed: {type(exc).__name__}: {first_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted by the user", file=sys.stderr)
        return 130
