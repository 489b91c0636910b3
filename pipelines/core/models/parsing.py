"""Defensive parsing of model output into a pydantic schema: tool calls, fenced JSON, sloppy JSON."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from langchain_core.messages import AIMessage
from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


class MalformedOutput(ValueError):
    """The model answered, but not with something the schema accepts."""


def _json_candidates(text: str) -> list[str]:
    candidates = [m.strip() for m in _FENCE.findall(text)]
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        candidates.append(text[start : end + 1])
    candidates.append(text.strip())
    return candidates


def loads_lenient(text: str) -> Any:
    """JSON from model text: inside code fences, surrounded by prose, or with trailing commas."""
    for candidate in _json_candidates(text):
        for variant in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            try:
                return json.loads(variant)
            except json.JSONDecodeError:
                continue
    raise MalformedOutput(f"no JSON object found in model output: {text[:120]!r}")


def _unwrap(data: Any, schema: type[BaseModel]) -> Any:
    """Some models wrap the object: {"arguments": {...}}, {"properties": {...}} or {"<SchemaName>": {...}}."""
    if not isinstance(data, dict):
        return data
    wanted = set(schema.model_fields)
    if wanted & set(data):
        return data
    for key in ("arguments", "args", "properties", "parameters", "output", "result", schema.__name__):
        inner = data.get(key)
        if isinstance(inner, str):
            try:
                inner = json.loads(inner)
            except json.JSONDecodeError:
                continue
        if isinstance(inner, dict) and wanted & set(inner):
            return inner
    return data


def parse_structured(raw: AIMessage | None, schema: type[T]) -> T:
    """Recover a schema instance from a raw model message, or raise MalformedOutput."""
    if raw is None:
        raise MalformedOutput("the model returned no message")
    payloads: list[Any] = [call.get("args") for call in getattr(raw, "tool_calls", []) or []]
    payloads += [call.get("args") for call in getattr(raw, "invalid_tool_calls", []) or []]
    content = raw.content if isinstance(raw.content, str) else json.dumps(raw.content)
    if content.strip():
        payloads.append(content)
    last_error = "the model returned an empty answer"
    for payload in payloads:
        try:
            data = loads_lenient(payload) if isinstance(payload, str) else payload
            return schema.model_validate(_unwrap(data, schema))
        except (MalformedOutput, ValidationError) as exc:
            last_error = str(exc).splitlines()[0]
    raise MalformedOutput(last_error)
