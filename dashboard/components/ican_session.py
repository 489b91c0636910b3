"""The counselor's side of an iCan session: start it, chat with the guide, attach a resume, see the results."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from dashboard import services
from dashboard.components.ican_charts import make_riasec_figure, matches_frame, riasec_frame
from dashboard.components.run_sidebar import start_run
from dashboard.components.step_controls import run_in_background
from dashboard.components.workflow_page import demote_headings
from dashboard.state_keys import FLASH
from pipelines.core.registry import InvalidInput, PipelineSpec
from pipelines.core.session import Session
from pipelines.ican.nodes import CLIENT_MESSAGE, MAX_CLIENT_TURNS
from pipelines.ican.resume import ResumeFileError, read_resume

KEY = "ican"
STAGES = {0: "Guide: collecting information", 30: "Resume parser: reading the resume and the conversation",
          50: "Profile analyzer: scoring RIASEC interests", 70: "Career matcher: ranking 923 O*NET occupations",
          90: "Reporter: writing the report", 100: "Done: the report and the PDF are ready"}
RESUME_TYPES = ["pdf", "docx", "txt", "md"]
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$])")


def as_plain_markdown(text: str) -> str:
    """The client's words shown as they typed them: no links, images, HTML or formatting from them."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", text).replace("\n", "  \n")


def stage_label(progress: int) -> str:
    return STAGES[max(p for p in STAGES if p <= progress)]


def _read_upload(upload) -> tuple[str, str]:
    """(text, error): the error says why the file cannot be used; the session goes on without it."""
    try:
        return read_resume(upload.name, upload.getvalue()), ""
    except ResumeFileError as exc:
        return "", str(exc)


def render_start_form(spec: PipelineSpec) -> None:
    """A new session from the client's first message (and a resume), run to the guide's first question."""
    with st.form(f"{KEY}_start", border=True):
        st.markdown("#### New guidance session")
        message = st.text_area("The client's first message", key=f"{KEY}_first_message", height=110,
                               placeholder="e.g. I'm a lab technician and I feel stuck… / 我是一名老师，想转行…")
        upload = st.file_uploader("Resume (optional: PDF, DOCX, TXT or Markdown)", type=RESUME_TYPES,
                                  key=f"{KEY}_start_resume")
        submitted = st.form_submit_button("Start the session", type="primary")
    if not submitted:
        return
    raw: dict[str, Any] = {"raw_input": message}
    if upload is not None:
        text, error = _read_upload(upload)
        if error:
            st.warning(f"{error} The session starts without a resume.")
        else:
            raw.update(resume_text=text, resume_name=upload.name)
    if start_run(spec, raw, None):
        st.session_state[f"{KEY}_autorun"] = True
        st.rerun()
    st.error(st.session_state.pop(FLASH, ("error", "The session could not start."))[1])


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
            st.markdown(as_plain_markdown(content) if client else content)


def _resume_box(session: Session, values: dict[str, Any]) -> bool:
    if values.get("resume_name") and not values.get("resume_issue"):
        st.caption(f":material/description: Resume attached: {values['resume_name']}")
        return False
    if values.get("resume_issue"):
        st.warning(values["resume_issue"])
    if values.get("structured_profile") or session.status() != "waiting":
        return False
    with st.expander("Attach a resume (PDF, DOCX, TXT or Markdown)"):
        upload = st.file_uploader("Resume", type=RESUME_TYPES, key=f"{KEY}_resume_upload")
        if upload is None or not st.button("Attach to the session", key=f"{KEY}_attach"):
            return False
        text, error = _read_upload(upload)
        if error:
            st.error(error)
            return False
        # Written as if the guide had received it; the client's turn is then asked again, so nothing is lost.
        session.edit_state({"resume_text": text, "resume_name": upload.name, "resume_issue": ""}, as_node="guide_node")
        _run_on(session)
        st.session_state[FLASH] = ("success", f"Resume {upload.name} attached; the resume parser will read it.")
        return True


def render_chat(session: Session) -> None:
    """Progress, the conversation and the client's reply box, above the studio."""
    with st.container(border=True):
        _render_chat(session)


def _render_chat(session: Session) -> None:
    values = session.values()
    progress = int(values.get("progress") or 0)
    st.progress(progress / 100, text=f"{progress} % — {stage_label(progress)}")
    running = services.background_runs().active(session.thread_id) is not None
    if st.session_state.pop(f"{KEY}_autorun", False) and session.status() == "ready" and not running:
        _run_on(session)
        st.rerun()
    _chat(values)
    if _resume_box(session, values):
        st.rerun()
    waiting = [p for p in session.pending_interrupts() if p.kind == CLIENT_MESSAGE]
    if waiting:
        turn = waiting[0].value.get("turn", 0)
        with st.form(f"{KEY}_reply", clear_on_submit=True):
            message = st.text_area(f"The client's answer (message {turn} of {MAX_CLIENT_TURNS}; the third starts "
                                   "the analysis)", key=f"{KEY}_reply_text", height=100)
            sent = st.form_submit_button("Send to the guide", type="primary")
        if sent:
            try:
                session.resume(message)
            except InvalidInput as exc:
                st.error(str(exc))
                return
            _run_on(session)
            st.rerun()
    elif session.status() == "ready" and not running:
        if st.button("Continue the session", key=f"{KEY}_continue", type="primary",
                     help="Run to the guide's next question, or through the analysis to the report"):
            _run_on(session)
            st.rerun()


def render_results_tab(session: Session) -> None:
    values = session.values()
    lang = values.get("language") or "en"
    scores = values.get("riasec_scores") or {}
    left, right = st.columns([3, 2])
    with left:
        st.markdown("**RIASEC profile**")
        st.plotly_chart(make_riasec_figure(riasec_frame(scores, lang)), key=f"{KEY}_radar", width="stretch")
    with right:
        st.metric("Holland code", values.get("holland_code") or "—")
        for letter, quotes in (values.get("riasec_evidence") or {}).items():
            if quotes and letter in (values.get("holland_code") or ""):
                st.caption(f"**{letter}** · " + " · ".join(f"“{q}”" for q in quotes[:3]))
    matches = values.get("career_matches") or []
    st.markdown("**Career matches** (O*NET 30.2, top 10)")
    if matches:
        columns = ["rank", "title", "title_zh", "high_point_code", "score", "skill_overlap", "reason"]
        frame = matches_frame(matches)[columns if lang == "zh" else [c for c in columns if c != "title_zh"]]
        st.dataframe(frame, hide_index=True, key=f"{KEY}_matches", width="stretch")
    else:
        st.caption("The matches come after the profile analyzer.")
    target = values.get("target_match")
    if target:
        st.info(f"The career the client named, **{target['title']}**"
                f"{' (' + target['title_zh'] + ')' if target.get('title_zh') else ''}, ranks {target['rank']} of "
                f"{target['of']} (score {target['score']:.2f}, interest code {target.get('high_point_code', '')}).")
    if values.get("final_report"):
        with st.container(border=True):
            st.markdown(demote_headings(values["final_report"], 1))
        pdf = session.spec.pdf(values)
        st.download_button("Download the PDF report", data=pdf, mime="application/pdf", key=f"{KEY}_pdf",
                           file_name=f"ican-report-{str(values.get('session_id', 'session'))[:8]}.pdf", type="primary")
