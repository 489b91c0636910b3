"""The Runs page's queries on server databases: summaries and deleting a run with its checkpoints."""

import time
import uuid

import pytest
from sqlalchemy import inspect

from pipelines.core.storage.checkpoints import open_checkpointer
from pipelines.core.storage.runstore import RunStore
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.conftest import scenario
from tests.support.driving import SATISFIED, run_with_answers
from tests.support.toy_pipeline import ToyContext, make_toy_spec

pytestmark = pytest.mark.services


@pytest.fixture(params=["postgres", "mariadb"])
def server_studio(request):
    """PostgreSQL: checkpoints and run records there. MariaDB: run records there (LangGraph has no MySQL
    checkpointer), checkpoints in memory."""
    url = request.getfixturevalue(f"{request.param}_url")
    if request.param == "postgres":
        studio = Studio(open_checkpointer(url), RunStore(url.replace("postgresql://", "postgresql+psycopg://")))
    else:
        studio = Studio(open_checkpointer("memory"), RunStore(url))
    yield studio
    studio.close()


def test_summaries_and_delete_run_on_server_databases(server_studio, tmp_path, spec):
    settings = load_settings(data_dir=str(tmp_path))
    title = f"runs page {uuid.uuid4().hex[:10]}"
    session = server_studio.new_session(spec, scenario("clear_goal")["input"], settings, title=title)
    run_with_answers(session, [SATISFIED])
    context = ToyContext(deps=None, fail_in={"draft"})
    toy = server_studio.new_session(make_toy_spec(context), {"topic": "kites"}, settings, title=f"{title} toy")
    toy.step()
    try:
        summaries = {s.title: s for s in server_studio.runs.thread_summaries(search=title.upper())}
        assert list(summaries) == [f"{title} toy", title]  # newest first
        done, failed = summaries[title], summaries[f"{title} toy"]
        records = server_studio.runs.load_steps(session.thread_id)
        assert done.status == "completed" and done.steps == sum(r.status == "completed" for r in records) > 1
        assert done.duration_ms > 0 and done.last_error is None
        assert failed.status == "failed" and failed.last_error == "RuntimeError: draft exploded"
        assert [s.thread_id for s in server_studio.runs.thread_summaries("toy", status="failed", search=title)] == \
            [toy.thread_id]

        saver = server_studio.checkpoints.saver
        config = {"configurable": {"thread_id": session.thread_id}}
        assert list(saver.list(config))
        assert server_studio.delete_run(session.thread_id).title == title
        assert list(saver.list(config)) == [] and server_studio.compiled(spec).get_state(config).values == {}
        assert [s.thread_id for s in server_studio.runs.thread_summaries(search=title)] == [toy.thread_id]
        assert server_studio.runs.load_steps(session.thread_id) == []
    finally:
        for thread_id in (session.thread_id, toy.thread_id):
            server_studio.delete_run(thread_id)


def test_times_are_double_precision_on_mariadb_even_in_tables_made_with_float(mariadb_url):
    """MySQL FLOAT is single precision: a Unix time in it moves in 128 s steps (runs listed out of order,
    durations of 0 or 128 s). A store opened on such a table widens its time columns to DOUBLE."""
    store = RunStore(mariadb_url)
    try:
        with store.engine.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE stepwise_threads MODIFY created_at FLOAT NOT NULL")
    finally:
        store.dispose()
    store = RunStore(mariadb_url)
    thread = uuid.uuid4().hex
    try:
        columns = {table: {c["name"]: type(c["type"]).__name__ for c in inspect(store.engine).get_columns(table)}
                   for table in ("stepwise_threads", "stepwise_steps", "stepwise_tasks")}
        assert columns["stepwise_threads"]["created_at"] == columns["stepwise_steps"]["started_at"] == "DOUBLE"
        assert columns["stepwise_tasks"]["duration_ms"] == "DOUBLE"
        store.create_thread(thread, "career_navigator", None, "precise", None)
        created = store.get_thread(thread).created_at
        assert abs(created - time.time()) < 5
    finally:
        store.delete_thread(thread)
        store.dispose()
