"""What the recruiter's nodes and CLIs work with, one set per database: the store (with the demo data loaded on
first use), the guardrail log, the action limiter, the matcher's index and the paused-workflow lookup."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from pipelines.core.guardrails.action_limits import ActionLimiter
from pipelines.core.guardrails.log import GuardrailLog
from pipelines.core.settings import Settings
from pipelines.recruiter.demo import ensure_demo
from pipelines.recruiter.settings import RecruiterSettings, recruiter_settings
from pipelines.recruiter.store import RecruitingStore

_LOCK = threading.Lock()
_STORES: dict[str, RecruitingStore] = {}
_SERVICES: dict[tuple[Any, ...], RecruiterServices] = {}


def open_store(settings: Settings, *, demo: bool = True) -> RecruitingStore:
    """The process's store for the settings' database (one engine per URL), with the demo loaded on first use."""
    url = settings.effective_db_url
    with _LOCK:
        store = _STORES.get(url)
        if store is None:
            store = _STORES[url] = RecruitingStore(url)
        store.phone_regions = settings.phone_region_codes  # one server, one set of settings
        if demo:
            ensure_demo(store)
    return store


def forget_stores() -> None:
    """Dispose of the cached engines and services (tests that drop their database)."""
    with _LOCK:
        for store in _STORES.values():
            store.dispose()
        _STORES.clear()
        _SERVICES.clear()


def services_for(settings: Settings, checkpointer: Any = None,
                 graph_factory: Callable[[], Any] | None = None) -> RecruiterServices:
    """The recruiting services of a database, shared by the runs of a process (the matcher's index is built
    once, not once per message). `graph_factory` builds the router graph, for answering paused workflows; it is
    passed in because the graph's nodes use these services."""
    from pipelines.core.knowledge.store import open_knowledge

    policy = recruiter_settings(settings)
    key = (settings.effective_db_url, settings.data_dir, settings.chroma_url, id(checkpointer), policy)
    with _LOCK:
        services = _SERVICES.get(key)
    if services is None:
        services = RecruiterServices(settings, policy, checkpointer, knowledge_factory=lambda: open_knowledge(settings))
        with _LOCK:
            services = _SERVICES.setdefault(key, services)
    if graph_factory is not None and services.graph_factory is None:
        services.graph_factory = graph_factory
    return services


class RecruiterServices:
    """One database's recruiting services for a run; the matcher's index is rebuilt when candidates change."""

    def __init__(self, settings: Settings, policy: RecruiterSettings | None = None, checkpointer: Any = None,
                 knowledge_factory: Callable[[], Any] | None = None) -> None:
        self.settings = settings
        self.policy = policy or recruiter_settings(settings)
        self.store = open_store(settings)
        self.log = GuardrailLog(self.store.engine)
        self.limiter = ActionLimiter(
            self.store.engine,
            daily={"emails": self.policy.emails_per_day, "status_changes": self.policy.status_changes_per_day},
            batch_caps={"emails": self.policy.batch_cap, "status_changes": self.policy.batch_cap})
        self.checkpointer = checkpointer
        self._knowledge_factory = knowledge_factory
        self._index: Any = None
        self._index_version: tuple[int, str] | None = None
        self._index_lock = threading.Lock()
        self._graph: Any = None
        self.graph_factory: Callable[[], Any] | None = None

    def index(self) -> Any:
        """The matcher's CandidateIndex over every candidate in the store, current as of this call."""
        from pipelines.recruiter.matching import CandidateIndex

        version = self.store.candidates_version()
        with self._index_lock:
            if self._index is None or version != self._index_version:
                knowledge = self._knowledge_factory() if self._knowledge_factory else None
                self._index = CandidateIndex(self.store.candidates(), knowledge=knowledge)
                self._index_version = version
            return self._index

    # --- paused workflows: the workflows table says which thread; the checkpointer says whether it still waits ---
    def _compiled(self) -> Any:
        if self._graph is None:
            if self.graph_factory is None:
                raise RuntimeError("no router graph to answer a paused workflow with: pass graph_factory to services_for")
            self._graph = self.graph_factory().compile(checkpointer=self.checkpointer, name="recruiter")
        return self._graph

    def waiting_interrupt(self, thread_id: str) -> dict[str, Any] | None:
        """The interrupt value the thread waits on, or None (finished, rewound, deleted, or no checkpointer)."""
        pending = self.pending_interrupt(thread_id)
        return pending[1] if pending else None

    def pending_interrupt(self, thread_id: str) -> tuple[str, dict[str, Any]] | None:
        """(interrupt id, value) of what the thread waits on, or None."""
        if self.checkpointer is None or self.graph_factory is None or not thread_id:
            return None
        snapshot = _isolated(lambda: self._compiled().get_state({"configurable": {"thread_id": thread_id}},
                                                                subgraphs=True))
        for task in snapshot.tasks:
            for item in task.interrupts:
                return item.id, item.value if isinstance(item.value, dict) else {"question": item.value}
        return None

    def resume_paused(self, thread_id: str, interrupt_id: str, value: Any, context: Any) -> dict[str, Any]:
        """Answer a paused thread's interrupt and run it on with the caller's run-time context: its state after.
        The answer is addressed to the interrupt by its id: a plan's run pauses in nested agents several times
        within one task of the router, and a bare value could be taken for an earlier question's."""
        from langgraph.types import Command

        config = {"configurable": {"thread_id": thread_id}}
        graph = self._compiled()
        return _isolated(lambda: (graph.invoke(Command(resume={interrupt_id: value}), config, context=context),
                                  dict(graph.get_state(config).values))[1])


def _isolated(work: Callable[[], Any]) -> Any:
    """Run a graph call on a fresh thread: inside a node, LangGraph's context (the running graph's config and
    checkpoint namespace) would otherwise make the paused thread look like a subgraph of this one."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = exc

    thread = threading.Thread(target=target, name="recruiter-paused-workflow")
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]
