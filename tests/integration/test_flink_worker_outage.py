"""`python -m pipelines flink work` through a real outage of MariaDB and PostgreSQL, and killed from outside.

The workers reach the server through a TCP proxy (tests/support/tcp_proxy.py) that the test cuts and restores, so
their connections really drop. A model stub holds each diagnosis until the test lets it go, so every worker holds
a claim when the outage starts or the parent is killed: nothing depends on timing."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from pipelines.core.storage.runstore import RunStore
from pipelines.flink_diagnosis.store import ExceptionStore
from tests.support.openai_stub import OpenAIStub
from tests.support.processes import children_of, wait_until_gone
from tests.support.tcp_proxy import TcpProxy

pytestmark = pytest.mark.services
ROOT = Path(__file__).resolve().parents[2]
JOBS = 6
DIAGNOSIS = {"root_cause": "The TaskManager heap is too small for the state it holds.",
             "detailed_analysis": "OutOfMemoryError: Java heap space while processing records.",
             "suggested_fix": "Raise taskmanager.memory.task.heap.size.", "priority": "high", "confidence": 0.5,
             "related_docs": [], "category": "oom_heap"}


@pytest.fixture(params=["mariadb", "postgres"])
def server_url(request) -> str:
    return request.getfixturevalue(f"{request.param}_url")


@contextmanager
def filled_queue(url: str) -> Iterator[tuple[ExceptionStore, list[int]]]:
    store = ExceptionStore(url)
    store.purge()  # the servers' `test` database is shared with other tests, but not these tables
    try:
        yield store, store.add_many([{"job_id": f"outage-{i}", "error_message": "java.lang.OutOfMemoryError: Java "
                                      "heap space"} for i in range(JOBS)])
    finally:
        store.purge()
        store.dispose()


@pytest.fixture
def queue(server_url):
    with filled_queue(server_url) as queue:
        yield queue


@pytest.fixture
def proxy(server_url):
    with TcpProxy(make_url(server_url).port) as proxy:
        yield proxy


@pytest.fixture
def stub():
    with OpenAIStub([("hold", ("valid", DIAGNOSIS))]) as stub:
        yield stub


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("flink-data")  # one knowledge index for the whole module


@dataclass
class Batch:
    """A `flink work` process: its stdout and stderr go to files, read while it runs."""

    proc: subprocess.Popen
    out: Path
    err: Path

    def stderr(self) -> str:
        return self.err.read_text(encoding="utf-8")

    def wait_for(self, text: str, count: int = 1, timeout: float = 180.0) -> None:
        end = time.monotonic() + timeout
        while self.stderr().count(text) < count:
            if self.proc.poll() is not None or time.monotonic() > end:
                raise AssertionError(f"{text!r} x{count} not on stderr (exit {self.proc.poll()}): "
                                     f"{self.stderr()[-3000:]}")
            time.sleep(0.05)

    def finish(self, timeout: float = 300.0) -> tuple[int, dict, str]:
        code = self.proc.wait(timeout=timeout)
        lines = self.out.read_text(encoding="utf-8").splitlines()
        return code, json.loads(lines[-1]) if lines else {}, self.stderr().strip().splitlines()[-1]

    def runs(self, url: str) -> list:
        """The run records this batch's workers made (their ids are host:parent pid:index)."""
        prefix = f"{socket.gethostname()}:{self.proc.pid}:"
        runs = RunStore(url)
        try:
            return [t for t in runs.list_threads("flink_diagnosis", limit=500)
                    if str((t.input or {}).get("worker_id", "")).startswith(prefix)]
        finally:
            runs.dispose()


