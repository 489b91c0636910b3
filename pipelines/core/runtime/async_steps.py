"""Stepping graphs with `async def` nodes through Session's sync API.

LangGraph's sync `stream` cannot call a node that only has an async function ("No synchronous function
provided"), so such graphs are driven with `astream` in an event loop of their own. The studio's checkpointers
(SQLite, Postgres) are sync savers whose async methods raise, so the async graph is a copy of the compiled one
whose checkpointer answers the async calls with the sync ones (quick local writes, like the sync path makes)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from typing import Any, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, ChannelVersions, Checkpoint, CheckpointMetadata, \
    CheckpointTuple
from langgraph.graph.state import CompiledStateGraph
from langgraph.pregel import Pregel

T = TypeVar("T")


def has_async_nodes(graph: Pregel) -> bool:
    """Whether a node of the graph or of a subgraph (at any depth) can only run async."""
    for node in graph.nodes.values():
        bound = node.bound
        if getattr(bound, "afunc", None) is not None and getattr(bound, "func", None) is None:
            return True
        if any(isinstance(sub, Pregel) and has_async_nodes(sub) for sub in node.subgraphs):
            return True
    return False


class SyncBackedSaver(BaseCheckpointSaver):
    """A checkpointer whose async methods call a sync saver's (which it delegates everything to)."""

    def __init__(self, inner: BaseCheckpointSaver) -> None:
        super().__init__(serde=inner.serde)
        self.inner = inner

    @property
    def config_specs(self) -> list:
        return self.inner.config_specs

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self.inner.get_tuple(config)

    def list(self, config: RunnableConfig | None, **kwargs: Any) -> Iterator[CheckpointTuple]:
        return self.inner.list(config, **kwargs)

    def put(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
            new_versions: ChannelVersions) -> RunnableConfig:
        return self.inner.put(config, checkpoint, metadata, new_versions)

    def put_writes(self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str,
                   task_path: str = "") -> None:
        self.inner.put_writes(config, writes, task_id, task_path)

    def delete_thread(self, thread_id: str) -> None:
        self.inner.delete_thread(thread_id)

    def get_next_version(self, current: Any, channel: Any) -> Any:
        return self.inner.get_next_version(current, channel)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self.inner.get_tuple(config)

    async def alist(self, config: RunnableConfig | None, **kwargs: Any) -> AsyncIterator[CheckpointTuple]:
        for item in self.inner.list(config, **kwargs):
            yield item

    async def aput(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
                   new_versions: ChannelVersions) -> RunnableConfig:
        return self.inner.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str,
                          task_path: str = "") -> None:
        self.inner.put_writes(config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        self.inner.delete_thread(thread_id)


def async_copy(graph: CompiledStateGraph) -> CompiledStateGraph:
    """The same compiled graph (same nodes, same checkpoints) with a checkpointer astream can use."""
    saver = graph.checkpointer
    if isinstance(saver, BaseCheckpointSaver) and not isinstance(saver, SyncBackedSaver):
        saver = SyncBackedSaver(saver)
    return graph.copy({"checkpointer": saver})


def run_coroutine(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end from sync code: in a new event loop, or in a worker thread when this thread
    already runs one (a sync call made from async code)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
