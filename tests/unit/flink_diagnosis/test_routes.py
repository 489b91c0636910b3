"""The routes of seed §4, plus store's route to handle_error."""

from langgraph.graph import END

from pipelines.flink_diagnosis.nodes import (should_continue_after_collect, should_continue_after_diagnose,
                                             should_continue_after_store)


def test_after_collect():
    assert should_continue_after_collect({"error": "db down", "job_info": None}) == "handle_error"
    assert should_continue_after_collect({"job_info": None}) == END
    assert should_continue_after_collect({"job_info": {"exception_id": 1}}) == "retrieve"


def test_after_diagnose_retries_three_times_then_gives_up():
    assert should_continue_after_diagnose({"error": "bad output", "retry_count": 0}) == "diagnose"
    assert should_continue_after_diagnose({"error": "bad output", "retry_count": 2}) == "diagnose"
    assert should_continue_after_diagnose({"error": "bad output", "retry_count": 3}) == "handle_error"
    assert should_continue_after_diagnose({"diagnosis_result": {}, "retry_count": 3}) == "store"


def test_after_store():
    assert should_continue_after_store({"error": "claim lost"}) == "handle_error"
    assert should_continue_after_store({"status": "completed"}) == "accumulate"
