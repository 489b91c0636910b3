"""`python -m pipelines step`: a stored run stepped headless, and two processes on one run never both step it."""

import json
import os
import subprocess
import sys

import pytest

from pipelines.core.registry import get_spec
from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from tests.conftest import scenario
from tests.support.openai_stub import OpenAIStub
from tests.unit.test_cli import ROOT, cli

FEEDBACK = {"satisfaction_level": "satisfied", "feedback_text": "clear, thank you"}


def stored_run(data_dir, **settings) -> str:
    """A CareerNavigator run with its input written, stored in `data_dir` (or the servers `settings` name)."""
    settings = load_settings(data_dir=str(data_dir), **settings)
    studio = Studio.from_settings(settings)
    try:
        return studio.new_session(get_spec("career_navigator"), scenario("seed_example")["input"], settings).thread_id
    finally:
        studio.close()


def stored_session(data_dir, thread_id, **settings):
    settings = load_settings(data_dir=str(data_dir), **settings)
    studio = Studio.from_settings(settings)
    return studio, studio.open_session(get_spec("career_navigator"), thread_id, settings)


def test_step_runs_one_super_step_of_a_stored_run_then_answers_its_question(tmp_path):
    data = tmp_path / "data"
    thread = stored_run(data)
    out = cli("step", thread, "--data-dir", str(data))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["next"] == ["planner"]
    assert "step   1  coordinator" in out.stderr
    out = cli("step", thread, "--steps", "20", "--data-dir", str(data))
    summary = json.loads(out.stdout)
    assert summary["pending_interrupt"]["kind"] == "report_feedback"
    out = cli("step", thread, "--steps", "2", "--data-dir", str(data))
    assert out.returncode == 1 and out.stderr.strip() == "error: the run is waiting for an answer: give it with --answer JSON"
    out = cli("step", thread, "--answer", json.dumps(FEEDBACK), "--steps", "2", "--data-dir", str(data))
    assert out.returncode == 0, out.stderr
    assert "collect_feedback" in out.stderr and "goal_decomposer" in out.stderr
    bad = cli("step", thread, "--answer", "{nope", "--data-dir", str(data))
    assert bad.returncode == 1 and bad.stderr.startswith("error: --answer is not valid JSON")


def _step_process(thread, data, stub):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(data), "STEPWISE_API_KEY": "stub-key",
           "STEPWISE_MAX_RETRIES": "0", "STEPWISE_FALLBACK_TO_OFFLINE": "true", **_server_env()}
    return subprocess.Popen([sys.executable, "-m", "pipelines", "step", thread, "--data-dir", str(data),
                             "--provider", "openai", "--base-url", stub.base_url, "--model", "stub"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _server_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k in ("STEPWISE_DB_URL", "STEPWISE_CHECKPOINT_URL")}


def two_processes_step_one_run(data, thread, **settings):
    """Process one steps with a model the test holds; process two, started meanwhile, must run nothing."""
    with OpenAIStub([("hold", ("valid", {}))]) as stub:
        first = _step_process(thread, data, stub)
        stub.wait_for_requests(1)  # the first process is inside its step, waiting on the model
        second = _step_process(thread, data, stub)
        out, err = second.communicate(timeout=300)
        calls_by_second = len(stub.requests) - 1
        stub.open()
        first_out, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert second.returncode == 3, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: another step of this run is under way (a step from the "
                                                   "command line, process ")
    assert out == "" and calls_by_second == 0  # the second process asked the model nothing
    studio, session = stored_session(data, thread, **settings)
    try:
        steps = [r for r in session.studio.runs.load_steps(thread) if r.status == "completed"]
        assert [r.label for r in steps] == ["0 input", "1 coordinator"]  # exactly one step
        parents = [info.parent_id for info in session.history()]
        assert len(parents) == len(set(parents))  # no sibling checkpoints: the thread did not split
    finally:
        studio.close()


def test_two_processes_stepping_one_run_step_it_once(tmp_path):
    data = tmp_path / "data"
    two_processes_step_one_run(data, stored_run(data))


@pytest.mark.parametrize("answer", [None, FEEDBACK])
def test_a_run_another_process_holds_exits_3_with_one_line(tmp_path, answer):
    data = tmp_path / "data"
    thread = stored_run(data)
    studio, session = stored_session(data, thread)
    try:
        with session.claimed("a step in a test"):
            args = ["step", thread, "--data-dir", str(data)] + (["--answer", json.dumps(answer)] if answer else [])
            out = cli(*args)
    finally:
        studio.close()
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 3 and len(lines) == 1 and "(a step in a test, process" in lines[0]
