"""The errors every layer shares: input that does not match its schema, and changes that came second."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

Model = TypeVar("Model", bound=BaseModel)


class InvalidInput(ValueError):
    """A run input or a resume value does not match its schema; the message lists what is wrong."""


class ConcurrentChange(InvalidInput):
    """Someone else moved the run, or is moving it now: this change was not made (the CLI exits with code 3)."""


class RunBusy(ConcurrentChange):
    """Another step, run or answer of this run is under way (another tab, a background run, another process)."""


class RunMovedOn(ConcurrentChange):
    """The run moved on since it was shown (stepped, answered, rewound or forked elsewhere)."""


class StaleAnswer(RunMovedOn):
    """An answer to a question the run no longer asks: another tab (or a worker) answered it first."""


def format_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()))
        message = str(err.get("msg", "")).removeprefix("Value error, ")  # our own validators speak for themselves
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def validate_input(schema: type[Model], raw: Mapping[str, Any], what: str) -> Model:
    """`raw` as `schema`, or InvalidInput("invalid <what> input: <every reason>")."""
    try:
        return schema.model_validate(dict(raw))
    except ValidationError as exc:
        raise InvalidInput(f"invalid {what} input: {format_validation_error(exc)}") from exc
