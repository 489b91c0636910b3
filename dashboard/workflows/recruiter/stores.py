"""The recruiting data page's bridge to the recruiting store and guardrail log of this process."""

from __future__ import annotations

import threading

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from dashboard import services
from pipelines.core.guardrails.log import GuardrailLog
from pipelines.core.settings import Settings, load_settings
from pipelines.core.storage.sqlerrors import first_line, redact_url
from pipelines.recruiter.demo import ensure_demo
from pipelines.recruiter.services import open_store
from pipelines.recruiter.store import RecruitingStore

_DEMO_LOCK = threading.Lock()


class RecruitingDatabaseError(RuntimeError):
    """The recruiting database failed, said in one line that names it without its password."""


@st.cache_resource(show_spinner=False)
def _store(data_dir: str, db_url: str) -> RecruitingStore:
    # Keyed by the database only: every rerun and browser tab shares one engine. A failed open is not cached,
    # so a database that comes back is found on the next rerun.
    return open_store(load_settings(data_dir=data_dir, db_url=db_url), demo=False)


def recruiting_store(settings: Settings | None = None) -> RecruitingStore:
    settings = settings or services.current_settings()
    return _store(settings.data_dir, settings.effective_db_url)


def load_demo(store: RecruitingStore) -> str | None:
    """Load the shipped demo into a database that never had it; why it could not, if it could not. Tried on each
    rerun until it loads (a flag lookup after that), so demo files that arrive later still get in."""
    try:
        with _DEMO_LOCK:
            ensure_demo(store)
    except (OSError, ValueError, KeyError) as exc:  # missing or half-written assets: the page shows what is stored
        return f"The shipped demo data could not be loaded ({exc})."
    return None


def guardrail_log(store: RecruitingStore) -> GuardrailLog:
    return GuardrailLog(store.engine)


def storage_error(exc: Exception, settings: Settings | None = None) -> Exception:
    """A driver's error (several lines, the SQL, a link) as one line naming the database; others as they are."""
    if not isinstance(exc, SQLAlchemyError):
        return exc
    url = (settings or services.current_settings()).effective_db_url
    return RecruitingDatabaseError(f"the recruiting database at {redact_url(url)} failed: {first_line(exc)}")
