"""`python -m pipelines flink enqueue|work|results|reindex` end to end on a SQLite queue."""

import csv
import io
import json

from pipelines.cli import main
from pipelines.flink_diagnosis.schemas import DiagnosisOutput

LINES = [
    {"job_id": "j1", "job_name": "orders", "error_message": "java.lang.OutOfMemoryError: Java heap space"},
    {"job_id": "j2", "error_message": "java.io.IOException: Insufficient number of network buffers: required 64, "
                                      "but only 10 available."},
    {"job_id": "j3", "error_type": "org.apache.flink.runtime.checkpoint.CheckpointException",
     "error_message": "Checkpoint expired before completing.", "job_config": {"execution.checkpointing.timeout": 60000}},
]


def test_enqueue_work_and_results(tmp_path, capsys, flink_settings):
    data = ["--data-dir", flink_settings.data_dir]
    source = tmp_path / "exceptions.jsonl"
    source.write_text("\n".join(json.dumps(line) for line in LINES) + "\n{broken\n", encoding="utf-8")
    assert main(["flink", "enqueue", str(source), *data]) == 2  # some lines went in, one did not
    out, err = capsys.readouterr()
    assert json.loads(out) == {"enqueued": 3, "rejected": 1, "first_id": 1, "last_id": 3}
    assert "exceptions.jsonl:line 4: not valid JSON" in err

    assert main(["flink", "work", "--until-empty", *data]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["completed"] == 3 and summary["failed"] == 0
    assert "3/3" in err  # the progress bar

    assert main(["flink", "results", *data]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in rows] == ["completed"] * 3
    assert [r["category"] for r in rows] == ["oom_heap", "insufficient_network_buffers", "checkpoint_timeout"]
    assert set(DiagnosisOutput.model_fields) | {"exception_id", "job_id", "status"} <= set(rows[0])

    assert main(["flink", "results", "--format", "csv", "--status", "completed", *data]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == 3 and table[0]["exception_id"] == "1" and table[0]["priority"] == "high"


def test_work_with_a_limit_leaves_the_rest_pending(tmp_path, capsys, flink_settings):
    data = ["--data-dir", flink_settings.data_dir]
    source = tmp_path / "e.jsonl"
    source.write_text("\n".join(json.dumps(line) for line in LINES), encoding="utf-8")
    main(["flink", "enqueue", str(source), *data])
    assert main(["flink", "work", "--limit", "2", *data]) == 0
    main(["flink", "results", "--status", "pending", *data])
    pending = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{\"exception_id")]
    assert [p["job_id"] for p in pending] == ["j3"]


def test_errors_are_one_line(tmp_path, capsys, flink_settings):
    assert main(["flink", "enqueue", str(tmp_path / "missing.jsonl"), "--data-dir", flink_settings.data_dir]) == 1
    assert capsys.readouterr().err.strip().startswith("error: file not found")
    assert main(["flink", "results", "--db-url", "mysql+pymysql://root@127.0.0.1:1/nope"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_reindex(capsys, flink_settings):
    assert main(["flink", "reindex", "--data-dir", flink_settings.data_dir]) == 0
    counts = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert counts["cases"] >= 60 and counts["docs"] >= 40


def test_enqueue_refuses_an_over_long_line_by_number_with_the_limit(tmp_path, capsys, flink_settings):
    """The issue: a 50 MB line went in cut to 65,000 characters without a word."""
    data = ["--data-dir", flink_settings.data_dir]
    huge = {"job_id": "j-huge", "error_message": "java.lang.OutOfMemoryError: " + "x" * (50 * 1024 * 1024)}
    source = tmp_path / "huge.jsonl"
    source.write_text(json.dumps(LINES[0]) + "\n" + json.dumps(huge) + "\n", encoding="utf-8")
    assert main(["flink", "enqueue", str(source), *data]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["enqueued"] == 1
    length = len(huge["error_message"])
    assert err.strip() == f"{source}:line 2: error_message: {length:,} characters; the limit is 65,000"
    only = tmp_path / "only-huge.jsonl"
    only.write_text(json.dumps(huge), encoding="utf-8")
    assert main(["flink", "enqueue", str(only), *data]) == 1  # nothing went in
    assert f"{only}:line 1: error_message: {length:,} characters; the limit is 65,000" in capsys.readouterr().err
    main(["flink", "results", *data])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["job_id"] for r in rows] == ["j1"]  # the huge one is not in the queue, whole or cut
