"""The stores and compiled graphs that sessions share, and the factory that opens sessions on them."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from langgraph.graph.state import CompiledStateGraph

from pipelines.core.guardrails.personal_data import mask_fields
from pipelines.core.jsonable import to_jsonable
from pipelines.core.storage.checkpoints import CheckpointStore, CheckpointStoreError, open_checkpointer
from pipelines.core.models.gateway import ModelGateway
from pipelines.core.errors import InvalidInput, RunBusy
from pipelines.core.spec import PipelineSpec
from pipelines.core.storage.runstore import RunStore, ThreadInfo
from pipelines.core.runtime.async_steps import async_copy, has_async_nodes
from pipelines.core.runtime.session import Session
from pipelines.core.runtime.stepping import make_subgraphs_steppable
from pipelines.core.settings import Settings


class Studio:
    """One checkpointer and one run database, shared by every session of every workflow. Sessions see it
    through the StudioServices protocol (position.py)."""

    def __init__(self, checkpoints: CheckpointStore, runs: RunStore) -> None:
        self.checkpoints = checkpoints
        self.runs = runs
        self._compiled: dict[str, CompiledStateGraph] = {}
        self._async_compiled: dict[str, CompiledStateGraph | None] = {}
        self._has_subgraphs: dict[str, bool] = {}
        self._subgraph_entries: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> Studio:
        settings.data_path.mkdir(parents=True, exist_ok=True)
        wait = settings.storage_wait_s
        return cls(open_checkpointer(settings.effective_checkpoint_url, busy_timeout_s=wait),
                   RunStore(settings.effective_db_url, busy_timeout_s=wait))

    @classmethod
    def in_memory(cls, db_url: str = "sqlite://") -> Studio:
        return cls(open_checkpointer("memory"), RunStore(db_url))

    def compiled(self, spec: PipelineSpec) -> CompiledStateGraph:
        """Compile each workflow once; the graph is stateless, so all its sessions share it. A compiled
        subgraph added directly as a node is swapped for a copy a stepping Session can step into."""
        with self._lock:
            if spec.id not in self._compiled:
                graph = spec.build().compile(checkpointer=self.checkpoints.saver, name=spec.id)
                self._compiled[spec.id] = make_subgraphs_steppable(graph)
            return self._compiled[spec.id]

    def async_compiled(self, spec: PipelineSpec) -> CompiledStateGraph | None:
        """For a workflow with `async def` nodes, the compiled graph with a checkpointer `astream` can use;
        None for the others (streamed synchronously)."""
        compiled = self.compiled(spec)
        with self._lock:
            if spec.id not in self._async_compiled:
                self._async_compiled[spec.id] = async_copy(compiled) if has_async_nodes(compiled) else None
            return self._async_compiled[spec.id]

    def has_subgraphs(self, spec: PipelineSpec) -> bool:
        """Whether stepping must stream subgraph events (costly when there are none to stream)."""
        compiled = self.compiled(spec)
        if spec.id not in self._has_subgraphs:
            self._has_subgraphs[spec.id] = any(True for _ in compiled.get_subgraphs())
        return self._has_subgraphs[spec.id]

    def subgraph_entries(self, spec: PipelineSpec) -> set[str]:
        """The first node of each subgraph, as the xray graph names it (`parent:child`); drawn once, as
        Run to interrupt asks before every step."""
        if spec.id not in self._subgraph_entries:
            edges = self.compiled(spec).get_graph(xray=True).edges if self.has_subgraphs(spec) else []
            self._subgraph_entries[spec.id] = {e.target for e in edges if ":" in e.target and not
                                               e.source.startswith(e.target.split(":")[0] + ":")}
        return self._subgraph_entries[spec.id]

    def new_session(self, spec: PipelineSpec, raw_input: Mapping[str, Any], settings: Settings, *,
                    scenario: str | None = None, title: str | None = None, breakpoints: Iterable[str] = (),
                    gateway: ModelGateway | None = None, thread_id: str | None = None, strict: bool = False) -> Session:
        """Validate the input, create the thread and write the input as its first step. `strict` (a headless run):
        an input the workflow could only partly use (spec.input_issue) is refused before anything is stored."""
        thread_id = thread_id or uuid.uuid4().hex
        if spec.admit_input is not None:
            raw_input = spec.admit_input(raw_input, thread_id, settings)
        if spec.personal_fields:  # before the title, the row and the state keep any of it
            raw_input = mask_fields(self.runs.vault, thread_id, raw_input, spec.personal_fields,
                                    settings.phone_region_codes)
        initial = spec.make_input(raw_input, thread_id)  # raises InvalidInput before anything is stored
        if spec.personal_fields:  # what the input only named (a resume read from its file); the rest is masked
            fresh = [name for name in spec.personal_fields if initial.get(name) != raw_input.get(name)]
            initial = mask_fields(self.runs.vault, thread_id, initial, fresh, settings.phone_region_codes)
        if strict and spec.input_issue is not None and (issue := spec.input_issue(initial)):
            raise InvalidInput(f"invalid {spec.title} input: {issue}")
        if self.runs.get_thread(thread_id) is not None:
            raise InvalidInput(f"thread {thread_id} already exists")
        title = title or (spec.run_title(raw_input) if spec.run_title else None) or scenario or spec.title
        self.runs.create_thread(thread_id, spec.id, scenario, title[:120],
                                settings.provider_label, raw_input=to_jsonable(dict(raw_input)))
        session = Session(self, spec, thread_id, settings, breakpoints=breakpoints, gateway=gateway)
        try:
            session.start(initial)
        except CheckpointStoreError:  # the input could not be kept: leave no empty run behind
            self.runs.delete_thread(thread_id)
            raise
        return session

    def open_session(self, spec: PipelineSpec, thread_id: str, settings: Settings, *,
                     breakpoints: Iterable[str] = (), gateway: ModelGateway | None = None) -> Session:
        info = self.runs.get_thread(thread_id)
        if info is None:
            raise InvalidInput(f"no run with thread id {thread_id}")
        if info.pipeline != spec.id:
            raise InvalidInput(f"thread {thread_id} belongs to {info.pipeline}, not {spec.id}")
        return Session(self, spec, thread_id, settings, breakpoints=breakpoints, gateway=gateway)

    def delete_run(self, thread_id: str) -> ThreadInfo | None:
        """Delete a run: its checkpoints first, then its thread and step records (so a failure half-way
        leaves a listed run that can be deleted again, never checkpoints no run points to). Returns the
        thread that was deleted, or None if there was none."""
        info = self.runs.get_thread(thread_id)
        if info is not None and (holder := info.claimed_by(time.time())):
            raise RunBusy(f"the run cannot be deleted while it is being moved ({holder}): stop it or wait for it")
        self.checkpoints.delete_thread(thread_id)
        self.runs.delete_thread(thread_id)
        return info

    def close(self) -> None:
        self.checkpoints.close()
        self.runs.dispose()
