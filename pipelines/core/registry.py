"""PipelineSpec (how the runtime and the dashboard see one workflow) and the registry of the five workflows."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph
from pydantic import BaseModel

from pipelines.core.models import ModelGateway
from pipelines.core.settings import Settings

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"


class InvalidInput(ValueError):
    """A run input or a resume value does not match its schema; the message lists what is wrong."""


class StaleAnswer(InvalidInput):
    """An answer to a question the run no longer asks: another tab (or a worker) answered it first."""


@dataclass
class RuntimeDeps:
    """What a workflow's nodes may need at run time; each workflow builds its own Context from it."""

    settings: Settings
    gateway: ModelGateway


@dataclass(frozen=True)
class Counter:
    """A state field that counts loops or retries, with its limit (fixed or read from another field)."""

    field: str
    label: str
    limit: int | None = None
    limit_field: str | None = None
    loop_edge: tuple[str, str] | None = None

    def value(self, state: Mapping[str, Any]) -> int:
        """The count, or 0 when the state holds no whole number there (`problem` says what it holds)."""
        value = state.get(self.field) or 0
        return int(value) if _countable(value) else 0

    def limit_for(self, state: Mapping[str, Any]) -> int | None:
        limit = state.get(self.limit_field) if self.limit_field else None
        return int(limit) if limit is not None and _countable(limit) and limit >= 1 else self.limit

    def problem(self, state: Mapping[str, Any]) -> str | None:
        """Why the state's value cannot be shown against the limit (an edit or an old run put it there)."""
        raw, limit = state.get(self.field) or 0, self.limit_for(state)
        if not _countable(raw) or raw < 0:
            return f"`{self.field}` holds {json.dumps(raw, default=str)[:40]}, not a count from 0"
        if limit is not None and raw > limit:
            return f"`{self.field}` is {int(raw)}, over its limit of {limit}"
        return None


def _countable(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and \
        abs(value) != float("inf")


@dataclass(frozen=True)
class InterruptSpec:
    """One kind of `interrupt()` in a workflow: what it asks and the schema its answer must match."""

    kind: str
    title: str
    schema: type[BaseModel]
    help: str = ""


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    description: str
    input: dict[str, Any]
    answers: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class PipelineSpec:
    id: str
    title: str
    seed: str
    summary: str
    build: Callable[[], StateGraph]
    make_context: Callable[[RuntimeDeps], Any]
    make_input: Callable[[Mapping[str, Any], str], dict[str, Any]]
    report: Callable[[Mapping[str, Any]], str]
    counters: tuple[Counter, ...] = ()
    interrupts: tuple[InterruptSpec, ...] = ()
    field_order: tuple[str, ...] = ()
    # Rules a state edit must meet beyond the field's type: field → a type pydantic validates (the run input's
    # own bounds, through state_edit.input_field_rules), so a fork accepts no value the start form refuses.
    field_rules: Mapping[str, Any] = field(default_factory=dict)
    done_message: str = "The run is complete: the Report tab has its result."
    # The workflow's domain report as a PDF, from the run's state (None when it has none).
    pdf: Callable[[Mapping[str, Any]], bytes] | None = None
    # What a run is about, from its raw input (the client's first words, the exception): its default title.
    run_title: Callable[[Mapping[str, Any]], str | None] | None = None

    @property
    def scenarios_dir(self) -> Path:
        return ASSETS_DIR / "scenarios" / self.id

    def scenarios(self) -> list[Scenario]:
        return load_scenarios(self.scenarios_dir)

    def scenario(self, name: str) -> Scenario:
        for scenario in self.scenarios():
            if scenario.name == name:
                return scenario
        known = ", ".join(s.name for s in self.scenarios()) or "none"
        raise InvalidInput(f"pipeline {self.id} has no scenario {name!r} (known: {known})")

    def interrupt(self, kind: str) -> InterruptSpec:
        for spec in self.interrupts:
            if spec.kind == kind:
                return spec
        raise KeyError(f"{self.id} declares no interrupt of kind {kind!r}")


@cache
def load_scenarios(directory: Path) -> list[Scenario]:
    """Scenario files of a workflow, in their `order` (then by name)."""
    loaded = []
    for path in directory.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        loaded.append((data.get("order", 999), path.stem, Scenario(
            name=path.stem, title=data.get("title", path.stem), description=data.get("description", ""),
            input=data["input"], answers=list(data.get("answers", [])))))
    return [scenario for _, _, scenario in sorted(loaded, key=lambda item: item[:2])]


@dataclass(frozen=True)
class WorkflowEntry:
    """A workflow of the catalog; `module` is None until it is built."""

    id: str
    title: str
    seed: str
    summary: str
    audience: str
    module: str | None


CATALOG: tuple[WorkflowEntry, ...] = (
    WorkflowEntry("career_navigator", "CareerNavigator", "000_915e42f8fc08fb81.txt",
                  "Coordinator, planner and supervisor send three analysts in parallel; a reporter integrates "
                  "their work and loops on the client's feedback before goals and a schedule are set.",
                  "Career counselors", "pipelines.career_navigator"),
    WorkflowEntry("flink_diagnosis", "Flink job diagnosis", "001_a5c4e987a87d8a7b.txt",
                  "Collect a failed job's exception, retrieve similar cases and docs, diagnose with retries, "
                  "store the diagnosis and grow the knowledge base.", "Flink engineers", "pipelines.flink_diagnosis"),
    WorkflowEntry("recruiter", "Open Recruiter", "002_8d2978cb7e8db8c5.txt",
                  "A router, a guarded chat graph and a planner/supervisor with six specialist agents, with a "
                  "human in the loop.", "Recruiters", None),
    WorkflowEntry("ican", "iCan career guidance", "003_2c02f34152f75626.txt",
                  "A guided chat in a nested guide subgraph, resume parsing, RIASEC profile, career matching "
                  "and a PDF report.", "Career counselors", "pipelines.ican"),
    WorkflowEntry("deep_research", "Deep research", "004_1c30d6b8d21f696c.txt",
                  "Plan, investigate, observe and delegate, with a memory stack, to write a research report.",
                  "Presenters and analysts", None),
)


def get_spec(pipeline_id: str) -> PipelineSpec:
    for entry in CATALOG:
        if entry.id == pipeline_id:
            if entry.module is None:
                raise InvalidInput(f"pipeline {pipeline_id} is not built yet")
            return importlib.import_module(entry.module).SPEC
    known = ", ".join(e.id for e in CATALOG)
    raise InvalidInput(f"unknown pipeline {pipeline_id!r} (known: {known})")


def available_specs() -> list[PipelineSpec]:
    return [get_spec(entry.id) for entry in CATALOG if entry.module]
