"""The counselor's side of an iCan session: start it, chat with the guide, attach a resume."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from dashboard.studio.chat import (STALE, Chat, Turn, render_chat as render_generic_chat, render_counter, run_on,
                                   run_when_opened, too_long)
from dashboard.studio.run_sidebar import start_run
from dashboard.state_keys import FLASH
from pipelines.core.markup import escape_markdown
from pipelines.core.spec import PipelineSpec
from pipelines.core.runtime.outcomes import PendingInterrupt
from pipelines.core.runtime.session import Session
from pipelines.ican.state import CLIENT_MESSAGE, MAX_CLIENT_TURNS
from pipelines.ican.resume import MAX_RESUME_BYTES, ResumeFileError, flagged_note, flagged_passages, read_resume, screen
from pipelines.ican.schemas import MAX_MESSAGE_CHARS, too_long_message

KEY = "ican"
FIRST_MESSAGE = f"{KEY}_first_message"
STAGES = {0: "Guide: collecting information", 30: "Resume parser: reading the resume and the conversation",
          50: "Profile analyzer: scoring RIASEC interests", 70: "Career matcher: ranking 923 O*NET occupations",
          90: "Reporter: writing the report", 100: "Done: the report and the PDF are ready"}
RESUME_TYPES = ["pdf", "docx", "txt", "md"]
RESUME_MB = MAX_RESUME_BYTES // (1024 * 1024)
LANGUAGE_CHOICES = {"detect": "From the first message", "en": "English", "zh": "中文"}


def stage_label(progress: int) -> str:
    return STAGES[max(p for p in STAGES if p <= progress)]


def _conversation(values: Mapping[str, Any]) -> list[Turn]:
    """The client's and the guide's turns; the guide's (a model's, with a real provider) keep their formatting."""
    return [("user" if turn.get("role") == "user" else "assistant", str(turn.get("content", "")))
            for turn in values.get("conversation_history") or []]


def _reply_label(pending: PendingInterrupt) -> str:
    turn = int(pending.value.get("turn") or 0)
    return f"The client's answer (message {turn} of {MAX_CLIENT_TURNS}; the third starts the analysis)"


def _too_long_message(length: int) -> str:
    return f"{too_long_message(length)}. Your text is kept in the box."


CHAT = Chat(
    key=KEY, turns=_conversation, kind=CLIENT_MESSAGE, max_chars=MAX_MESSAGE_CHARS, too_long=_too_long_message,
    reply_label=_reply_label, send_label="Send to the guide", continue_label="Continue the session",
    continue_help="Run to the guide's next question, or through the analysis to the report",
    answered="The guide has answered.", finished="The analysis is complete.",
    stale_kept=f"{STALE} It is still in the box: read the guide's latest question, then send it again if it still "
               "fits.",
    stale_gone=f"{STALE} The guide is no longer asking; here is what you typed:",
    avatars={"user": ":material/person:", "assistant": ":material/explore:"},
    # The client's words exactly as typed; the guide's keep their formatting but lose images, links and HTML.
    formatted_roles=("assistant",))
REPLY = CHAT.reply_key


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


def render_start_form(spec: PipelineSpec) -> None:
    """A new session from the client's first message (and a resume), run to the guide's first question. A
    problem with either is reported before anything starts, and the form keeps what was typed."""
    with st.form(f"{KEY}_start", border=True):
        st.markdown("#### New guidance session")
        message = st.text_area("The client's first message", key=FIRST_MESSAGE, height=110,
                               placeholder="e.g. I'm a lab technician and I feel stuck… / 我是一名老师，想转行…")
        render_counter(message, MAX_MESSAGE_CHARS)
        upload = _resume_uploader(f"Resume (optional: PDF, DOCX, TXT or Markdown, up to {RESUME_MB} MB)",
                                  f"{KEY}_start_resume")
        language = st.radio("Session language", list(LANGUAGE_CHOICES), format_func=LANGUAGE_CHOICES.get,
                            horizontal=True, key=f"{KEY}_start_language",
                            help="The guide, the report and the PDF use it. It changes later only if the client "
                                 "clearly switches language.")
        submitted = st.form_submit_button("Start the session", type="primary")
    if not submitted:
        return
    if problem := too_long(message, MAX_MESSAGE_CHARS, _too_long_message):
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
        run_when_opened(CHAT)
        st.rerun()
    st.error(escape_markdown(st.session_state.pop(FLASH, ("error", "The session could not start."))[1]))


def _progress(values: Mapping[str, Any]) -> None:
    progress = int(values.get("progress") or 0)
    st.progress(min(max(progress, 0), 100) / 100, text=f"{progress} % — {stage_label(max(progress, 0))}")


def render_flagged(values: Mapping[str, Any]) -> None:
    """The resume's passages that read like instructions to an AI: said once, then each shown as written (as text,
    never formatted), flagged. None of them reached the profile, the evidence or the report."""
    flagged = flagged_passages(values)
    if not flagged:
        return
    st.warning(f"{flagged_note(len(flagged), 'en')} They are kept below as text, never followed and never used as "
               "evidence.", icon=":material/gpp_maybe:")
    for passage in flagged:
        reasons = " ".join(str(r) for r in passage.get("reasons") or [])
        st.caption(escape_markdown(f"⚠ Flagged passage. {reasons}".strip(), line_breaks=False))
        st.code(str(passage["text"]), language=None, wrap_lines=True)


def _resume_box(session: Session, values: Mapping[str, Any]) -> bool:
    if values.get("resume_name") and not values.get("resume_issue"):
        st.caption(f":material/description: Resume attached: {escape_markdown(values['resume_name'])}")
        render_flagged(values)
        return False
    if values.get("resume_issue"):
        st.warning(escape_markdown(values["resume_issue"]))
    if values.get("structured_profile") or session.status() != "waiting":
        return False
    with st.expander("Attach a resume (PDF, DOCX, TXT or Markdown)"):
        upload = _resume_uploader(f"Resume (PDF, DOCX, TXT or Markdown, up to {RESUME_MB} MB)", f"{KEY}_resume_upload")
        if upload is None or not st.button("Attach to the session", key=f"{KEY}_attach"):
            return False
        text, error = _read_upload(upload)
        if error:
            st.error(f"{escape_markdown(error)}. Nothing was attached; the session goes on as it was.")
            return False
        # Written as if the guide had received it; the client's turn is then asked again, so nothing is lost.
        # Through the documents' scan first, as a resume given at the start is.
        session.edit_state({**screen(text), "resume_name": upload.name, "resume_issue": ""}, as_node="guide_node")
        run_on(session, CHAT)
        st.session_state[FLASH] = ("success", f"Resume {upload.name} attached; the resume parser will read it.")
        return True


def render_chat(session: Session) -> None:
    """Progress, the conversation, the resume attachment and the client's reply box, above the studio."""
    render_generic_chat(session, CHAT, header=_progress, above_reply=_resume_box)
