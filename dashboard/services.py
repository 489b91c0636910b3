"""The dashboard's only bridge to the pipelines runtime: cached stores, settings, sessions."""

from __future__ import annotations

import streamlit as st

from dashboard.state_keys import SETTINGS_OVERRIDES
from dashboard.studio.flash import as_sentence
from pipelines.core.knowledge.store import KnowledgeStoreError
from pipelines.core.markup import escape_markdown
from pipelines.core.registry import storage_errors as workflow_storage_errors
from pipelines.core.runtime.session import Session
from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import Settings, load_settings
from pipelines.core.spec import PipelineSpec
from pipelines.core.storage.checkpoints import CheckpointStoreError, StorageBusy, checkpoint_errors
from pipelines.core.storage.runstore import RunStoreError
from pipelines.core.storage.sqlerrors import first_line


def current_settings() -> Settings:
    """File and environment settings, with this browser session's choices from the settings page on top.
    Keys come only from the environment or .streamlit/secrets.toml, never from the page."""
    return load_settings(**st.session_state.get(SETTINGS_OVERRIDES, {}))


@st.cache_resource(show_spinner=False)
def _studio(data_dir: str, checkpoint_url: str, db_url: str) -> Studio:
    # Keyed by the storage settings only: every tab and rerun shares one checkpointer and one run database.
    settings = load_settings(data_dir=data_dir, checkpoint_url=checkpoint_url, db_url=db_url)
    return Studio.from_settings(settings)


def studio(settings: Settings | None = None) -> Studio:
    settings = settings or current_settings()
    return _studio(settings.data_dir, settings.effective_checkpoint_url, settings.effective_db_url)


def storage_errors() -> tuple[type[BaseException], ...]:
    """What a page catches to say a store is unreachable: the runtime's stores' errors, their drivers' (a
    checkpoint read that failed) and every workflow's."""
    return (RunStoreError, CheckpointStoreError, KnowledgeStoreError, *checkpoint_errors(), *workflow_storage_errors())


def storage_failure(exc: BaseException) -> None:
    """Say which store is unreachable, or busy, and stop the page; nothing half-done is written."""
    if isinstance(exc, StorageBusy):
        st.warning(escape_markdown(as_sentence(exc)), icon=":material/lock_clock:")
        st.caption("Runs already stored are not lost. Reload the page once the other program has let go of the file.")
        st.stop()
    reason = exc if isinstance(exc, (RunStoreError, CheckpointStoreError, KnowledgeStoreError)) else \
        f"{type(exc).__name__}: {first_line(exc)}"
    st.error(escape_markdown(f"Stepwise cannot reach its storage: {reason}"))
    st.caption("Check the data directory, or the database and Chroma URLs on the Settings page "
               "(STEPWISE_CHECKPOINT_URL, STEPWISE_DB_URL, STEPWISE_CHROMA_URL). Runs already stored are not lost.")
    st.stop()


def open_session(spec: PipelineSpec, thread_id: str, breakpoints: list[str] | None = None) -> Session:
    settings = current_settings()
    return studio(settings).open_session(spec, thread_id, settings, breakpoints=breakpoints or ())


@st.cache_resource(show_spinner=False)
def background_runs():
    """The process's background runs of workflow threads, shared by every browser tab."""
    from pipelines.core.runtime.background import BackgroundRuns

    return BackgroundRuns()


def worker_session_opener(spec: PipelineSpec, thread_id: str, breakpoints: list[str]):
    """What a background worker calls to open its own Session: settings are read here, in the page's
    thread, because the worker must not touch st.session_state."""
    settings = current_settings()
    shared = studio(settings)
    return lambda: shared.open_session(spec, thread_id, settings, breakpoints=breakpoints)
