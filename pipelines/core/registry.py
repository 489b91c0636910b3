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
        return int(state.get(self.field) or 0)

    def limit_for(self, state: Mapping[str, Any]) -> int | None:
        if self.limit_field and state.get(self.limit_field) is not None:
            return int(state[self.limit_field])
        return self.limit


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
    done_message: str = "The run is complete: the Report tab has its result."
    # The workflow's domain report as a PDF, from the run's state (None when it has none).
    pdf: Callable[[Mapping[str, Any]], bytes] | None = None

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
