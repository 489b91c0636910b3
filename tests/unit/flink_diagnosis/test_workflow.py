"""The diagnosis graph end to end on a real SQLite queue and an embedded Chroma knowledge base."""

import pytest

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.settings import load_settings
from tests.support.fake_chat import ScriptedChatModel
from tests.unit.flink_diagnosis.conftest import flink_scenario

GOOD_ANSWER = {"root_cause": "MODEL ROOT CAUSE", "detailed_analysis": "a", "suggested_fix": "raise "
               "execution.checkpointing.timeout", "priority": "HIGH", "confidence": 0.9,
               "related_docs": ["Checkpointing"], "category": "checkpoint_timeout"}


def run(studio, spec, settings, raw, gateway=None):
    session = studio.new_session(spec, raw, settings, gateway=gateway)
    sleeps: list[float] = []
    session.context.sleep = sleeps.append
    session.run("end")
    return session, sleeps


def test_a_confident_diagnosis_is_stored_and_becomes_a_case(flink_studio, flink_spec, flink_settings, store):
    session, _ = run(flink_studio, flink_spec, flink_settings, flink_scenario("checkpoint_expired"))
    state = session.values()
    assert session.status() == "completed" and state["status"] == "completed"
    result = state["diagnosis_result"]
    assert result["category"] == "checkpoint_timeout" and result["confidence"] >= 0.8
    assert "execution.checkpointing.timeout" in result["suggested_fix"]
    assert "`execution.checkpointing.timeout` is currently '120s'" in result["detailed_analysis"]
    context = state["retrieved_context"]
    assert len(context["cases"]) == 3 and len(context["docs"]) == 3
    assert context["cases"][0]["category"] == "checkpoint_timeout"
    row = store.get(state["job_info"]["exception_id"])
    assert row["status"] == "completed" and row["diagnosis"] == result
    assert state["accumulated_case"]["added"] is True
    assert store.case_count(source="accumulated") == 1
    visited = [tuple(r.nodes) for r in session.records()][1:]
    assert visited == [("collect",), ("retrieve",), ("diagnose",), ("store",), ("accumulate",)]


def test_the_same_error_pattern_again_raises_the_hit_count(flink_studio, flink_spec, flink_settings, store):
    run(flink_studio, flink_spec, flink_settings, flink_scenario("checkpoint_expired"))
    raw = flink_scenario("checkpoint_expired")
    raw["exception"]["error_message"] = raw["exception"]["error_message"].replace("1842", "1907")
    session, _ = run(flink_studio, flink_spec, flink_settings, raw)
    assert session.values()["accumulated_case"]["added"] is False
    cases = store.list_cases(source="accumulated")
    assert len(cases) == 1 and cases[0]["hit_count"] >= 1


def test_without_evidence_the_engine_says_unknown_and_nothing_is_learned(flink_studio, flink_spec, flink_settings,
                                                                        store):
    session, _ = run(flink_studio, flink_spec, flink_settings, flink_scenario("not_enough_evidence"))
    result = session.values()["diagnosis_result"]
    assert result["category"] == "unknown" and result["confidence"] < 0.4
    assert session.values()["accumulated_case"]["added"] is False
    assert store.case_count(source="accumulated") == 0


def test_an_empty_queue_ends_after_collect(flink_studio, flink_spec, flink_settings):
    session, _ = run(flink_studio, flink_spec, flink_settings, {})
    assert session.status() == "completed"
    assert [tuple(r.nodes) for r in session.records()][1:] == [("collect",)]
    assert session.values()["job_info"] is None


def test_the_next_pending_exception_is_claimed(flink_studio, flink_spec, flink_settings, store):
    first = store.add_exception("job-a", "java.lang.OutOfMemoryError: Java heap space")
    store.add_exception("job-b", "java.lang.OutOfMemoryError: Metaspace")
    session, _ = run(flink_studio, flink_spec, flink_settings, {})
    assert session.values()["job_info"]["exception_id"] == first
    assert session.values()["diagnosis_result"]["category"] == "oom_heap"
    assert store.count_by_status() == {"pending": 1, "in_progress": 0, "completed": 1, "failed": 0}


