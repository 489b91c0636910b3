"""LangSmith tracing for one session: callbacks handed to each graph run, never process-wide env vars."""

from __future__ import annotations

from functools import lru_cache

from langchain_core.tracers import LangChainTracer
from langsmith import Client
from urllib3.util.retry import Retry

from pipelines.core.settings import Settings

# A step waits at most this long for its traces to leave, so an unreachable endpoint slows a run, never hangs it.
FLUSH_TIMEOUT_S = 5.0


@lru_cache(maxsize=8)
def _client(api_url: str | None, api_key: str) -> Client:
    # One client (and one background sender thread) per endpoint and key, shared by every session that uses
    # them; short timeouts and few retries because a trace is worth less than the run it describes.
    return Client(api_url=api_url, api_key=api_key, timeout_ms=(3_000, 10_000),
                  retry_config=Retry(total=1, backoff_factor=0.2, status_forcelist=[429, 500, 502, 503, 504],
                                     allowed_methods=None, raise_on_status=False, raise_on_redirect=False))


def tracing_callbacks(settings: Settings) -> list:
    """A LangSmith tracer for this session's runs when tracing is on and a key is set, else nothing."""
    if not (settings.langsmith_tracing and settings.langsmith_api_key):
        return []
    client = _client(settings.langsmith_endpoint or None, settings.langsmith_api_key)
    return [LangChainTracer(project_name=settings.langsmith_project, client=client)]


def flush_traces(callbacks: list, timeout_s: float = FLUSH_TIMEOUT_S) -> None:
    """Wait (bounded) until the tracers' runs are sent, so a CLI that exits right after a step loses none."""
    for callback in callbacks:
        if isinstance(callback, LangChainTracer):
            callback.client.flush(timeout=timeout_s)


def tracing_status(settings: Settings) -> str:
    """One line for the settings page: whether runs are traced, and where to."""
    if not settings.langsmith_tracing:
        return "off"
    if not settings.langsmith_api_key:
        return "on but no LANGSMITH_API_KEY: nothing is sent"
    where = f" at {settings.langsmith_endpoint}" if settings.langsmith_endpoint else ""
    return f"on: project {settings.langsmith_project}{where}"
