"""Error patterns for de-duplication and reading exception text."""

from pipelines.flink_diagnosis.patterns import (deepest_cause, exception_classes, extract_error_pattern, headline,
                                                is_generic_wrapper, root_exception, simple_name)

TRACE = """org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy
\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:176)
Caused by: java.lang.RuntimeException: Error while deserializing
\tat com.acme.Parser.map(Parser.java:44)
Caused by: java.lang.NullPointerException: Cannot invoke "String.length()" because "s" is null
\tat com.acme.Parser.parse(Parser.java:12)
\t... 23 more"""


def test_uuids_timestamps_and_paths_are_replaced_before_numbers():
    message = ("2024-03-11 02:14:55,118 Task 3f2a1b4c-1111-2222-3333-444455556666 failed writing "
               "hdfs://nn:8020/flink/ckpt/chk-42 and /data/rocksdb/db after 1234 ms at 1710123295118")
    pattern = extract_error_pattern(message)
    assert pattern == "<TIMESTAMP> Task <UUID> failed writing <PATH> and <PATH> after <NUM> ms at <TIMESTAMP>"


def test_the_same_failure_on_another_day_gives_the_same_pattern():
    first = "Checkpoint 1842 of job 9f3c2a71b0d84e55a1c07e2f6b9d4c10 expired before completing."
    second = "Checkpoint 7 of job 0a1b2c3d4e5f60718293a4b5c6d7e8f9 expired before completing."
    assert extract_error_pattern(first) == extract_error_pattern(second)
    assert "<NUM>" in extract_error_pattern(first) and "<ID>" in extract_error_pattern(first)


def test_pattern_keeps_lines_and_collapses_spaces():
    assert extract_error_pattern("a   b\n\n\tat x.y(Z.java:12)") == "a b\nat x.y(Z.java:<NUM>)"


def test_exception_classes_and_the_deepest_cause():
    assert exception_classes(TRACE)[:3] == ["org.apache.flink.runtime.JobException", "java.lang.RuntimeException",
                                            "java.lang.NullPointerException"]
    assert deepest_cause(TRACE).startswith("java.lang.NullPointerException")
    assert "at com.acme" not in deepest_cause(TRACE)
    assert root_exception(TRACE) == "java.lang.NullPointerException"
    assert root_exception("KryoException: Buffer underflow") == "KryoException"


def test_generic_wrappers_and_simple_names():
    assert simple_name("org.apache.flink.runtime.JobException") == "JobException"
    assert is_generic_wrapper("org.apache.flink.runtime.JobException") and is_generic_wrapper("")
    assert not is_generic_wrapper("org.apache.flink.runtime.checkpoint.CheckpointException")
    assert headline("\n\tat a.b(C.java:1)\nreal line") == "real line"
