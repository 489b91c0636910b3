"""Storage faults: a checkpoint file another program holds locked, a checkpoint server that drops the connection.
Each is one clear error, nothing half-written, and a dropped connection costs one more try of the step."""

import json
import sqlite3
import subprocess
import sys

import psycopg
import pytest
from langgraph.checkpoint.memory import InMemorySaver

from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from pipelines.core.storage.checkpoints import CheckpointConnectionLost, CheckpointStore, StorageBusy
from pipelines.core.storage.runstore import RunStore
from tests.support.toy_pipeline import ToyContext, make_toy_spec
from tests.unit.test_cli import ROOT


@pytest.fixture
def impatient(tmp_path):
    """Settings that wait one second for a locked file, and a studio on them."""
    settings = load_settings(data_dir=str(tmp_path / "data"), storage_wait_s=1)
    studio = Studio.from_settings(settings)
    yield settings, studio
    studio.close()


def lock(path) -> sqlite3.Connection:
    """What a database browser or a backup does: hold the file with a write lock."""
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def test_a_locked_checkpoint_file_stops_a_new_run_and_leaves_no_empty_run(impatient):
    settings, studio = impatient
    holder = lock(settings.data_path / "checkpoints.sqlite")
    with pytest.raises(StorageBusy, match="is busy: another program holds it locked"):
        studio.new_session(make_toy_spec(), {"topic": "kites"}, settings)
    holder.rollback()
    assert studio.runs.list_threads() == []


def test_a_step_on_a_locked_checkpoint_file_is_refused_and_the_run_is_as_it_was(impatient):
    settings, studio = impatient
    context = ToyContext(deps=None)
    session = studio.new_session(make_toy_spec(context), {"topic": "kites"}, settings)
    holder = lock(settings.data_path / "checkpoints.sqlite")
    with pytest.raises(StorageBusy, match="close the program that holds it"):
        session.step()
    holder.rollback()
    assert len(session.records()) == 1 and session.status() == "ready"  # no failed step recorded
    assert studio.runs.get_thread(session.thread_id).claim_token is None  # the run was given back
    assert session.step().record.nodes == ["draft"]  # once the file is free, the same step runs


def test_the_command_line_says_the_storage_is_busy_in_one_line_and_exits_1(tmp_path):
    data = tmp_path / "data"
    Studio.from_settings(load_settings(data_dir=str(data))).close()  # the files exist, as after any run
    holder = lock(data / "checkpoints.sqlite")
    out = subprocess.run([sys.executable, "-m", "pipelines", "run", "career_navigator", "--scenario", "seed_example",
                          "--data-dir", str(data)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path),
                              "STEPWISE_STORAGE_WAIT": "1"})
    holder.rollback()
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 1 and out.stdout == ""
    assert lines[-1].startswith("error: the checkpoint store sqlite:///") and "is busy" in lines[-1]
    assert not any(line.startswith("step ") for line in lines)
    assert RunStore(f"sqlite:///{data}/stepwise.sqlite").list_threads() == []  # no empty run left behind


class DroppingSaver(InMemorySaver):
    """A checkpointer whose server drops the connection the first `drops` times a step writes."""

    def __init__(self, drops: int) -> None:
        super().__init__()
        self.drops = drops

    def put(self, *args, **kwargs):
        if self.drops:
            self.drops -= 1
            raise psycopg.errors.AdminShutdown("terminating connection due to administrator command")
        return super().put(*args, **kwargs)


def _studio_on(saver) -> Studio:
    return Studio(CheckpointStore(url="postgresql://db.example/test", saver=saver, close=lambda: None),
                  RunStore("sqlite://"))


def test_a_dropped_checkpoint_connection_costs_one_more_try_of_the_step(settings):
    saver = DroppingSaver(drops=0)
    studio = _studio_on(saver)
    context = ToyContext(deps=None)
    session = studio.new_session(make_toy_spec(context), {"topic": "kites"}, settings)
    saver.drops = 1
    outcome = session.step()
    assert outcome.record.nodes == ["draft"] and outcome.error is None
    assert context.runs == ["draft", "draft"]  # the node ran again: its first checkpoint was never written
    assert [r.label for r in session.records()] == ["0 input", "1 draft"]


def test_a_connection_dropped_twice_is_one_clear_error_and_nothing_recorded(settings):
    saver = DroppingSaver(drops=0)
    studio = _studio_on(saver)
    session = studio.new_session(make_toy_spec(), {"topic": "kites"}, settings)
    saver.drops = 2
    with pytest.raises(CheckpointConnectionLost, match=r"^the checkpoint server postgresql://db.example/test failed: "
                                                        r"AdminShutdown: terminating connection"):
        session.step()
    assert len(session.records()) == 1
    assert json.dumps(session.values())  # still readable where it stood
