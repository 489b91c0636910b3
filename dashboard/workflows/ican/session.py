"""The counselor's side of an iCan session: start it, chat with the guide, attach a resume."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import services
from dashboard.studio.run_sidebar import start_run
from dashboard.studio.step_controls import run_in_background
from dashboard.state_keys import FLASH
from pipelines.core.markup import escape_markdown, sanitize_markdown
from pipelines.core.errors import InvalidInput, StaleAnswer
from pipelines.core.spec import PipelineSpec
from pipelines.core.runtime.outcomes import PendingInterrupt
from pipelines.core.runtime.session import Session
from pipelines.ican.state import CLIENT_MESSAGE, MAX_CLIENT_TURNS
from pipelines.ican.resume import MAX_RESUME_BYTES, ResumeFileError, read_resume
from pipelines.ican.schemas import MAX_MESSAGE_CHARS, too_long_message

KEY = "ican"
FIRST_MESSAGE, REPLY = f"{KEY}_first_message", f"{KEY}_reply_text"
REPLY_FOR = f"{KEY}_reply_for"  # the question the reply box was drawn for, recorded when Send is clicked
STAGES = {0: "Guide: collecting information", 30: "Resume parser: reading the resume and the conversation",
          50: "Profile analyzer: scoring RIASEC interests", 70: "Career matcher: ranking 923 O*NET occupations",
          90: "Reporter: writing the report", 100: "Done: the report and the PDF are ready"}
RESUME_TYPES = ["pdf", "docx", "txt", "md"]
RESUME_MB = MAX_RESUME_BYTES // (1024 * 1024)
LANGUAGE_CHOICES = {"detect": "From the first message", "en": "English", "zh": "中文"}
STALE = "The session has moved on (answered in another tab): your message was not sent."


def stage_label(progress: int) -> str:
    return STAGES[max(p for p in STAGES if p <= progress)]


def _read_upload(upload) -> tuple[str, str]:
    """(text, error): the error says why the file cannot be used."""
    try:
        return read_resume(upload.name, upload.getvalue()), ""
    except ResumeFileError as exc:
        return "", str(exc)


def _resume_uploader(label: str, key: str):
    return st.file_uploader(label, type=RESUME_TYPES, key=key, max_upload_size=RESUME_MB,
                            help=f"PDF, DOCX, TXT or Markdown, up to {RESUME_MB} MB. A scanned image has no text "
                                 "to read: it needs OCR first.")


def _too_long(text: str) -> str:
    length = len((text or "").strip())
    return f"{too_long_message(length)}. Your text is kept in the box." if length > MAX_MESSAGE_CHARS else ""


def _counter(text: str | None) -> None:
    """The message's length against the limit; inside a form it follows each submission."""
    length = len((text or "").strip())
    shown = f"{length:,} / {MAX_MESSAGE_CHARS:,} characters"
    st.caption(f":red[{shown}: over the limit]" if length > MAX_MESSAGE_CHARS else shown)


def render_start_form(spec: PipelineSpec) -> None:
    """A new session from the client's first message (and a resume), run to the guide's first question. A
    problem with either is reported before anything starts, and the form keeps what was typed."""
    with st.form(f"{KEY}_start", border=True):
        st.markdown("#### New guidance session")
        message = st.text_area("The client's first message", key=FIRST_MESSAGE, height=110,
                               placeholder="e.g. I'm a lab technician and I feel stuck… / 我是一名老师，想转行…")
        _counter(message)
        upload = _resume_uploader(f"Resume (optional: PDF, DOCX, TXT or Markdown, up to {RESUME_MB} MB)",
                                  f"{KEY}_start_resume")
        language = st.radio("Session language", list(LANGUAGE_CHOICES), format_func=LANGUAGE_CHOICES.get,
                            horizontal=True, key=f"{KEY}_start_language",
                            help="The guide, the report and the PDF use it. It changes later only if the client "
                                 "clearly switches language.")
        submitted = st.form_submit_button("Start the session", type="primary")
    if not submitted:
        return
    if problem := _too_long(message):
        st.error(problem)
        return
    raw: dict[str, Any] = {"raw_input": message}
    if language in ("en", "zh"):
        raw["language"] = language
    if upload is not None:
        text, error = _read_upload(upload)
        if error:
            st.error(f"{escape_markdown(error)}. The session has not started: remove the file to start without a "
                     "resume, or fix it and upload it again. The first message is kept.", icon=":material/description:")
            return
        raw.update(resume_text=text, resume_name=upload.name)
    if start_run(spec, raw, None):
        st.session_state[f"{KEY}_autorun"] = True
        st.rerun()
    st.error(escape_markdown(st.session_state.pop(FLASH, ("error", "The session could not start."))[1]))


def _run_on(session: Session) -> None:
    """Run to the guide's next question or to the end in a background worker, as Run to interrupt does: a slow
    model does not freeze the page, and the studio below shows the steps as they land."""
    runs = services.background_runs()
    opener = services.worker_session_opener(session.spec, session.thread_id, sorted(session.breakpoints))
    run = run_in_background(runs, session, "interrupt", opener)
    if not run.running and not (run.error or any(s.error for s in run.steps)):
        st.session_state[FLASH] = ("success", "The guide has answered." if run.final_status == "waiting"
                                   else "The analysis is complete.")


