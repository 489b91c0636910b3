"""One writer per thread on the servers: a claim race has one winner, two processes step a run once, an earlier
Stepwise's run table is migrated, and a checkpoint server that drops its connections mid-run costs nothing."""

import json
import subprocess
import sys
import uuid

import pytest
from sqlalchemy import Column, MetaData, Table, create_engine, insert, select, text

from pipelines.core.storage.engine import add_missing_columns, driver_url, make_engine
from pipelines.core.storage.run_tables import threads
from pipelines.core.storage.runstore import RunStore
from tests.support.openai_stub import OpenAIStub
from tests.unit.core.runtime.test_claims import race_for_claim
from tests.unit.test_cli import ROOT
from tests.unit.test_cli_step import stored_run, stored_session, two_processes_step_one_run

pytestmark = pytest.mark.services


@pytest.fixture(params=["postgres", "mariadb"])
def server_url(request):
    url = request.getfixturevalue(f"{request.param}_url")
    return driver_url(url)


def test_of_many_claims_from_one_version_exactly_one_wins(server_url):
    runs = RunStore(server_url)
    thread_id = f"race-{uuid.uuid4().hex[:12]}"
    runs.create_thread(thread_id, "toy", None, "race", None)
    try:
        assert race_for_claim(runs, thread_id, 0, 6) == ["busy"] * 5 + ["won"]
    finally:
        runs.delete_thread(thread_id)
        runs.dispose()


def test_a_run_table_of_an_earlier_stepwise_gets_the_claim_columns_and_keeps_its_rows(server_url):
    engine = make_engine(server_url)
    name = f"legacy_threads_{uuid.uuid4().hex[:8]}"
    current = threads.to_metadata(MetaData(), name=name)
    legacy = Table(name, MetaData(), *[Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
                                       for c in current.columns if c.name not in
                                       ("version", "claim_token", "claim_holder", "claim_expires_at")])
    legacy.create(engine)
    try:
        with engine.begin() as conn:
            conn.execute(insert(legacy).values(thread_id="old", pipeline="career_navigator", title="an old run",
                                               status="completed", created_at=1.0, updated_at=2.0))
        assert add_missing_columns(engine, current) == ["version", "claim_token", "claim_holder", "claim_expires_at"]
        assert add_missing_columns(engine, current) == []  # a second start finds nothing to add
        with engine.connect() as conn:
            row = conn.execute(select(current)).mappings().one()
        assert row["title"] == "an old run" and row["version"] == 0 and row["claim_token"] is None
    finally:
        current.drop(engine)
        engine.dispose()


@pytest.mark.parametrize("server", ["postgres", "mariadb"])
def test_two_processes_stepping_one_run_on_a_server_step_it_once(server, request, tmp_path, monkeypatch):
    url = request.getfixturevalue(f"{server}_url")
    urls = {"db_url": driver_url(url)}
    if server == "postgres":
        urls["checkpoint_url"] = url  # LangGraph's PostgreSQL checkpointer; MariaDB runs keep a SQLite file
    monkeypatch.setenv("STEPWISE_DB_URL", urls["db_url"])
    if "checkpoint_url" in urls:
        monkeypatch.setenv("STEPWISE_CHECKPOINT_URL", urls["checkpoint_url"])
    data = tmp_path / "data"
    two_processes_step_one_run(data, stored_run(data, **urls), **urls)


def _terminate_other_connections(postgres_url: str) -> int:
    """What an administrator or a server restart does to every client: their connections are dropped."""
    admin = create_engine(driver_url(postgres_url), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            return len(conn.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")).all())
    finally:
        admin.dispose()


def test_a_checkpoint_server_that_drops_its_connections_mid_run_costs_the_run_nothing(postgres_url, tmp_path):
    urls = {"db_url": driver_url(postgres_url), "checkpoint_url": postgres_url}
    data = tmp_path / "data"
    thread = stored_run(data, **urls)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "STEPWISE_API_KEY": "stub",
           "STEPWISE_MAX_RETRIES": "0", "STEPWISE_DB_URL": urls["db_url"], "STEPWISE_CHECKPOINT_URL": postgres_url}
    with OpenAIStub([("hold", ("valid", {}))]) as stub:
        process = subprocess.Popen(
            [sys.executable, "-m", "pipelines", "step", thread, "--steps", "3", "--data-dir", str(data),
             "--provider", "openai", "--base-url", stub.base_url, "--model", "stub"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stub.wait_for_requests(1)  # the run is inside its first step, its pool's connections idle
        assert _terminate_other_connections(postgres_url) >= 1
        stub.open()
        out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert "Traceback" not in err and json.loads(out)["thread_id"] == thread
    studio, session = stored_session(data, thread, **urls)
    try:
        assert [r.label for r in session.records() if r.status == "completed"][-3:] == \
            ["1 coordinator", "2 planner", "3 supervisor"]
    finally:
        studio.close()


def test_a_checkpoint_server_that_is_gone_is_one_line_from_the_command_line(tmp_path):
    dead = "postgresql://postgres@127.0.0.1:9/test"  # nothing listens on the discard port
    out = subprocess.run([sys.executable, "-m", "pipelines", "run", "career_navigator", "--scenario", "seed_example",
                          "--data-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path),
                              "STEPWISE_CHECKPOINT_URL": dead})
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 1 and len(lines) == 1 and lines[0].startswith("error: cannot open PostgreSQL checkpoints")
