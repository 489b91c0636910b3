"""A queue worker process for the multi-process ExceptionStore tests, and the helpers that start and read it.

Run as `python -m tests.support.queue_worker URL NAME OUT`: the worker opens the store, writes `ready` to OUT,
waits for the go file, then claims and completes until nothing is pending or in progress, writing `done ID`
for each exception it completed (line by line, so a killed worker's record survives it). With --hold N it
completes --after exceptions, then claims N more, writes `held ID` for each and `stalled`, and sleeps until
it is killed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("name")
    parser.add_argument("out")
    parser.add_argument("--lease", type=float, default=600.0)
    parser.add_argument("--go", default="")
    parser.add_argument("--work-ms", type=float, default=0.0)
    parser.add_argument("--hold", type=int, default=0)
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--deadline", type=float, default=40.0)
    args = parser.parse_args(argv)

    store = _store_class()(args.url, lease_s=args.lease)
    with open(args.out, "a", buffering=1, encoding="utf-8") as out:
        out.write("ready\n")
        while args.go and not os.path.exists(args.go):
            time.sleep(0.01)
        completed = held = 0
        deadline = time.monotonic() + args.deadline
        while time.monotonic() < deadline:
            job = store.claim(args.name)
            if job is None:
                counts = store.count_by_status()
                if counts["pending"] == 0 and counts["in_progress"] == 0:
                    return 0
                time.sleep(0.05)  # someone holds a claim: it is either finished or expires and comes back
                continue
            if args.hold and completed >= args.after:
                held += 1
                out.write(f"held {job['exception_id']}\n")
                if held == args.hold:
                    out.write("stalled\n")
                    time.sleep(3600)
                continue
            time.sleep(args.work_ms / 1000)
            diagnosis = {"worker": args.name, "attempt": job["attempts"]}
            if store.complete(job["exception_id"], diagnosis, worker_id=args.name):
                completed += 1
                out.write(f"done {job['exception_id']}\n")
            else:
                out.write(f"lost {job['exception_id']}\n")
    return 2


def _store_class() -> type:
    """The store without its package's __init__, which builds the whole diagnosis graph: over a second of
    imports per process that the store does not need, paid by every worker of every test."""
    if "pipelines.flink_diagnosis" not in sys.modules:
        package = types.ModuleType("pipelines.flink_diagnosis")
        package.__path__ = [str(ROOT / "pipelines" / "flink_diagnosis")]
        sys.modules["pipelines.flink_diagnosis"] = package
    return importlib.import_module("pipelines.flink_diagnosis.store").ExceptionStore


@dataclass
class Worker:
    name: str
    out: Path
    proc: subprocess.Popen

    def lines(self) -> list[str]:
        return self.out.read_text(encoding="utf-8").splitlines() if self.out.exists() else []

    def ids(self, kind: str) -> list[int]:
        return [int(line.split()[1]) for line in self.lines() if line.startswith(kind + " ")]

    def wait_for(self, marker: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while marker not in self.lines():
            if self.proc.poll() is not None:
                raise AssertionError(f"worker {self.name} exited ({self.proc.returncode}) before {marker!r}: "
                                     f"{self.out.with_suffix('.err').read_text(encoding='utf-8')[-2000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"worker {self.name} did not reach {marker!r} in {timeout} s")
            time.sleep(0.02)

    def finish(self, timeout: float = 45.0) -> int:
        code = self.proc.wait(timeout=timeout)
        assert code == 0, (f"worker {self.name} exited with {code}: "
                           f"{self.out.with_suffix('.err').read_text(encoding='utf-8')[-2000:]}")
        return code


def start_worker(url: str, name: str, folder: Path, go: Path, lease: float = 600.0, **options: object) -> Worker:
    out = folder / f"{name}.out"
    command = [sys.executable, "-m", "tests.support.queue_worker", url, name, str(out), "--lease", str(lease),
               "--go", str(go)]
    for key, value in options.items():
        command += [f"--{key.replace('_', '-')}", str(value)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(out.with_suffix(".err"), "w", encoding="utf-8") as err:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
    return Worker(name, out, proc)


def start_together(workers: list[Worker], go: Path) -> None:
    """Wait until every worker has opened the store, then let them all claim at once."""
    for worker in workers:
        worker.wait_for("ready")
    go.touch()


def stop_all(workers: list[Worker]) -> None:
    for worker in workers:
        if worker.proc.poll() is None:
            worker.proc.kill()
            worker.proc.wait(timeout=10)


def run_workers_over(url: str, folder: Path, count: int = 200, workers: int = 4) -> tuple[list[int], list[int]]:
    """Start `workers` processes on an empty store, add `count` exceptions, let them all claim at once and wait:
    the ids added and the ids the workers completed (a worker may not have created its tables yet)."""
    go = folder / "go"
    started = [start_worker(url, f"w{i}", folder, go, work_ms=1) for i in range(workers)]
    try:
        for worker in started:
            worker.wait_for("ready")
        store = _store_class()(url)
        ids = store.add_many([{"job_id": f"job-{i}", "error_message": f"Checkpoint {i} expired"}
                              for i in range(count)])
        store.dispose()
        start_together(started, go)
        for worker in started:
            worker.finish()
    finally:
        stop_all(started)
    return ids, [i for worker in started for i in worker.ids("done")]


if __name__ == "__main__":
    sys.exit(main())
