"""The headless CLI: list, run with scenario or input, answers, trace JSON, failures with one-line reasons."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import scenario

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "pipelines", *args], capture_output=True, text=True, cwd=cwd,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(cwd)}, timeout=300)


def test_list_shows_pipelines_and_scenarios():
    out = cli("list")
    assert out.returncode == 0
    assert "career_navigator" in out.stdout and "seed_example" in out.stdout
    assert "flink_diagnosis" in out.stdout and "deep_research" in out.stdout


def test_run_seed_example_with_answers_writes_a_complete_trace(tmp_path):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(scenario("seed_example")["answers"], ensure_ascii=False), encoding="utf-8")
    trace = tmp_path / "trace.json"
    out = cli("run", "career_navigator", "--scenario", "seed_example", "--answers", str(answers),
              "--data-dir", str(tmp_path / "data"), "--trace", str(trace))
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    doc = json.loads(trace.read_text(encoding="utf-8"))
    assert summary["status"] == doc["status"] == "completed"
    assert {"pipeline", "thread_id", "status", "steps", "evolution", "counters", "final_state"} <= set(doc)
    assert doc["pipeline"] == "career_navigator" and doc["thread_id"] == summary["thread_id"]
    first = doc["steps"][1]
    assert first["nodes"] == ["coordinator"] and first["duration_ms"] > 0
    assert set(first["changes"].values()) <= {"set", "changed", "appended", "removed"}
    parallel = next(s for s in doc["steps"] if len(s["nodes"]) == 3)
    assert parallel["nodes"] == ["industry_researcher", "job_analyzer", "user_profiler"]
    assert doc["counters"]["iteration_count"] == {"label": "Report iterations", "value": 1, "limit": 3}
    assert doc["final_state"]["current_stage"] == "completed"
    assert doc["evolution"]["cells"]["final_plan"][-2] == "set"
    assert "step   1  coordinator" in out.stderr  # progress goes to stderr, the summary to stdout


def test_answers_running_out_stops_interrupted(tmp_path):
    trace, answers = tmp_path / "t.json", tmp_path / "none.json"
    answers.write_text("[]")
    out = cli("run", "career_navigator", "--scenario", "seed_example", "--answers", str(answers),
              "--data-dir", str(tmp_path), "--trace", str(trace))
    assert out.returncode == 0
    doc = json.loads(trace.read_text(encoding="utf-8"))
    assert doc["status"] == "interrupted"
    assert doc["pending_interrupt"]["kind"] == "report_feedback" and doc["next"] == ["collect_feedback"]


def test_a_scenario_runs_with_its_own_sample_answers_unless_told_otherwise(tmp_path):
    out = cli("run", "career_navigator", "--scenario", "seed_example", "--data-dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["status"] == "completed"  # as the dashboard pre-fills them


def test_run_from_an_input_file_with_defaults(tmp_path):
    data = {"user_profile": {"current_position": "Data analyst", "career_goals": "Become a data scientist"},
            "messages": [{"type": "human", "content": "Help me become a data scientist"}]}
    path = tmp_path / "in.json"
    path.write_text(json.dumps(data))
    trace = tmp_path / "t.json"
    out = cli("run", "career_navigator", "--input", str(path), "--data-dir", str(tmp_path), "--trace", str(trace))
    assert out.returncode == 0, out.stderr
    state = json.loads(trace.read_text())["final_state"]
    assert state["max_iterations"] == 3 and state["agent_tasks"] and state["user_profile"]["user_id"] == "anonymous"


@pytest.mark.parametrize("args, reason", [
    (["run", "career_navigator", "--scenario", "nope"], "error: pipeline career_navigator has no scenario 'nope'"),
    (["run", "nowhere", "--scenario", "x"], "error: unknown pipeline 'nowhere'"),
    (["run", "career_navigator", "--input", "/does/not/exist.json"], "error: input file not found: /does/not/exist.json"),
])
def test_failures_exit_non_zero_with_one_line(args, reason, tmp_path):
    out = cli(*args, "--data-dir", str(tmp_path))
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(reason)


def test_invalid_input_and_invalid_answers_are_explained(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"user_profile": {"age": 5}, "unexpected": 1}))
    out = cli("run", "career_navigator", "--input", str(bad), "--data-dir", str(tmp_path))
    assert out.returncode == 1
    assert "invalid CareerNavigator input" in out.stderr and "user_profile.age" in out.stderr
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps([{"satisfaction_level": "thrilled"}]))
    out = cli("run", "career_navigator", "--scenario", "seed_example", "--answers", str(answers), "--data-dir", str(tmp_path))
    assert out.returncode == 1
    assert out.stderr.strip().splitlines()[-1].startswith("error: answer 1 (report_feedback) rejected: invalid answer")
    notjson = tmp_path / "n.json"
    notjson.write_text("{oops")
    out = cli("run", "career_navigator", "--input", str(notjson), "--data-dir", str(tmp_path))
    assert "is not valid JSON (line 1" in out.stderr


def test_trace_writes_the_pdf_and_the_json_of_a_stored_run(tmp_path):
    data = str(tmp_path / "data")
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(scenario("seed_example")["answers"][:1], ensure_ascii=False), encoding="utf-8")
    run = cli("run", "career_navigator", "--scenario", "seed_example", "--answers", str(answers), "--data-dir", data)
    assert run.returncode == 0, run.stderr
    thread = json.loads(run.stdout)["thread_id"]
    pdf, trace = tmp_path / "out" / "trace.pdf", tmp_path / "out" / "trace.json"
    out = cli("trace", thread, "--pdf", str(pdf), "--json", str(trace), "--data-dir", data)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"thread_id": thread, "pipeline": "career_navigator", "status": "interrupted",
                                      "pdf": str(pdf), "json": str(trace)}
    doc = json.loads(trace.read_text(encoding="utf-8"))
    assert doc["thread_id"] == thread and doc["pending_interrupt"]["kind"] == "report_feedback"
    from pypdf import PdfReader
    reader = PdfReader(pdf)
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Run trace · CareerNavigator" in text and thread in text and "waiting for an answer" in text
    assert all(s["nodes"][0].replace("__input__", "input") in text for s in doc["steps"])


def test_trace_of_an_unknown_thread_or_without_an_output_says_why(tmp_path):
    data = tmp_path / "data"
    out = cli("trace", "no-such-thread", "--pdf", str(tmp_path / "t.pdf"), "--data-dir", str(data))
    assert out.returncode == 1 and not (tmp_path / "t.pdf").exists()
    assert out.stderr.strip().splitlines() == [f"error: no run with thread id no-such-thread (there is no data "
                                               f"directory {data})"]
    assert not data.exists()  # a mistyped --data-dir is not created
    data.mkdir()
    out = cli("trace", "no-such-thread", "--json", str(tmp_path / "t.json"), "--data-dir", str(data))
    assert out.returncode == 1 and out.stderr.startswith("error: no run with thread id no-such-thread in sqlite:")
    out = cli("trace", "no-such-thread", "--data-dir", str(data))
    assert out.returncode == 1
    assert out.stderr.strip() == "error: trace needs --pdf FILE, --json FILE or both"
