"""PDF downloads of a run — the run trace and the workflow's own report — built only when their button is clicked."""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from dashboard import services
from pipelines.core.markup import escape_markdown
from pipelines.core.errors import InvalidInput
from pipelines.core.runtime.session import Session
from pipelines.core.pdf.trace_report import build_trace_pdf

log = logging.getLogger(__name__)
BUILD_TIMEOUT_S = 300.0


@dataclass
class PdfBuild:
    """The last build of one download button. The click's rerun builds it (on_click, before the page is drawn,
    so a failure can be shown there); Streamlit's download thread, asked for the file by the same click, waits
    for that build instead of building a second time."""

    started: int = 0
    finished: int = 0
    data: bytes | None = None
    error: str | None = None
    error_shown: bool = True
    _done: threading.Condition = field(default_factory=threading.Condition, repr=False)

    def run(self, make: Callable[[], bytes]) -> None:
        with self._done:
            self.started += 1
            number = self.started
        try:
            data, error = make(), None
        except Exception as exc:  # noqa: BLE001 - any failure becomes a one-line message on the page
            log.exception("building a PDF failed")
            data, error = None, failure_reason(exc)
        with self._done:
            self.finished, self.data, self.error, self.error_shown = number, data, error, error is None
            self._done.notify_all()

    def wait(self, after: int) -> bytes:
        """The bytes of the first build started after `after` builds (the one the click started)."""
        with self._done:
            if not self._done.wait_for(lambda: self.finished > after, timeout=BUILD_TIMEOUT_S):
                raise TimeoutError("the PDF was not built in time")
            if self.error or self.data is None:
                raise RuntimeError(self.error or "the PDF could not be built")
            return self.data


def failure_reason(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, (*services.storage_errors(), InvalidInput)) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _builds(key_prefix: str, thread_id: str) -> dict[str, PdfBuild]:
    """This page's builds, for the run it shows (another run starts afresh)."""
    state_key = f"{key_prefix}-pdf-builds"
    stored = st.session_state.get(state_key)
    if not stored or stored[0] != thread_id:
        stored = (thread_id, {})
        st.session_state[state_key] = stored
    return stored[1]


def render_report_downloads(session: Session, key_prefix: str) -> None:
    """A row of download buttons: the run-trace PDF, and the workflow's report PDF when it has one."""
    spec, thread8 = session.spec, session.thread_id[:8]
    downloads = [("trace", "Run-trace PDF", functools.partial(build_trace_pdf, session), f"{spec.id}-{thread8}-trace.pdf",
                  "Every step of this run: step table, field evolution, counters, metrics and the report")]
    if spec.pdf is not None:
        downloads.append(("report", "Report PDF", lambda: spec.pdf(session.values()), f"{spec.id}-{thread8}-report.pdf",
                          f"The {spec.title} report from the state this run has reached"))
    builds = _builds(key_prefix, session.thread_id)
    with st.container(horizontal=True, key=f"{key_prefix}-pdf-downloads"):
        for name, label, make, file_name, help_text in downloads:
            build = builds.setdefault(name, PdfBuild())
            st.download_button(label, data=functools.partial(build.wait, build.started), file_name=file_name,
                               mime="application/pdf", key=f"{key_prefix}-{name}-pdf", on_click=build.run,
                               args=(make,), icon=":material/picture_as_pdf:", help=help_text)
    for name, label, *_ in downloads:
        build = builds[name]
        if build.error and not build.error_shown:
            st.error(escape_markdown(f"The {label} could not be built: {build.error}"), icon=":material/error:")
            build.error_shown = True
