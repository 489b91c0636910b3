"""The registry: one entry per workflow, the only place a workflow is named; everything generic loops over it."""

from __future__ import annotations

import dataclasses
import importlib

from pipelines.core.errors import InvalidInput
from pipelines.core.spec import PipelineSpec, WorkflowEntry

_ENTRIES: list[WorkflowEntry] = [
    WorkflowEntry("career_navigator", "CareerNavigator", "000_915e42f8fc08fb81.txt", "Career counselors",
                  "Coordinator, planner and supervisor send three analysts in parallel; a reporter integrates their "
                  "work and loops on the client's feedback before goals and an 8-to-12-week schedule are set.",
                  "pipelines.career_navigator", "dashboard.workflows.career_navigator.ui", ":material/explore:"),
    WorkflowEntry("flink_diagnosis", "Flink job diagnosis", "001_a5c4e987a87d8a7b.txt", "Flink engineers",
                  "Collect a failed job's exception from the queue, retrieve similar cases and docs, diagnose with "
                  "retries, store the diagnosis and grow the knowledge base from confident ones.",
                  "pipelines.flink_diagnosis", "dashboard.workflows.flink_diagnosis.ui", ":material/local_fire_department:"),
    WorkflowEntry("recruiter", "Open Recruiter", "002_8d2978cb7e8db8c5.txt", "Recruiters",
                  "A router, a guarded chat graph and a planner/supervisor with six specialist agents, with a "
                  "human in the loop.", "pipelines.recruiter", "dashboard.workflows.recruiter.ui", ":material/work:"),
    WorkflowEntry("ican", "iCan career guidance", "003_2c02f34152f75626.txt", "Career counselors",
                  "A guide subgraph chats with the client until it knows enough (or three messages are in); then the "
                  "resume parser, the RIASEC profile analyzer, the O*NET career matcher and the reporter run.",
                  "pipelines.ican", "dashboard.workflows.ican.ui", ":material/psychology:"),
    WorkflowEntry("deep_research", "Deep research", "004_1c30d6b8d21f696c.txt", "Presenters and analysts",
                  "Plan, review, delegate and report with checked citations, over your own documents: a central agent "
                  "with a memory stack sends a researcher, a coder and an analyst through the plan.",
                  "pipelines.deep_research", "dashboard.workflows.deep_research.ui", ":material/travel_explore:"),
]
_SPECS: dict[str, PipelineSpec] = {}


def workflows() -> tuple[WorkflowEntry, ...]:
    """Every registered workflow, built or coming, in the order the pages list them."""
    return tuple(_ENTRIES)


def built_workflows() -> tuple[WorkflowEntry, ...]:
    return tuple(entry for entry in _ENTRIES if entry.built)


def register(entry: WorkflowEntry) -> None:
    """Add a workflow (or replace the one with its id): what the list above does for the shipped ones, for a
    workflow that lives outside this repository."""
    _SPECS.pop(entry.id, None)
    for index, known in enumerate(_ENTRIES):
        if known.id == entry.id:
            _ENTRIES[index] = entry
            return
    _ENTRIES.append(entry)


def unregister(workflow_id: str) -> None:
    _SPECS.pop(workflow_id, None)
    _ENTRIES[:] = [entry for entry in _ENTRIES if entry.id != workflow_id]


def workflow_entry(workflow_id: str) -> WorkflowEntry:
    for entry in _ENTRIES:
        if entry.id == workflow_id:
            return entry
    known = ", ".join(e.id for e in _ENTRIES)
    raise InvalidInput(f"unknown pipeline {workflow_id!r} (known: {known})")


def get_spec(workflow_id: str) -> PipelineSpec:
    """The workflow's spec, bound to its registry entry (title, seed, summary come from there)."""
    entry = workflow_entry(workflow_id)
    if entry.package is None:
        raise InvalidInput(f"pipeline {workflow_id} is not built yet")
    spec = _SPECS.get(workflow_id)
    if spec is None or spec.entry is not entry:
        spec = dataclasses.replace(importlib.import_module(entry.package).SPEC, entry=entry)
        _SPECS[workflow_id] = spec
    return spec


def available_specs() -> list[PipelineSpec]:
    return [get_spec(entry.id) for entry in built_workflows()]


def storage_errors() -> tuple[type[Exception], ...]:
    """The errors of every workflow's own stores (the core's are the caller's to add)."""
    return tuple(error for spec in available_specs() if spec.storage_errors for error in spec.storage_errors())
