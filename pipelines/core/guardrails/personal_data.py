"""The one policy for personal identifiers in text that enters Stepwise: masked with the run's vault before anything
keeps it (state, title, step records, traces, PDFs, exports), restored only where a user must read the value to act.

A workflow names the state fields that hold people's own words (`PipelineSpec.personal_fields`); the runtime masks
them in the run's input, its first state, every answer to an interrupt and every edit of a fork."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from langchain_core.messages import BaseMessage

from pipelines.core.storage.vault import VaultTable


def _walk(value: Any, text: Callable[[str], str]) -> Any:
    """`value` with every string in it (in mappings, lists, tuples, chat messages) replaced by `text(string)`."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, BaseMessage):
        return value.model_copy(update={"content": _walk(value.content, text)})
    if isinstance(value, Mapping):
        return {key: _walk(item, text) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_walk(item, text) for item in value)
    return value


def mask_personal(vault: VaultTable, scope: str, value: Any, regions: Iterable[str] | None = None) -> Any:
    """Every string in `value` masked with the scope's vault, in one write of the placeholders it adds (`regions`:
    the user's, for national phone numbers)."""
    found: list[str] = []
    _walk(value, lambda s: found.append(s) or s)
    if not found:
        return value
    masked = iter(vault.mask(scope, found, regions))
    return _walk(value, lambda _s: next(masked))


def mask_fields(vault: VaultTable, scope: str, data: Mapping[str, Any], fields: Iterable[str],
                regions: Iterable[str] | None = None) -> dict[str, Any]:
    """`data` with the named fields masked (the others as they are)."""
    names = [name for name in fields if data.get(name) is not None]
    out = dict(data)
    if names:
        masked = mask_personal(vault, scope, {name: data[name] for name in names}, regions)
        out.update(masked)
    return out
