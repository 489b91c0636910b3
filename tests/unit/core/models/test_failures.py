"""The one way a node handles a failed model call: the node's policy answers instead, and says why."""

import pytest

from pipelines.core.models.failures import ModelFailure, answer_or, offline_instead
from pipelines.core.models.gateway import ModelCallError


def failing(exc: BaseException):
    def call():
        raise exc
    return call


def test_an_answer_passes_through_and_the_policy_is_not_asked():
    assert answer_or(lambda: "model", lambda failure: pytest.fail(f"asked: {failure}")) == "model"


def test_a_failed_call_gets_the_policy_answer_with_the_gateway_message():
    seen = []
    answer = answer_or(failing(ModelCallError("openai timed out after 2 retries")),
                       lambda failure: seen.append(failure.message) or "recorded")
    assert answer == "recorded" and seen == ["openai timed out after 2 retries"]


def test_offline_instead_answers_as_the_offline_engine_would():
    assert answer_or(failing(ModelCallError("down")), offline_instead(lambda: "fixed phrase")) == "fixed phrase"


def test_other_failures_are_covered_only_when_the_policy_names_them():
    with pytest.raises(KeyError):
        answer_or(failing(KeyError("market")), offline_instead(lambda: "x"))
    failure = answer_or(failing(KeyError("market")), lambda failure: failure, also=(KeyError,))
    assert isinstance(failure, ModelFailure) and failure.message == "KeyError: 'market'"
