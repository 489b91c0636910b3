"""Step records, per-step state diffs and the field-evolution matrix (fields x steps)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ChangeKind = Literal["set", "changed", "appended", "removed"]
CellKind = Literal["set", "changed", "appended", "removed", "unchanged", "absent"]
# "substep": a node inside a subgraph ran and the subgraph paused; the parent's checkpoint has not moved yet.
StepStatus = Literal["completed", "substep", "interrupted", "failed"]

INPUT_NODE = "__input__"


def graph_node_name(node: str, namespace: str = "") -> str:
    """A task's node as the xray graph names it: inside a subgraph (a `|`-joined namespace), `parent:child`."""
    return f"{namespace.split('|')[0].split(':')[0]}:{node}" if namespace else node


@dataclass
class TaskRecord:
    """One executed task (one node run) inside a super-step."""

    task_id: str
    node: str
    started_at: float
    duration_ms: float
    status: Literal["completed", "interrupted", "failed"] = "completed"
    update: Any = None
    error: str | None = None
    namespace: str = ""
    model_calls: list[dict[str, Any]] = field(default_factory=list)

    @property
    def graph_node(self) -> str:
        return graph_node_name(self.node, self.namespace)

    @property
    def input_tokens(self) -> int:
        return sum(int(c.get("input_tokens") or 0) for c in self.model_calls)

    @property
    def output_tokens(self) -> int:
        return sum(int(c.get("output_tokens") or 0) for c in self.model_calls)


@dataclass
class StepRecord:
    """One super-step of a thread: the tasks it ran and what it changed in the state."""

    step_key: str
    thread_id: str
    step: int
    status: StepStatus
    started_at: float
    duration_ms: float
    parent_checkpoint_id: str | None
    checkpoint_id: str | None
    changes: dict[str, ChangeKind] = field(default_factory=dict)
    tasks: list[TaskRecord] = field(default_factory=list)
    error: str | None = None
    counters: dict[str, int] = field(default_factory=dict)  # the workflow's loop counters after this step

    @property
    def nodes(self) -> list[str]:
        """The nodes of the step, sorted (tasks keep their completion order)."""
        root = [t.node for t in self.tasks if not t.namespace]
        return sorted(set(root)) if root else sorted(self.graph_nodes)

    @property
    def graph_nodes(self) -> set[str]:
        """The nodes as the xray graph names them: a subgraph's node is `parent:child`."""
        return {t.graph_node for t in self.tasks}

    @property
    def label(self) -> str:
        names = ["input" if n == INPUT_NODE else n for n in self.nodes]
        return f"{self.step} " + "+".join(names or ["?"])

    @property
    def model_calls(self) -> int:
        return sum(len(t.model_calls) for t in self.tasks)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["nodes"] = self.nodes
        return data


def _is_empty(value: Any) -> bool:
    return value is None


def diff_values(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, ChangeKind]:
    """Classify each field that differs between two JSON states.

    A list that grew by keeping its old items as a prefix is `appended` (what a reducer such as
    operator.add does); None counts as absent, so None -> value is `set` and value -> None `removed`.
    """
    changes: dict[str, ChangeKind] = {}
    for key in list(before) + [k for k in after if k not in before]:
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if _is_empty(old):
            changes[key] = "set"
        elif _is_empty(new):
            changes[key] = "removed"
        elif isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[: len(old)] == old:
            changes[key] = "appended"
        else:
            changes[key] = "changed"
    return changes


@dataclass
class EvolutionMatrix:
    fields: list[str]
    steps: list[str]
    cells: list[list[CellKind]]  # cells[field_index][step_index]

    def cell(self, field_name: str, step_index: int) -> CellKind:
        return self.cells[self.fields.index(field_name)][step_index]

    def to_dict(self) -> dict[str, Any]:
        return {
            "fields": self.fields,
            "steps": self.steps,
            "cells": {f: row for f, row in zip(self.fields, self.cells)},
        }


def evolution_matrix(steps: Sequence[StepRecord], field_order: Iterable[str] = ()) -> EvolutionMatrix:
    """Fields x completed steps; each cell says what that step did to that field."""
    completed = [s for s in steps if s.status == "completed"]
    seen: list[str] = [f for f in field_order]
    for record in completed:
        seen.extend(f for f in record.changes if f not in seen)
    present: set[str] = set()
    columns: list[list[CellKind]] = []
    for record in completed:
        column: list[CellKind] = []
        for name in seen:
            kind = record.changes.get(name)
            if kind is None:
                column.append("unchanged" if name in present else "absent")
                continue
            column.append(kind)
            if kind == "removed":
                present.discard(name)
            else:
                present.add(name)
        columns.append(column)
    cells = [[columns[j][i] for j in range(len(columns))] for i in range(len(seen))]
    return EvolutionMatrix(fields=seen, steps=[s.label for s in completed], cells=cells)


def checkpoint_lineage(parents: Mapping[str, str | None], head: str | None) -> set[str | None]:
    """The checkpoints on the path back from `head`, each completed step's checkpoint to the one it started
    from (`parents`), the first step's starting point included."""
    lineage: set[str | None] = set()
    current = head
    while current in parents and current not in lineage:
        lineage.add(current)
        current = parents[current]
    lineage.add(current)
    return lineage


def branch_records(records: Sequence[StepRecord], head_checkpoint_id: str | None) -> list[StepRecord]:
    """The records of one branch: completed steps on the path back from the head (each step knows the
    checkpoint it started from), plus interrupted or failed attempts made from a checkpoint on that path."""
    lineage = checkpoint_lineage({r.checkpoint_id: r.parent_checkpoint_id for r in records
                                  if r.status == "completed" and r.checkpoint_id}, head_checkpoint_id)
    return [r for r in records if (r.checkpoint_id in lineage if r.status == "completed"
                                   else r.parent_checkpoint_id in lineage)]


@dataclass
class NodeUsage:
    """One node of a run: how often it ran, how long it took, and what it asked of the model."""

    node: str
    run: str = ""  # which run, when several are put side by side
    runs: int = 0
    total_ms: float = 0.0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    providers: set[str] = field(default_factory=set)

    @property
    def mean_ms(self) -> float:
        return self.total_ms / self.runs if self.runs else 0.0


def node_usage(records: Sequence[StepRecord], run: str = "") -> list[NodeUsage]:
    """Per node (as the xray graph names it, so a subgraph's node is `parent:child`), in order of first run;
    the input is not a node."""
    by_node: dict[str, NodeUsage] = {}
    for record in records:
        for task in record.tasks:
            if task.node == INPUT_NODE:
                continue
            usage = by_node.setdefault(task.graph_node, NodeUsage(task.graph_node, run))
            usage.runs += 1
            usage.total_ms += task.duration_ms
            usage.calls += len(task.model_calls)
            usage.input_tokens += task.input_tokens
            usage.output_tokens += task.output_tokens
            usage.providers.update(str(c.get("provider") or "?") for c in task.model_calls)
    return list(by_node.values())


def first_changed_by(steps: Sequence[StepRecord]) -> dict[str, str]:
    """For each field, the node of the first step after the input that changed it."""
    result: dict[str, str] = {}
    for record in steps:
        if record.status != "completed" or INPUT_NODE in record.nodes:
            continue
        for name in record.changes:
            result.setdefault(name, "+".join(record.nodes))
    return result
