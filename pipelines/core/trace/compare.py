"""Compare two threads: the final-state diff per field, counters side by side, per-node timings and model usage."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pipelines.core.jsonable import state_to_jsonable
from pipelines.core.storage.runstore import ThreadInfo
from pipelines.core.text import clip
from pipelines.core.trace.records import NodeUsage, StepRecord, node_usage

if TYPE_CHECKING:
    from pipelines.core.runtime.session import Session

FieldKind = Literal["only_a", "only_b", "same", "different"]
FIELD_KIND_LABELS: dict[str, str] = {"only_a": "only in A", "only_b": "only in B", "same": "same",
                                     "different": "different"}
PREVIEW_CHARS = 120


@dataclass
class RunSide:
    """What a comparison needs of one thread: its record, final values, counters and step records."""

    thread: ThreadInfo
    workflow: str  # the workflow's title
    values: dict[str, Any]  # final state, as JSON values
    counters: dict[str, dict[str, Any]]  # field -> {label, value, limit}
    records: list[StepRecord]
    field_order: tuple[str, ...] = ()

    @classmethod
    def from_session(cls, session: Session) -> RunSide:
        return cls(thread=session.thread, workflow=session.spec.title, values=state_to_jsonable(session.values()),
                   counters=session.counters(), records=session.records(), field_order=session.spec.field_order)


@dataclass
class FieldDiff:
    field: str
    kind: FieldKind
    a: str | None  # a short preview of A's value (None when A has no such field)
    b: str | None


@dataclass
class CounterRow:
    field: str
    label: str
    a_value: int | None  # None when A's workflow has no such counter
    a_limit: int | None
    b_value: int | None
    b_limit: int | None


@dataclass
class RunComparison:
    a: RunSide
    b: RunSide
    fields: list[FieldDiff]
    counters: list[CounterRow]
    nodes: list[NodeUsage]

    def count(self, kind: FieldKind) -> int:
        return sum(1 for f in self.fields if f.kind == kind)

    @property
    def same_workflow(self) -> bool:
        return self.a.thread.pipeline == self.b.thread.pipeline


def preview(value: Any, limit: int = PREVIEW_CHARS) -> str:
    """A value on one line, cut to `limit` characters (strings as they are, anything else as JSON)."""
    return clip(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str), limit)


def _ordered(*groups: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for group in groups:
        seen.update((name, None) for name in group if name not in seen)
    return list(seen)


def diff_states(a: Mapping[str, Any], b: Mapping[str, Any], order: Iterable[str] = ()) -> list[FieldDiff]:
    """Each field of either JSON state: only in A, only in B, the same, or different (order first, then the
    rest in A's and B's own order)."""
    diffs = []
    for name in _ordered(order, a, b):
        if name not in a and name not in b:
            continue
        if name not in b:
            diffs.append(FieldDiff(name, "only_a", preview(a[name]), None))
        elif name not in a:
            diffs.append(FieldDiff(name, "only_b", None, preview(b[name])))
        else:
            kind: FieldKind = "same" if a[name] == b[name] else "different"
            diffs.append(FieldDiff(name, kind, preview(a[name]), preview(b[name])))
    return diffs


def compare_counters(a: Mapping[str, Mapping[str, Any]], b: Mapping[str, Mapping[str, Any]]) -> list[CounterRow]:
    rows = []
    for name in _ordered(a, b):
        left, right = a.get(name) or {}, b.get(name) or {}
        rows.append(CounterRow(name, str(left.get("label") or right.get("label") or name),
                               left.get("value"), left.get("limit"), right.get("value"), right.get("limit")))
    return rows


def compare_runs(a: RunSide, b: RunSide) -> RunComparison:
    return RunComparison(a=a, b=b, fields=diff_states(a.values, b.values, _ordered(a.field_order, b.field_order)),
                         counters=compare_counters(a.counters, b.counters),
                         nodes=node_usage(a.records, "A") + node_usage(b.records, "B"))


def compare_sessions(a: Session, b: Session) -> RunComparison:
    return compare_runs(RunSide.from_session(a), RunSide.from_session(b))
