"""The Flink pages' bridge to the exception store, the knowledge base and the batch runner of this process."""

from __future__ import annotations

import streamlit as st

from dashboard import services
from pipelines.core.settings import Settings
from pipelines.flink_diagnosis.knowledge import FlinkKnowledge
from pipelines.flink_diagnosis.services import open_flink_knowledge, open_store
from pipelines.flink_diagnosis.store import ExceptionStore


def flink_store(settings: Settings | None = None) -> ExceptionStore:
    return open_store(settings or services.current_settings())


def flink_knowledge(settings: Settings | None = None) -> FlinkKnowledge:
    return open_flink_knowledge(settings or services.current_settings())


@st.cache_resource(show_spinner=False)
def batch_runner():
    """The process's one batch runner, shared by every browser tab."""
    from dashboard.workflows.flink_diagnosis.batch import BatchRunner

    return BatchRunner()
