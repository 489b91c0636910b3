"""What engineers hand in: .jsonl lines with their errors by line number, log files split into exceptions."""

import json

import pytest

from pipelines.flink_diagnosis.intake import UploadError, parse_jsonl, parse_log, parse_upload, split_log

LOG = """2024-05-01 10:00:00,001 INFO  org.apache.flink.runtime.taskmanager.Task [] - Source: kafka (1/4) switched to RUNNING
2024-05-01 10:05:12,331 WARN  org.apache.flink.runtime.taskmanager.Task [] - Map (2/4) switched from RUNNING to FAILED
java.lang.NullPointerException: null
\tat com.acme.Enricher.map(Enricher.java:57)
\tat org.apache.flink.streaming.api.operators.StreamMap.processElement(StreamMap.java:38)
2024-05-01 10:05:13,002 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph [] - Job restarting
2024-05-01 10:09:40,777 ERROR org.apache.flink.runtime.checkpoint.CheckpointCoordinator [] - failed
org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing.
\tat org.apache.flink.runtime.checkpoint.CheckpointCoordinator$CheckpointCanceller.run(CheckpointCoordinator.java:2203)
Caused by: java.util.concurrent.TimeoutException
\t... 3 more
"""


def test_bad_jsonl_lines_are_reported_with_their_numbers_and_the_good_ones_go_in():
    text = ('{"job_id": "a", "error_message": "boom"}\n'
            'not json\n'
            '\n'
            '{"job_name": "no id", "error_message": "x"}\n'
            '[1, 2]\n'
            '{"job_id": 7, "error_message": "int id", "job_config": {"parallelism.default": 4}}\n')
    intake = parse_jsonl(text)
    assert [e["job_id"] for e in intake.exceptions] == ["a", "7"]
    assert intake.exceptions[1]["job_config"] == {"parallelism.default": 4}
    assert intake.errors[0].startswith("line 2: not valid JSON")
    assert intake.errors[1].startswith("line 4:") and "job_id" in intake.errors[1]
    assert intake.errors[2].startswith("line 5:")


def test_a_log_file_becomes_one_exception_per_stack_trace():
    blocks = split_log(LOG)
    assert len(blocks) == 2
    assert blocks[0].startswith("java.lang.NullPointerException") and "Enricher.map" in blocks[0]
    assert "Caused by: java.util.concurrent.TimeoutException" in blocks[1]
    intake = parse_log(LOG, job_id="job-1")
    assert [e["error_type"] for e in intake.exceptions] == ["java.lang.NullPointerException",
                                                           "org.apache.flink.runtime.checkpoint.CheckpointException"]


def test_text_without_a_stack_trace_is_one_exception():
    intake = parse_log("作业一直重启，日志里是 Checkpoint expired before completing", job_id="j")
    assert len(intake.exceptions) == 1 and intake.exceptions[0]["error_type"] is None


def test_uploads_binary_files_and_huge_files_are_refused():
    with pytest.raises(UploadError, match="binary"):
        parse_upload(b"\x89PNG\r\n\x00\x00", "trace.log", job_id="j")
    with pytest.raises(UploadError, match=r"big.log is 21.0 MB; the limit is 20 MB per file"):
        parse_upload(b"a" * (21 * 1024 * 1024), "big.log", job_id="j")
    at_the_limit = parse_upload(b"a" * (20 * 1024 * 1024), "at-the-limit.log", job_id="j")  # read, not refused
    assert at_the_limit.errors == ["line 1: error_message: 20,971,520 characters; the limit is 65,000"]
    assert len(parse_upload(b'{"job_id": "x", "error_message": "e"}\n', "q.jsonl").exceptions) == 1


def test_over_long_lines_are_refused_by_line_number_with_the_limit_never_cut():
    fits = "x" * 65_000
    text = "\n".join([json.dumps({"job_id": "a", "error_message": fits}),
                      json.dumps({"job_id": "b", "error_message": "x" * 65_001}),
                      json.dumps({"job_id": "c", "error_message": "boom", "job_config": {"k": "v" * 70_000}})])
    intake = parse_jsonl(text)
    assert [e["error_message"] for e in intake.exceptions] == [fits]  # whole, to the last character
    assert intake.errors == ["line 2: error_message: 65,001 characters; the limit is 65,000",
                             "line 3: job_config: 70,009 characters; the limit is 65,000"]


def test_an_over_long_stack_trace_in_a_log_is_refused_with_the_lines_it_spans():
    frames = "\n".join(f"\tat com.acme.Deep.call{i}(Deep.java:{i})" for i in range(3000))
    log = f"2024-05-01 10:00:00 ERROR failed\njava.lang.StackOverflowError: deep\n{frames}\n" + LOG
    intake = parse_log(log, job_id="job-1")
    assert intake.errors == [f"lines 2–3002: error_message: {len(split_log(log)[0]):,} characters; the limit is "
                             "65,000"]
    assert [e["error_type"] for e in intake.exceptions] == ["java.lang.NullPointerException",
                                                           "org.apache.flink.runtime.checkpoint.CheckpointException"]
