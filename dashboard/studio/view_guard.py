"""Views that survive an unexpected state value: the one view says what it cannot show, the page goes on."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

from dashboard import services
from pipelines.core.markup import escape_markdown

log = logging.getLogger(__name__)


@contextmanager
def guarded(view: str) -> Iterator[None]:
    """Run one view's drawing; if a value in the run's state breaks it (a fork, an old run, a model's odd
    output), show a warning in its place instead of a traceback over the whole page. Streamlit's own control
    flow (rerun, stop, switch_page) and an unreachable store (the page says that once) pass through."""
    try:
        yield
    except (ScriptControlException, *services.storage_errors()):
        raise
    except Exception as exc:  # noqa: BLE001 — any failure of one view must leave the others drawn
        # The type only: the message may quote the run's state, which stays out of logs.
        log.warning("view %s failed on this run's state: %s", view, type(exc).__name__)
        st.warning(f":material/report: **{view}** cannot show this run's state: "
                   f"{escape_markdown(f'{type(exc).__name__}: {exc}'[:500])}. The rest of the page still works; "
                   "a fork from an earlier checkpoint can put a valid value back.")
