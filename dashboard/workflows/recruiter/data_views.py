"""The Recruiting data page's views: the counters and the Jobs, Candidates, Pipeline (with the undo of an
application's last change) and Guardrail log tabs (the Outbox, Calendar and Plans tabs are data_effects.py, the
Import tab data_import.py). Text from outside (titles, descriptions, resumes, names, log messages) is shown as
table cells, st.code or escaped Markdown: never as formatting, links or HTML."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.workflows.recruiter import charts, stores
from dashboard.workflows.recruiter.data_effects import render_calendar_tab, render_outbox_tab, render_plans_tab, \
    rerun_saying, show_flash
from dashboard.workflows.recruiter.data_import import render_import_tab
from pipelines.core.guardrails.findings import CHECKS, check_label
from pipelines.core.guardrails.document_scan import scan_document
from pipelines.core.markup import escape_markdown
from pipelines.recruiter.records import APPLICATION_STATUSES
from pipelines.recruiter.store import RecruitingStore

TABS = ("Jobs", "Candidates", "Pipeline", "Outbox", "Calendar", "Plans", "Guardrail log", "Import")
TAB_KEY = "recruiting_data_tab"
CANDIDATE_LIMIT = 500
LOG_LIMIT = 500
BOARD_HEIGHT = 320  # a stage column with more names than fit scrolls
FLAGGED = "⚠ flagged"
FLAGGED_COLUMN = st.column_config.TextColumn(
    "Flagged", help="The resume carries instructions addressed to an AI: select the candidate for what was found.")


def _when(label: str) -> Any:
    return st.column_config.DatetimeColumn(label, format="YYYY-MM-DD HH:mm")


APPLICATION_CONFIG = {**charts.APPLICATION_COLUMNS, "updated_at": _when("Updated")}
HISTORY_CONFIG = {**charts.HISTORY_COLUMNS, "at": _when("When")}
LOG_CONFIG = {**charts.LOG_COLUMNS, "created_at": _when("Time"), "message": st.column_config.TextColumn("Message", width="large")}


_REASONS: dict[bytes, tuple[str, ...]] = {}  # by the document's digest: a table's worth of resumes is scanned once
_REASONS_MAX = 20_000


def injection_reasons(document: str) -> tuple[str, ...]:
    """Why a document was flagged as carrying instructions addressed to an AI (the import's own check), or ()."""
    digest = hashlib.blake2b(document.encode("utf-8", "replace"), digest_size=16).digest()
    reasons = _REASONS.get(digest)
    if reasons is None:
        reasons = scan_document(document).reasons
        if len(_REASONS) >= _REASONS_MAX:
            _REASONS.clear()
        _REASONS[digest] = reasons
    return reasons


def _selected_row(event: Any, rows: int) -> int | None:
    """The selected row of a single-row table, if it is still one of its rows (a search may have shrunk it)."""
    selected = event.selection.rows if event else []
    return selected[0] if selected and selected[0] < rows else None


def _code(text: str) -> None:
    """A long document in a box of its own that scrolls; as written, never rendered."""
    st.code(text, language=None, wrap_lines=True, height=480 if text.count("\n") > 24 or len(text) > 3000 else "content")


def _flag_warning(document: str, what: str) -> None:
    reasons = injection_reasons(document)
    if reasons:
        found = " ".join(r if r.endswith(".") else r + "." for r in reasons)
        st.warning(f"This {what} carries instructions addressed to an AI. It is kept as data and never followed by the "
                   f"recruiter's assistant: review it yourself. Found: {escape_markdown(found)}",
                   icon=":material/gpp_maybe:")


def render_data_page(store: RecruitingStore) -> None:
    """The counters on top (filled last, so they include what the Import tab just added) and a tab bar that
    keeps its tab across reruns and computes only the open one."""
    counters = st.container()
    tabs = dict(zip(TABS, st.tabs(list(TABS), key=TAB_KEY, on_change="rerun")))
    renderers: dict[str, Callable[[RecruitingStore], None]] = {
        "Jobs": render_jobs_tab, "Candidates": render_candidates_tab, "Pipeline": render_pipeline_tab,
        "Outbox": render_outbox_tab, "Calendar": render_calendar_tab, "Plans": render_plans_tab,
        "Guardrail log": render_log_tab, "Import": render_import_tab}
    for name, render in renderers.items():
        with tabs[name]:
            if tabs[name].open:
                render(store)
    with counters:
        render_counters(store)


def render_counters(store: RecruitingStore) -> None:
    counts = store.counts()
    blocks = sum(n for (_, severity), n in stores.guardrail_log(store).counts_by_check().items() if severity == "blocked")
    cols = st.columns(4)
    cols[0].metric("Jobs", counts["jobs"])
    cols[1].metric("Candidates", counts["candidates"])
    cols[2].metric("Applications", counts["applications"])
    cols[3].metric("Guardrail blocks", blocks, help="Messages, replies and actions a guardrail blocked; the Guardrail "
                                                    "log tab lists every warning and block.")


# --- jobs ----------------------------------------------------------------------------------------------------------
def render_jobs_tab(store: RecruitingStore) -> None:
    jobs = store.jobs()
    if not jobs:
        st.info("No job yet: import some on the Import tab, or run `python -m pipelines recruiter import --jobs FILE`.")
        return
    frame = charts.jobs_frame(jobs)
    event = st.dataframe(frame, hide_index=True, width="stretch", placeholder="—", on_select="rerun",
                         selection_mode="single-row", key="recruiting_jobs_table", column_config=charts.JOB_COLUMNS,
                         height=35 * (min(len(frame), 15) + 1) + 3)  # a usual number of jobs without a scrollbar
    row = _selected_row(event, len(frame))
    if row is None:
        st.caption("Select a job to read its description.")
        return
    job = jobs[row]
    applied = store.applications(job_id=job.id)
    with st.container(border=True):
        st.markdown(f"**{escape_markdown(job.title, line_breaks=False)}** · {escape_markdown(job.id, line_breaks=False)}")
        years = f"at least {job.min_years:g} year{'' if job.min_years == 1 else 's'}" if job.min_years is not None else ""
        facts = [job.location or "", years,
                 f"{len(applied)} application(s)"]
        st.caption(escape_markdown(" · ".join(f for f in facts if f), line_breaks=False))
        if job.skills:
            st.caption("Skills: " + escape_markdown(", ".join(job.skills), line_breaks=False))
        _flag_warning(job.description, "job description")
        _code(job.description)


# --- candidates ----------------------------------------------------------------------------------------------------
def render_candidates_tab(store: RecruitingStore) -> None:
    search = st.text_input("Search name, id or resume text", key="recruiting_candidates_search",
                           placeholder="Kafka, 王, C012 …").strip()
    people = store.candidates(search=search or None, limit=CANDIDATE_LIMIT + 1)
    more = len(people) > CANDIDATE_LIMIT
    people = people[:CANDIDATE_LIMIT]
    if not people:
        st.info("No candidate matches this search." if search else
                "No candidate yet: import some on the Import tab, or run "
                "`python -m pipelines recruiter import --candidates FILE`.")
        return
    matched = f"the first {CANDIDATE_LIMIT} candidates" if more else f"{len(people)} candidate(s)"
    st.caption(f"{matched}{' match the search' if search else ''}. Select one to read the resume.")
    frame = charts.candidates_frame(people)
    frame.insert(2, "flagged", [FLAGGED if injection_reasons(p.resume_text) else "" for p in people])
    event = st.dataframe(frame, hide_index=True, width="stretch", placeholder="—", on_select="rerun", selection_mode="single-row",
                         key="recruiting_candidates_table",
                         column_config={**charts.CANDIDATE_COLUMNS, "flagged": FLAGGED_COLUMN})
    row = _selected_row(event, len(frame))
    if row is not None:
        render_candidate(store, people[row])


def render_candidate(store: RecruitingStore, person: Any) -> None:
    with st.container(border=True):
        st.markdown(f"**{escape_markdown(person.name, line_breaks=False)}** · "
                    f"{escape_markdown(person.id, line_breaks=False)}")
        years = (f"{person.years_experience:g} year{'' if person.years_experience == 1 else 's'}"
                 if person.years_experience is not None else "")
        facts = [person.email, person.phone, person.location, years,
                 f"resume file {person.source_file}" if person.source_file else ""]
        if line := " · ".join(f for f in facts if f):
            st.caption(escape_markdown(line, line_breaks=False))
        if person.skills:
            st.caption("Skills: " + escape_markdown(", ".join(person.skills), line_breaks=False))
        _flag_warning(person.resume_text, "resume")
        _code(person.resume_text)
        applied = charts.applications_frame(store.applications(candidate_id=person.id))
        if not applied.empty:
            st.markdown("**Applications**")
            columns = ["job_id", "job_title", "status", "updated_at"]
            st.dataframe(applied[columns].assign(status=applied["status"].map(charts.stage_label)), hide_index=True,
                         width="stretch", placeholder="—", key="recruiting_candidate_applications",
                         column_config={c: APPLICATION_CONFIG[c] for c in columns})


# --- pipeline ------------------------------------------------------------------------------------------------------
def render_pipeline_tab(store: RecruitingStore) -> None:
    titles = {job.id: job.title for job in store.jobs()}
    cols = st.columns([3, 1])
    job_id = cols[0].selectbox("Job", ["", *titles], key="recruiting_pipeline_job",
                               format_func=lambda i: f"{i} · {titles[i]}" if i else "All jobs")
    view = cols[1].segmented_control("Show", ["Board", "Table"], default="Board", key="recruiting_pipeline_view")
    frame = charts.applications_frame(store.applications(job_id=job_id or None))
    if frame.empty:
        st.info("No application for this job yet." if job_id else "No application yet.")
        return
    st.plotly_chart(charts.make_pipeline_figure(frame), key="recruiting_pipeline_chart", width="stretch")
    if view == "Table":
        columns = list(charts.APPLICATION_COLUMNS)
        st.dataframe(frame[columns].assign(status=frame["status"].map(charts.stage_label)), hide_index=True,
                     width="stretch", placeholder="—", key="recruiting_pipeline_table", column_config=APPLICATION_CONFIG)
    else:
        render_board(frame, with_job=not job_id)
    render_history(store, frame)


def render_board(frame: pd.DataFrame, with_job: bool) -> None:
    """One column per stage, in funnel order, with its count and the candidates in it (as text). When a stage holds
    more names than fit, every column gets the same height and the long ones scroll."""
    tall = frame["status"].value_counts().max() > 10
    for column, status in zip(st.columns(len(APPLICATION_STATUSES)), APPLICATION_STATUSES):
        stage = frame[frame["status"] == status]
        with column:
            st.markdown(f"**{charts.stage_label(status)}** · {len(stage)}")
            names = [f"{r.candidate_name} ({r.job_id})" if with_job else str(r.candidate_name)
                     for r in stage.itertuples()]
            with st.container(border=True, height=BOARD_HEIGHT if tall else "content"):
                st.text("\n".join(names) or "—")


def render_history(store: RecruitingStore, frame: pd.DataFrame) -> None:
    labels = {int(r.id): f"{r.candidate_name} · {r.job_id} · {charts.stage_label(r.status)}" for r in frame.itertuples()}
    st.markdown("**Application history**")
    chosen = st.selectbox("Application", list(labels), index=None, format_func=labels.get,
                          key="recruiting_pipeline_application", placeholder="Choose an application",
                          label_visibility="collapsed")
    show_flash()
    if chosen is None:
        return
    rows = store.history(chosen)
    application = frame[frame["id"] == chosen]
    if not application.empty:
        render_undo(store, application.iloc[0], rows)
    history = charts.history_frame(rows)
    for column in ("from_status", "to_status"):
        history[column] = history[column].map(lambda s: charts.stage_label(s) if s in APPLICATION_STATUSES else s)
    st.dataframe(history, hide_index=True, width="stretch", placeholder="—", key="recruiting_pipeline_history",
                 column_config=HISTORY_CONFIG)


def render_undo(store: RecruitingStore, application: Any, history: list[dict[str, Any]]) -> None:
    """Set the application back to the stage it had before its last change; the undo is a change of its own in the
    history (so it can be undone too). Disabled when the last change has no earlier stage (the creation)."""
    last = history[-1] if history else None
    previous = last["from_status"] if last and last["from_status"] in APPLICATION_STATUSES else None
    if st.button("Undo the last change", key="recruiting_pipeline_undo", icon=":material/undo:", disabled=previous is None,
                 help=f"Back to {charts.stage_label(previous)}: written to the history as a change of its own."
                 if previous else "No earlier stage to go back to.") and previous:
        store.set_status(str(application.candidate_id), str(application.job_id), previous, actor="recruiter",
                         note=f"undo of {previous} → {last['to_status']}")
        rerun_saying(f"{application.candidate_name} · {application.job_id} is back to {charts.stage_label(previous)}.")


# --- guardrail log -------------------------------------------------------------------------------------------------
def render_log_tab(store: RecruitingStore) -> None:
    log = stores.guardrail_log(store)
    counts = log.counts_by_check()
    checks = [*CHECKS, *sorted({check for check, _ in counts} - set(CHECKS))]
    cols = st.columns(2)
    severity = cols[0].selectbox("Severity", ["", *charts.SEVERITIES], key="recruiting_log_severity",
                                 format_func=lambda s: s.capitalize() if s else "All severities")
    check = cols[1].selectbox("Check", ["", *checks], key="recruiting_log_check",
                              format_func=lambda c: check_label(c) if c else "All checks")
    entries = log.entries(severity=severity or None, check=check or None, limit=LOG_LIMIT)
    total = sum(counts.values())
    newest = f"the newest {LOG_LIMIT} of " if len(entries) == LOG_LIMIT else ""
    st.caption(f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'} ({newest}{total} logged): which check fired "
               "and why, never the text that set it off.")
    st.dataframe(charts.log_frame(entries), hide_index=True, width="stretch", placeholder="—", key="recruiting_log_table",
                 column_config=LOG_CONFIG)
    st.markdown("**Findings by check** (all entries)")
    st.plotly_chart(charts.make_log_figure(charts.log_summary(counts)), key="recruiting_log_chart", width="stretch")