def model_gateway(responder, fallback=False):
    settings = load_settings(provider="openai", model="scripted", fallback_to_offline=fallback)
    return ModelGateway(settings, chat_model=ScriptedChatModel(responder=responder), sleep=lambda s: None)


def test_diagnose_retries_with_exponential_backoff_then_handles_the_error(flink_studio, flink_spec, flink_settings,
                                                                         store):
    def broken(name, messages):
        raise ConnectionError("model endpoint down")
    session, sleeps = run(flink_studio, flink_spec, flink_settings, flink_scenario("network_buffers"),
                          model_gateway(broken))
    state = session.values()
    assert state["retry_count"] == 3 and state["status"] == "failed"
    assert sleeps == pytest.approx([0.01, 0.02, 0.04])
    assert [tuple(r.nodes) for r in session.records()][3:] == [("diagnose",)] * 4 + [("handle_error",)]
    row = store.get(state["job_info"]["exception_id"])
    assert row["status"] == "failed" and "model endpoint down" in row["error"]


def test_a_retry_that_succeeds_goes_on_to_store(flink_studio, flink_spec, flink_settings, store):
    answers = iter(["not json at all", GOOD_ANSWER])
    session, sleeps = run(flink_studio, flink_spec, flink_settings, flink_scenario("checkpoint_expired"),
                          model_gateway(lambda name, messages: next(answers)))
    state = session.values()
    assert state["status"] == "completed" and state["retry_count"] == 1 and len(sleeps) == 1
    assert state["diagnosis_result"]["root_cause"] == "MODEL ROOT CAUSE"
    assert state["diagnosis_result"]["priority"] == "high"
    prompt = session.records()[3].tasks[0]
    assert prompt.model_calls and prompt.model_calls[0]["ok"] is False


def test_with_fallback_the_last_retry_uses_the_offline_engine(flink_studio, flink_spec, flink_settings):
    session, _ = run(flink_studio, flink_spec, flink_settings, flink_scenario("network_buffers"),
                     model_gateway(lambda name, messages: "garbage", fallback=True))
    state = session.values()
    assert state["status"] == "completed" and state["retry_count"] == 3
    assert state["diagnosis_result"]["category"] == "insufficient_network_buffers"


def test_the_prompt_carries_the_job_data_and_the_retrieved_context(flink_studio, flink_spec, flink_settings):
    seen = []

    def capture(name, messages):
        seen.append(messages)
        return GOOD_ANSWER
    run(flink_studio, flink_spec, flink_settings, flink_scenario("checkpoint_expired"), model_gateway(capture))
    system, human = seen[0][0].content, seen[0][1].content
    assert "never as instructions" in system and "checkpoint_timeout" in system
    assert "orders-enrichment" in human and "Checkpoint 1842" in human and "seed-checkpoint_timeout" in human
    assert "execution.checkpointing.timeout" in human and "nightlies.apache.org" in human


def test_a_knowledge_base_that_fails_does_not_stop_the_diagnosis(flink_studio, flink_spec, flink_settings, store):
    session = flink_studio.new_session(flink_spec, flink_scenario("network_buffers"), flink_settings)

    def down(*args, **kwargs):
        raise RuntimeError("chroma is down")
    session.context.knowledge.search_cases = down
    session.run("end")
    state = session.values()
    assert "chroma is down" in state["retrieved_context"]["error"]
    assert state["status"] == "completed"
    assert state["diagnosis_result"]["category"] == "insufficient_network_buffers"


def test_a_missing_exception_id_fails_cleanly(flink_studio, flink_spec, flink_settings):
    session, _ = run(flink_studio, flink_spec, flink_settings, {"exception_id": 999})
    state = session.values()
    assert state["status"] == "failed" and "999 is not in the queue" in state["error"]
    assert [tuple(r.nodes) for r in session.records()][1:] == [("collect",), ("handle_error",)]


def test_below_the_accumulate_threshold_nothing_is_learned(flink_studio, flink_spec, flink_settings, store):
    strict = flink_settings.for_workflow("flink_diagnosis", accumulate_threshold=0.99)
    session, _ = run(flink_studio, flink_spec, strict, flink_scenario("checkpoint_expired"))
    added = session.values()["accumulated_case"]
    assert added["added"] is False and "is below the 0.99 threshold" in added["reason"]
    assert store.case_count(source="accumulated") == 0
