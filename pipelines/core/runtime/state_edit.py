"""Edits to a run's state, checked against the workflow's state schema before they reach update_state."""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Annotated, Any, NotRequired, Required, Union

import typing_extensions
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Overwrite
from pydantic import BaseModel, ConfigDict, PydanticSchemaGenerationError, TypeAdapter, ValidationError, with_config

from pipelines.core.errors import format_validation_error
from pipelines.core.spec import Counter
from pipelines.core.errors import InvalidInput

MAX_EDIT_CHARS = 200_000  # a pasted state larger than this is a mistake, not an edit


def _is_typing_typeddict(tp: Any) -> bool:
    return typing.is_typeddict(tp) and not isinstance(tp, typing_extensions._TypedDictMeta)  # noqa: SLF001


@cache
def _friendly_typeddict(tp: type) -> type:
    """The same TypedDict built with typing_extensions: pydantic cannot read `typing.TypedDict` before 3.12.
    Unknown keys are kept, since nodes may write more than a schema declares."""
    hints = typing.get_type_hints(tp, include_extras=True)
    fields = {name: (Required if name in tp.__required_keys__ else NotRequired)[pydantic_friendly(hint)]
              for name, hint in hints.items()}
    return with_config(ConfigDict(extra="allow"))(typing_extensions.TypedDict(tp.__name__, fields))


def pydantic_friendly(tp: Any) -> Any:
    """A type annotation pydantic can validate, with every `typing.TypedDict` inside it rebuilt."""
    if _is_typing_typeddict(tp):
        return _friendly_typeddict(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is None or not args:
        return tp
    if origin is Annotated:
        return Annotated[(pydantic_friendly(args[0]), *tp.__metadata__)]
    converted = tuple(pydantic_friendly(a) for a in args)
    if origin in (Union, types.UnionType):
        return Union[converted]
    if origin in (list, set, frozenset, tuple, dict, type) or hasattr(origin, "__class_getitem__"):
        try:
            return origin[converted if len(converted) > 1 else converted[0]]
        except TypeError:
            return tp
    return tp


def _without_reducer(hint: Any) -> Any:
    # A reducer sits in Annotated metadata as a callable; the value's own type is the first argument.
    if typing.get_origin(hint) is Annotated and any(callable(m) for m in hint.__metadata__):
        return typing.get_args(hint)[0]
    return hint


@cache
def _field_types(schemas: tuple[type, ...]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for schema in reversed(schemas):  # the state schema (first) wins over input and output schemas
        fields.update({name: _without_reducer(hint) for name, hint in
                       typing.get_type_hints(schema, include_extras=True).items()})
    return fields


def editable_fields(graph: CompiledStateGraph) -> dict[str, Any]:
    """Every state field a fork may edit, with its declared type."""
    builder = graph.builder
    schemas = (builder.state_schema, *(s for s in builder.schemas if s is not builder.state_schema))
    return _field_types(tuple(schemas))


@cache
def _adapter(hint: Any) -> TypeAdapter:
    return TypeAdapter(pydantic_friendly(hint))


def parse_state_edits(text: str) -> dict[str, Any]:
    """The JSON object typed in the editor, or InvalidInput saying what is wrong with it."""
    if len(text) > MAX_EDIT_CHARS:
        raise InvalidInput(f"the edit is {len(text):,} characters long; the limit is {MAX_EDIT_CHARS:,}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"the edit is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise InvalidInput("the edit must be a JSON object of field names and their new values")
    if not data:
        raise InvalidInput("the edit changes no field")
    return data


def input_field_rules(model: type[BaseModel], *names: str) -> dict[str, Any]:
    """The rules a run's input model sets on these fields (types and bounds), for state edits to meet too."""
    return {name: Annotated[model.model_fields[name].annotation, model.model_fields[name]] for name in names}


def validate_state_edits(graph: CompiledStateGraph, edits: Mapping[str, Any], *,
                         rules: Mapping[str, Any] | None = None, counters: Sequence[Counter] = (),
                         current: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Each edited value checked against its field's type, the rules the workflow's input sets on it (`rules`:
    field → a type pydantic validates, such as `input_field_rules(...)`), and each counter's own rule (a whole
    number from 0 to its limit, with `current` the state being edited). Every problem is listed; nothing is
    applied."""
    fields = editable_fields(graph)
    problems: list[str] = []
    validated: dict[str, Any] = {}
    for name, value in edits.items():
        if name not in fields:
            problems.append(f"{name}: not a field of the state")
            continue
        try:
            validated[name] = _checked(fields[name], value)
            if rules and name in rules:
                _adapter(rules[name]).validate_python(value)  # a check: the state keeps its own form
        except ValidationError as exc:
            problems.append(f"{name}: {format_validation_error(exc)}")
            validated.pop(name, None)
    # Counters are judged on the values as typed: `true` or 2.0 would pass as whole numbers once converted.
    typed = {name: edits[name] for name in validated}
    problems += counter_problems(counters, {**(current or {}), **typed}, edited=set(typed))
    if problems:
        raise InvalidInput("the edit does not match the state schema — " + "; ".join(problems))
    return validated


def _checked(hint: Any, value: Any) -> Any:
    try:
        adapter = _adapter(hint)
    except PydanticSchemaGenerationError:  # a type pydantic cannot check is taken as the editor wrote it
        return value
    return adapter.validate_python(value)


def counter_problems(counters: Sequence[Counter], state: Mapping[str, Any], edited: set[str]) -> list[str]:
    """What is wrong with the counters an edit touches (the counter or its limit field): each must be a whole
    number from 0 to its limit, and a limit field a whole number of at least 1."""
    problems = []
    for counter in counters:
        if counter.limit_field in edited:
            limit = state.get(counter.limit_field)
            if not _whole(limit) or limit < 1:
                problems.append(f"{counter.limit_field}: the limit of {counter.field} must be a whole number of "
                                f"at least 1, not {json.dumps(limit, default=str)}")
                continue
        if counter.field not in edited and counter.limit_field not in edited:
            continue
        value, limit = state.get(counter.field, 0), counter.limit_for(state)
        if not _whole(value) or value < 0:
            problems.append(f"{counter.field}: a counter must be a whole number from 0, not {json.dumps(value, default=str)}")
        elif limit is not None and value > limit:
            source = f" ({counter.limit_field})" if counter.limit_field and state.get(counter.limit_field) is not None \
                else ""
            problems.append(f"{counter.field}: {value} is over its limit of {limit}{source}")
    return problems


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_state_update(graph: CompiledStateGraph, values: Mapping[str, Any]) -> dict[str, Any]:
    """The update that sets each field to exactly the edited value: a field with a reducer (appending
    lists, merging dicts) would otherwise combine the edit with the old value."""
    return {name: Overwrite(value) if isinstance(graph.channels.get(name), BinaryOperatorAggregate) else value
            for name, value in values.items()}