def start_batch(tmp_path: Path, db_url: str, data_dir: Path, stub: OpenAIStub, workers: int = 2,
                **settings: float) -> Batch:
    out, err = tmp_path / "work.out", tmp_path / "work.err"
    command = [sys.executable, "-m", "pipelines", "flink", "work", "--workers", str(workers), "--until-empty",
               "--db-url", db_url, "--data-dir", str(data_dir), "--provider", "openai", "--base-url", stub.base_url,
               "--model", "stub-model"]
    for name, value in settings.items():
        command += ["--set", f"{name}={value}"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "STEPWISE_API_KEY": "sk-test", "STEPWISE_MAX_RETRIES": "0"}
    with open(out, "w", encoding="utf-8") as stdout, open(err, "w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=stdout, stderr=stderr)
    return Batch(proc, out, err)


def test_workers_ride_out_a_short_outage_and_diagnose_every_exception_once(queue, proxy, stub, server_url, data_dir,
                                                                            tmp_path):
    store, ids = queue
    batch = start_batch(tmp_path, proxy.url(server_url), data_dir, stub)
    try:
        stub.wait_for_requests(2)  # each worker has claimed one and is in its model call
        assert store.count_by_status()["in_progress"] == 2
        proxy.cut()
        stub.open()  # they go on to store their diagnoses, into the outage
        refused_before = proxy.refused
        proxy.wait_until(lambda p: p.refused >= refused_before + 3, what="the workers retrying")
        proxy.restore()
        code, summary, last = batch.finish()
    finally:
        batch.proc.kill()
    assert code == 0, batch.stderr()[-3000:]
    assert summary["completed"] == JOBS and summary["failed"] == 0
    rows = store.list_exceptions(limit=100, order="asc")
    assert [r["exception_id"] for r in rows] == ids
    seen = [(r["exception_id"], r["status"], r["attempts"], r["error"]) for r in rows]
    assert all(r["status"] == "completed" and r["attempts"] == 1 for r in rows), (seen, batch.stderr()[-4000:])
    assert {r["diagnosis"]["root_cause"] for r in rows} == {DIAGNOSIS["root_cause"]}
    runs = batch.runs(server_url)
    diagnosed = sorted(int(m.group(1)) for t in runs if (m := re.search(r" · #(\d+) · ", t.title or "")))
    assert diagnosed == ids  # one run per exception, none twice
    assert {t.status for t in runs} == {"completed"}


def test_past_the_budget_workers_hand_their_claims_back_and_exit_with_one_line(queue, proxy, stub, server_url,
                                                                                data_dir, tmp_path):
    store, ids = queue
    batch = start_batch(tmp_path, proxy.url(server_url), data_dir, stub, outage_budget_s=1)
    try:
        stub.wait_for_requests(2)
        held = [r["exception_id"] for r in store.list_exceptions(status="in_progress")]
        proxy.cut()
        stub.open()
        batch.wait_for("handing its claim back when the database answers", count=2)  # both gave up
        proxy.restore()
        code, summary, last = batch.finish()
    finally:
        batch.proc.kill()
    assert code == 1 and summary["completed"] == 0
    assert last.startswith("error: 2 of 2 workers stopped: the Flink exception database ")
    assert "was unreachable for more than 1 s (last error: " in last
    assert last.endswith("; 2 claimed exceptions went back to pending")
    assert store.count_by_status() == {"pending": JOBS, "in_progress": 0, "completed": 0, "failed": 0}
    for exception_id in held:
        row = store.get(exception_id)
        assert row["claimed_by"] is None and row["error"].startswith("handed back: the Flink exception database")
    runs = batch.runs(server_url)
    assert len(runs) == 2 and {t.status for t in runs} == {"failed"}  # not "ready": they will not go on
    assert all(t.title.startswith("Stopped (database unreachable) · OutOfMemoryError") for t in runs)


def test_a_database_that_never_comes_back_leaves_the_claim_to_its_lease(postgres_url, stub, data_dir, tmp_path):
    with filled_queue(postgres_url) as (store, ids), TcpProxy(make_url(postgres_url).port) as proxy:
        batch = start_batch(tmp_path, proxy.url(postgres_url), data_dir, stub, workers=1, outage_budget_s=1,
                            claim_lease_s=5)
        try:
            stub.wait_for_requests(1)
            proxy.cut()
            stub.open()
            code, summary, last = batch.finish()  # the proxy stays down until the worker has exited
        finally:
            batch.proc.kill()
        assert code == 1
        assert last.startswith("error: the worker stopped: the Flink exception database ")
        assert last.endswith("; the claimed exceptions return to pending when their 5 s lease expires")
        assert store.count_by_status()["in_progress"] == 1
        leased = ExceptionStore(postgres_url, lease_s=5)
        try:
            end = time.monotonic() + 120
            while leased.release_expired() == 0:  # the lease does it
                assert time.monotonic() < end, "the claim's lease never expired"
                time.sleep(0.1)
        finally:
            leased.dispose()
        assert store.count_by_status() == {"pending": JOBS, "in_progress": 0, "completed": 0, "failed": 0}


@pytest.mark.parametrize("server,how", [("mariadb", signal.SIGKILL), ("postgres", signal.SIGKILL),
                                        ("postgres", signal.SIGTERM)], ids=["mariadb-SIGKILL", "postgres-SIGKILL",
                                                                            "postgres-SIGTERM"])
def test_killing_the_parent_ends_its_workers_and_they_hand_their_claims_back(server, how, stub, data_dir, tmp_path,
                                                                            request):
    server_url = request.getfixturevalue(f"{server}_url")
    with filled_queue(server_url) as (store, ids):
        _kill_the_parent(how, store, stub, server_url, data_dir, tmp_path)


def _kill_the_parent(how: signal.Signals, store: ExceptionStore, stub: OpenAIStub, server_url: str, data_dir: Path,
                     tmp_path: Path) -> None:
    batch = start_batch(tmp_path, server_url, data_dir, stub)
    try:
        stub.wait_for_requests(2)
        children = children_of(batch.proc.pid)
        assert len(children) >= 2  # the two workers (and multiprocessing's resource tracker)
        os.kill(batch.proc.pid, how)
        code = batch.proc.wait(timeout=120)
        wait_until_gone(children)  # no orphan keeps diagnosing
    finally:
        stub.open()
        batch.proc.kill()
    assert store.count_by_status() == {"pending": JOBS, "in_progress": 0, "completed": 0, "failed": 0}
    runs = batch.runs(server_url)
    assert len(runs) == 2 and all(t.status == "failed" and t.title.startswith("Stopped (worker stopped)")
                                  for t in runs)
    if how == signal.SIGTERM:
        assert code == 128 + signal.SIGTERM
        assert batch.stderr().strip().splitlines()[-1] == ("error: stopped by SIGTERM; 2 claimed exceptions went "
                                                           "back to pending")
    else:
        assert code == -signal.SIGKILL
