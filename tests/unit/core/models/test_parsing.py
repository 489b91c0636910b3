"""Defensive parsing of model output."""

import pytest
from langchain_core.messages import AIMessage
from pydantic import BaseModel

from pipelines.core.models.parsing import MalformedOutput, loads_lenient, parse_structured


class Answer(BaseModel):
    score: int
    label: str


@pytest.mark.parametrize("text", [
    '{"score": 3, "label": "ok"}',
    'Sure! Here it is:\n```json\n{"score": 3, "label": "ok"}\n```\nAnything else?',
    'The answer is {"score": 3, "label": "ok",} as requested.',
])
def test_loads_lenient_finds_the_object(text):
    assert loads_lenient(text) == {"score": 3, "label": "ok"}


def test_parse_structured_prefers_tool_calls_then_content():
    raw = AIMessage(content="", tool_calls=[{"name": "Answer", "args": {"score": 1, "label": "a"}, "id": "1"}])
    assert parse_structured(raw, Answer) == Answer(score=1, label="a")
    assert parse_structured(AIMessage(content='```{"score": 2, "label": "b"}```'), Answer).score == 2


def test_parse_structured_unwraps_common_wrappers():
    raw = AIMessage(content='{"arguments": {"score": 5, "label": "x"}}')
    assert parse_structured(raw, Answer).score == 5


@pytest.mark.parametrize("content", ["I cannot answer that.", '{"score": "high", "label": "x"}', ""])
def test_parse_structured_raises_a_clear_error(content):
    with pytest.raises(MalformedOutput):
        parse_structured(AIMessage(content=content), Answer)
