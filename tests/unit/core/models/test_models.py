"""The model gateway: offline engine, a scripted chat model, retries, fallback and usage accounting."""

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from pipelines.core.models.gateway import ModelCallError, ModelGateway
from pipelines.core.settings import load_settings
from tests.support.fake_chat import ScriptedChatModel

MESSAGES = [HumanMessage("how clear is this goal?")]


class Verdict(BaseModel):
    clear: bool
    score: int


def gateway(responder, **settings):
    sleeps = []
    model = ScriptedChatModel(responder=responder)
    gw = ModelGateway(load_settings(provider="openai", **settings), chat_model=model, sleep=sleeps.append)
    return gw, model, sleeps


def test_offline_provider_runs_the_offline_implementation_and_records_it():
    gw = ModelGateway(load_settings())
    assert gw.is_offline and gw.provider == "offline"
    assert gw.structured("t.verdict", Verdict, MESSAGES, offline=lambda: Verdict(clear=True, score=80)).score == 80
    (call,) = gw.ledger.all()
    assert (call.task, call.provider, call.ok, call.input_tokens) == ("t.verdict", "offline", True, 0)


def test_real_provider_answer_is_parsed_and_tokens_counted():
    gw, model, _ = gateway(lambda name, msgs: {"clear": False, "score": 45})
    result = gw.structured("t.verdict", Verdict, MESSAGES, offline=lambda: pytest.fail("offline must not run"))
    assert result == Verdict(clear=False, score=45)
    (call,) = gw.ledger.all()
    assert (call.provider, call.attempts, call.input_tokens, call.output_tokens) == ("openai", 1, 100, 40)
    assert model.calls == ["Verdict"]


def test_malformed_output_is_retried_with_exponential_backoff_then_succeeds():
    answers = iter([{"clear": "perhaps", "score": "high"}, "not json at all", {"clear": True, "score": 90}])
    gw, _, sleeps = gateway(lambda name, msgs: next(answers), max_retries=2, backoff_s=0.5)
    assert gw.structured("t.verdict", Verdict, MESSAGES, offline=lambda: None).score == 90
    assert sleeps == [0.5, 1.0]
    assert gw.ledger.all()[0].attempts == 3


def test_json_in_plain_text_is_recovered_without_a_retry():
    gw, _, sleeps = gateway(lambda name, msgs: 'Here you go: ```json\n{"clear": true, "score": 71}\n```')
    assert gw.structured("t.verdict", Verdict, MESSAGES, offline=lambda: None).score == 71
    assert sleeps == []


def test_persistent_failure_falls_back_to_offline_and_says_so():
    def broken(name, msgs):
        raise ConnectionError("connection refused")

    gw, _, sleeps = gateway(broken, max_retries=1)
    result = gw.structured("t.verdict", Verdict, MESSAGES, offline=lambda: Verdict(clear=True, score=1))
    assert result.score == 1
    failed, offline = gw.ledger.all()
    assert (failed.ok, failed.fallback, failed.attempts) == (False, True, 2)
    assert "connection refused" in failed.error
    assert offline.provider == "offline"
    assert sleeps == [0.5]


def test_without_fallback_the_failure_is_one_clear_error():
    gw, _, _ = gateway(lambda name, msgs: "nonsense", max_retries=0, fallback_to_offline=False)
    with pytest.raises(ModelCallError, match=r"t.verdict: openai model failed after 1 attempt\(s\): malformed output"):
        gw.structured("t.verdict", Verdict, MESSAGES, offline=lambda: None)
    assert gw.ledger.all()[0].ok is False


def test_text_calls_go_through_the_same_door():
    gw, _, _ = gateway(lambda name, msgs: "A short answer.")
    assert gw.text("t.text", MESSAGES, offline=lambda: "offline") == "A short answer."
    assert gw.ledger.all()[0].output_tokens == 40
