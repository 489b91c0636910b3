"""Turn graph state values (messages, pydantic models, enums, dates) into plain JSON values."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel


def to_jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, BaseMessage):
        message: dict[str, Any] = {"type": value.type, "content": to_jsonable(value.content)}
        if value.name:
            message["name"] = value.name
        return message
    if isinstance(value, BaseModel):
        return to_jsonable(value.model_dump(mode="json"))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_jsonable(dataclasses.asdict(value))
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [to_jsonable(v) for v in items]
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return repr(value)


def state_to_jsonable(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: to_jsonable(val) for key, val in values.items()}


def json_head(value: Any, limit: int) -> str:
    """The first `limit` + 1 characters of `value` as one-line JSON (a string as it is): only as much of a large
    value is encoded as is shown, so a preview of a list of thousands of items costs no more than of a short one."""
    if isinstance(value, str):
        return value[: limit + 1]
    parts: list[str] = []
    size = 0
    for chunk in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            break
    return "".join(parts)[: limit + 1]


def as_prompt_json(value: Any, limit: int = 6000) -> str:
    """Compact JSON for a prompt, bounded so an over-long field cannot blow up the context."""
    text = json.dumps(to_jsonable(value), ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + " …(truncated)"
