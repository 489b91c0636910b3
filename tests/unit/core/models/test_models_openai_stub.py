"""The OpenAI-compatible provider against a local stub server: valid, malformed, slow and HTTP 500 answers."""

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from pipelines.core.models.gateway import ModelCallError, ModelGateway
from pipelines.core.settings import load_settings
from tests.support.openai_stub import OpenAIStub

MESSAGES = [HumanMessage("Assess the goal.")]


class GoalVerdict(BaseModel):
    clear: bool
    score: int


def stub_gateway(stub, **overrides):
    settings = load_settings(provider="openai", base_url=stub.base_url, model="stub-model", api_key="sk-test",
                             backoff_s=0.01, fallback_to_offline=False, **overrides)
    return ModelGateway(settings)


def test_valid_answer_is_parsed_with_usage():
    with OpenAIStub([("valid", {"clear": True, "score": 88})]) as stub:
        gw = stub_gateway(stub)
        assert gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None) == GoalVerdict(clear=True, score=88)
    (call,) = gw.ledger.all()
    assert (call.provider, call.model, call.input_tokens, call.output_tokens, call.attempts) == \
        ("openai", "stub-model", 42, 17, 1)
    request = stub.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["tools"][0]["function"]["name"] == "GoalVerdict"
    assert request["auth"] == "Bearer sk-test"


def test_malformed_answer_is_retried_then_parsed():
    script = [("malformed", '{"clear": true, "score": '), ("text", "no idea"), ("valid", {"clear": False, "score": 12})]
    with OpenAIStub(script) as stub:
        gw = stub_gateway(stub, max_retries=2)
        assert gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None).score == 12
    assert gw.ledger.all()[0].attempts == 3
    assert len(stub.requests) == 3


def test_a_hanging_provider_costs_one_time_budget_for_the_whole_call():
    with OpenAIStub([("hold", None)]) as stub:  # never answers while the test runs
        gw = stub_gateway(stub, timeout_s=0.5, max_retries=2)
        with pytest.raises(ModelCallError, match="within the call's 0.5 s budget"):
            gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None)
        assert len(stub.requests) == 1  # no retry: the budget was spent, not one timeout per attempt
    assert gw.ledger.all()[0].attempts == 1


def test_an_attempt_that_failed_fast_leaves_the_rest_of_the_budget_to_the_next():
    with OpenAIStub([("error", 500), ("hold", None)]) as stub:
        gw = stub_gateway(stub, timeout_s=1.0, max_retries=5)
        with pytest.raises(ModelCallError, match="budget"):
            gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None)
        assert len(stub.requests) == 2
    assert gw.ledger.all()[0].attempts == 2


def test_a_reply_that_is_not_json_is_reported_as_malformed():
    with OpenAIStub([("garbage", b"\xff\xfe<html>not json")]) as stub:
        gw = stub_gateway(stub, max_retries=0)
        with pytest.raises(ModelCallError, match="malformed response from the provider") as caught:
            gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None)
    assert "UnicodeDecodeError" not in str(caught.value).split("(not JSON")[0]


def test_http_500_is_retried_and_reported():
    with OpenAIStub([("error", 500)]) as stub:
        gw = stub_gateway(stub, max_retries=2)
        with pytest.raises(ModelCallError, match="HTTP 500"):
            gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None)
    assert len(stub.requests) == 3


def test_http_500_then_recovery_succeeds():
    with OpenAIStub([("error", 500), ("valid", {"clear": True, "score": 75})]) as stub:
        gw = stub_gateway(stub, max_retries=2)
        assert gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None).score == 75


def test_unauthorised_is_not_retried():
    with OpenAIStub([("error", 401)]) as stub:
        gw = stub_gateway(stub, max_retries=3)
        with pytest.raises(ModelCallError, match="HTTP 401"):
            gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: None)
    assert len(stub.requests) == 1


def test_failure_with_fallback_returns_the_offline_answer():
    with OpenAIStub([("error", 500)]) as stub:
        settings = load_settings(provider="openai", base_url=stub.base_url, backoff_s=0.01, max_retries=1)
        gw = ModelGateway(settings)
        assert gw.structured("goal", GoalVerdict, MESSAGES, offline=lambda: GoalVerdict(clear=True, score=3)).score == 3
    assert [c.provider for c in gw.ledger.all()] == ["openai", "offline"]
    assert gw.ledger.all()[0].fallback is True


def test_ping_reports_time_and_answer():
    with OpenAIStub([("text", "ready")]) as stub:
        seconds, answer = stub_gateway(stub).ping()
    assert answer == "ready" and seconds >= 0
