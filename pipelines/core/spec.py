"""PipelineSpec: how the runtime, the CLI and the dashboard see one workflow, with its optional hooks."""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from langgraph.graph import StateGraph
from pydantic import BaseModel

from pipelines.core.errors import InvalidInput
from pipelines.core.models.gateway import ModelGateway
from pipelines.core.paths import ASSETS_DIR
from pipelines.core.settings import Settings, workflow_settings


def lazy(module: str, name: str) -> Callable[..., Any]:
    """A function that imports `module.name` on its first call: a spec names its graph and its reports without
    loading them, so importing a workflow's chart helper or its spec does not load the whole graph."""
    target: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not target:
            target.append(getattr(importlib.import_module(module), name))
        return target[0](*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__module__ = module
    return call


@dataclass
class RuntimeDeps:
    """What a workflow's nodes may need at run time; each workflow builds its own Context from it."""

    settings: Settings
    gateway: ModelGateway
    # the studio's checkpointer, for a workflow that looks up or resumes its other threads (paused workflows)
    checkpointer: Any = None


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
class WorkflowEntry:
    """A workflow as the registry lists it: the single source of its id, title, seed, audience and summary.
    `package` is None until it is built; `dashboard` names the module of its own pages and tabs, if any."""

    id: str
    title: str
    seed: str
    audience: str
    summary: str
    package: str | None
    dashboard: str | None = None
    icon: str = ":material/account_tree:"

    @property
    def built(self) -> bool:
        return self.package is not None


@dataclass(frozen=True)
class PipelineSpec:
    """A workflow's runtime contract. Its title, seed and summary come from its registry entry (`entry`, bound
    by the registry); the optional hooks at the end are what generic code loops over."""

    id: str
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
    # Hooks. Its own settings: a pydantic model whose fields name their environment variable
    # (json_schema_extra={"env": ...}); the Settings page and `python -m pipelines run --set` use it.
    settings_model: type[BaseModel] | None = None
    # Adds its own `python -m pipelines <id-ish> …` subcommands to the CLI's subparsers.
    cli: Callable[[argparse._SubParsersAction], None] | None = None
    # Errors of its own stores that its pages and the CLI turn into a clear "cannot reach storage" message.
    storage_errors: Callable[[], tuple[type[Exception], ...]] | None = None
    # Takes the raw input before anything keeps it (the run's row, its title, its state) and returns what may
    # be kept: a workflow that masks personal data in outside text, with a vault of its own, does it here.
    admit_input: Callable[[Mapping[str, Any], str, Settings], Mapping[str, Any]] | None = None
    # Why the initial state cannot be used as the user gave it (a resume file that could not be read), or None: a
    # page goes on and shows the note the state keeps; a headless run (`Studio.new_session(strict=True)`) stops.
    input_issue: Callable[[Mapping[str, Any]], str | None] | None = None
    # The state fields (and input keys) that hold people's own words: their personal identifiers are masked with
    # the run's vault on the way in, in the input, the first state, every answer and every fork's edit of them
    # (guardrails/personal_data.py). With none, the workflow takes no personal text.
    personal_fields: tuple[str, ...] = ()
    entry: WorkflowEntry | None = None

    @property
    def title(self) -> str:
        return self.entry.title if self.entry else self.id

    @property
    def seed(self) -> str:
        return self.entry.seed if self.entry else ""

    @property
    def summary(self) -> str:
        return self.entry.summary if self.entry else ""

    def settings(self, settings: Settings) -> BaseModel | None:
        """This workflow's own settings, resolved from `settings` (SettingsError when a value is refused)."""
        return workflow_settings(self.id, self.settings_model, settings) if self.settings_model else None

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
