"""Per-node metrics, integrity checks and error entries for CareerNavigator (seed §4 and §5)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langgraph.runtime import Runtime

from pipelines.core.clock import now_iso
from pipelines.career_navigator.market import MarketDataError
from pipelines.career_navigator.state import CareerContext, ErrorEntry
from pipelines.core.models.failures import ModelFailure, answer_or

NodeFn = Callable[[dict[str, Any], Runtime[CareerContext]], dict[str, Any]]



def error_entry(state: Mapping[str, Any], node: str, message: str) -> ErrorEntry:
    return ErrorEntry(error=message, timestamp=now_iso(), session_id=str(state.get("session_id", "")),
                      stage=str(state.get("current_stage", "")), node=node)


def missing_fields(state: Mapping[str, Any], fields: Sequence[str]) -> list[str]:
    return [f for f in fields if state.get(f) in (None, "", [], {})]


def integrity_errors(state: Mapping[str, Any], node: str, stage: str, fields: Sequence[str]) -> list[ErrorEntry]:
    """Seed §4.1: the entry for a stage that lacks what it needs (empty when all is there)."""
    missing = missing_fields(state, fields)
    if not missing:
        return []
    return [error_entry(state, node, f"integrity check failed at {stage}: missing {', '.join(missing)}")]


def tracked(agent: str) -> Callable[[NodeFn], NodeFn]:
    """Time the node, count its success or failure, and turn a failed model or market call into an
    error_log entry instead of a crash, so the routes and the reporter can decide what to do."""

    def decorate(fn: NodeFn) -> NodeFn:
        @functools.wraps(fn)
        def node(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
            t0 = time.perf_counter()
            failures: list[ModelFailure] = []

            def logged(failure: ModelFailure) -> dict[str, Any]:
                failures.append(failure)
                update = {"error_log": [error_entry(state, agent, str(failure.error))]}
                if isinstance(failure.error, MarketDataError):
                    update["system_metrics"] = {"market_calls": {"ok": 0, "failed": 1}}
                return update

            update = answer_or(lambda: fn(state, runtime), logged, also=(MarketDataError,))
            failed = bool(failures)
            errors = len(update.get("error_log", []))
            metrics = {"response_time": {agent: round(time.perf_counter() - t0, 4)},
                       "agent_runs": {agent: {"ok": 0 if failed else 1, "failed": 1 if failed else 0}},
                       "error_count": errors, "last_updated": now_iso()}
            extra = update.get("system_metrics", {})
            update["system_metrics"] = {**metrics, **{k: v for k, v in extra.items() if k not in metrics}}
            return update

        return node

    return decorate
