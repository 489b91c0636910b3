"""What a workflow adds to the dashboard, read from its registry entry: extra studio tabs, a start form, a lead view
above the studio, its own pages and its tabs of the Metrics page. Generic pages loop over these; none names one."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.core.registry import built_workflows
from pipelines.core.spec import PipelineSpec, WorkflowEntry
from pipelines.core.trace.run_metrics import RunFilter


@dataclass(frozen=True)
class WorkflowPage:
    """A page of a workflow's own (a queue, a results explorer), listed in its navigation section."""

    path: Path
    title: str
    icon: str
    url_path: str


@dataclass(frozen=True)
class MetricsTab:
    """A tab of the Metrics page: `render(engine, run_filter)` draws it when it is open."""

    title: str
    render: Callable[[Any, RunFilter], None]


@dataclass(frozen=True)
class WorkflowUI:
    """A workflow's dashboard hooks (all optional): see render_workflow_page for the studio ones."""

    extra_tabs: Mapping[str, Callable[[Any], None]] = field(default_factory=dict)
    start_form: Callable[[PipelineSpec], None] | None = None
    lead: Callable[[Any], None] | None = None
    lead_answers: Collection[str] = ()
    pages: tuple[WorkflowPage, ...] = ()
    section: str = ""  # the navigation section of its pages (default: the workflow's title)
    metrics_tabs: tuple[MetricsTab, ...] = ()


NO_UI = WorkflowUI()


def workflow_ui(entry: WorkflowEntry) -> WorkflowUI:
    """The `UI` of the module the entry names, or no hooks at all."""
    return importlib.import_module(entry.dashboard).UI if entry.dashboard else NO_UI


def registered_uis() -> list[tuple[WorkflowEntry, WorkflowUI]]:
    return [(entry, workflow_ui(entry)) for entry in built_workflows()]