def _chat(values: dict[str, Any]) -> None:
    history = values.get("conversation_history") or []
    # A long conversation scrolls in its own box, so the reply box and the studio stay in reach.
    box = st.container(height=420) if len(history) > 6 else st.container()
    with box:
        _turns(history)


def _turns(history: list[dict[str, Any]]) -> None:
    for turn in history:
        client = turn.get("role") == "user"
        with st.chat_message("user" if client else "assistant",
                             avatar=":material/person:" if client else ":material/explore:"):
            content = str(turn.get("content", ""))
            # The client's words exactly as typed; the guide's (a model's, with a real provider) keep their
            # formatting but lose images, links and HTML.
            st.markdown(escape_markdown(content) if client else sanitize_markdown(content))


def _resume_box(session: Session, values: dict[str, Any]) -> bool:
    if values.get("resume_name") and not values.get("resume_issue"):
        st.caption(f":material/description: Resume attached: {escape_markdown(values['resume_name'])}")
        return False
    if values.get("resume_issue"):
        st.warning(escape_markdown(values["resume_issue"]))
    if values.get("structured_profile") or session.status() != "waiting":
        return False
    with st.expander("Attach a resume (PDF, DOCX, TXT or Markdown)"):
        upload = _resume_uploader("Resume", f"{KEY}_resume_upload")
        if upload is None or not st.button("Attach to the session", key=f"{KEY}_attach"):
            return False
        text, error = _read_upload(upload)
        if error:
            st.error(f"{escape_markdown(error)}. Nothing was attached; the session goes on as it was.")
            return False
        # Written as if the guide had received it; the client's turn is then asked again, so nothing is lost.
        session.edit_state({"resume_text": text, "resume_name": upload.name, "resume_issue": ""}, as_node="guide_node")
        _run_on(session)
        st.session_state[FLASH] = ("success", f"Resume {upload.name} attached; the resume parser will read it.")
        return True


def _record_question(interrupt_id: str) -> None:
    # Bound when the reply box was drawn: a tab that drew it for an older question sends for that question.
    st.session_state[REPLY_FOR] = interrupt_id


def _send_reply(session: Session, waiting: list[PendingInterrupt]) -> None:
    """Send the reply submitted on the last run, before the box is drawn again; the box is emptied only once
    the message is sent. An over-long, empty or stale message stays in the box with the reason."""
    asked = st.session_state.pop(REPLY_FOR, None)
    if asked is None:
        return
    message = str(st.session_state.get(REPLY) or "")
    if problem := _too_long(message):
        st.error(problem)
        return
    try:
        session.resume(message, interrupt_id=asked)
    except StaleAnswer:
        if waiting:
            st.warning(f"{STALE} It is still in the box: read the guide's latest question, then send it again if "
                       "it still fits.", icon=":material/sync_problem:")
        else:  # no box to keep it in: the guide stopped asking
            st.warning(f"{STALE} The guide is no longer asking; here is what you typed:",
                       icon=":material/sync_problem:")
            st.code(message, language=None, wrap_lines=True)
        return
    except InvalidInput as exc:
        st.error(escape_markdown(str(exc)))
        return
    st.session_state[REPLY] = ""
    _run_on(session)
    st.rerun()


def _reply_box(pending: PendingInterrupt) -> None:
    turn = int(pending.value.get("turn") or 0)
    with st.form(f"{KEY}_reply"):
        message = st.text_area(f"The client's answer (message {turn} of {MAX_CLIENT_TURNS}; the third starts "
                               "the analysis)", key=REPLY, height=100)
        _counter(message)
        st.form_submit_button("Send to the guide", type="primary", on_click=_record_question, args=(pending.id,))


def render_chat(session: Session) -> None:
    """Progress, the conversation and the client's reply box, above the studio."""
    with st.container(border=True):
        _render_chat(session)


def _render_chat(session: Session) -> None:
    values = session.values()
    progress = int(values.get("progress") or 0)
    st.progress(min(max(progress, 0), 100) / 100, text=f"{progress} % — {stage_label(max(progress, 0))}")
    running = services.background_runs().active(session.thread_id) is not None
    if st.session_state.pop(f"{KEY}_autorun", False) and session.status() == "ready" and not running:
        _run_on(session)
        st.rerun()
    _chat(values)
    if _resume_box(session, values):
        st.rerun()
    waiting = [p for p in session.pending_interrupts() if p.kind == CLIENT_MESSAGE] if not running else []
    _send_reply(session, waiting)
    if waiting:
        _reply_box(waiting[0])
    elif session.status() == "ready" and not running:
        if st.button("Continue the session", key=f"{KEY}_continue", type="primary",
                     help="Run to the guide's next question, or through the analysis to the report"):
            _run_on(session)
            st.rerun()
