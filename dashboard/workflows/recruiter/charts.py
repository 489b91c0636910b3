"""The recruiting data as data frames (tables show outside text as cells, never markup) and pure `make_*_figure(df)` charts."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from dashboard.studio.metrics_charts import empty_figure
from pipelines.core.guardrails.findings import check_label
from pipelines.recruiter.records import APPLICATION_STATUSES, Candidate, Job

JOB_COLUMNS = {"id": "ID", "title": "Title", "location": "Location", "min_years": "Min. years", "skills": "Skills"}
CANDIDATE_COLUMNS = {"id": "ID", "name": "Name", "location": "Location", "years": "Years", "skills": "Skills",
                     "source_file": "Source file"}
APPLICATION_COLUMNS = {"id": "ID", "candidate_name": "Candidate", "candidate_id": "Candidate ID", "job_id": "Job ID",
                       "job_title": "Job", "status": "Stage", "updated_at": "Updated"}
HISTORY_COLUMNS = {"from_status": "From", "to_status": "To", "at": "When", "actor": "By", "note": "Note"}
LOG_COLUMNS = {"created_at": "Time", "check_name": "Check", "severity": "Severity", "message": "Message",
               "context": "Context", "session_id": "Session"}
SEVERITIES = ("info", "warning", "blocked")
# Stages read left to right as a hiring funnel: open stages in blues and greens, the two exits in greys and red.
STAGE_COLORS = {"new": "#9ecae1", "screening": "#6baed6", "interview": "#3182bd", "offer": "#31a354",
                "hired": "#006d2c", "rejected": "#d62728", "withdrawn": "#999999"}
SEVERITY_COLORS = {"info": "#6baed6", "warning": "#f0a30a", "blocked": "#d62728"}


def plotly_text(text: Any) -> str:
    """Plotly reads `<a href>`, `<b>` and entities in labels: outside text goes in with them escaped."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def stage_label(status: str) -> str:
    return status.replace("_", " ").capitalize()


def _skills(skills: Iterable[str]) -> str:
    return ", ".join(skills)


def jobs_frame(jobs: Iterable[Job]) -> pd.DataFrame:
    return pd.DataFrame([{"id": j.id, "title": j.title, "location": j.location or "", "min_years": j.min_years,
                          "skills": _skills(j.skills)} for j in jobs], columns=list(JOB_COLUMNS))


def candidates_frame(people: Iterable[Candidate]) -> pd.DataFrame:
    return pd.DataFrame([{"id": c.id, "name": c.name, "location": c.location or "", "years": c.years_experience,
                          "skills": _skills(c.skills), "source_file": c.source_file or ""} for c in people],
                        columns=list(CANDIDATE_COLUMNS))


def applications_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per application; a candidate or job deleted since shows by its id."""
    records = [{"id": int(r["id"]), "candidate_name": r.get("candidate_name") or r["candidate_id"],
                "candidate_id": r["candidate_id"], "job_id": r["job_id"], "job_title": r.get("job_title") or "",
                "status": r["status"], "updated_at": pd.to_datetime(r.get("updated_at"), utc=True)} for r in rows]
    return pd.DataFrame(records, columns=list(APPLICATION_COLUMNS))


def history_frame(history: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """An application's stage changes, newest first; its first row (no from) is when it was created."""
    records = [{"from_status": h.get("from_status") or "—", "to_status": h["to_status"],
                "at": pd.to_datetime(h.get("at"), utc=True), "actor": h.get("actor") or "", "note": h.get("note") or ""}
               for h in history]
    return pd.DataFrame(records[::-1], columns=list(HISTORY_COLUMNS))


def _context(value: Any) -> str:
    """A log entry's context (the import file, the candidate, the action) as one line of JSON, for a table cell."""
    if not value:
        return ""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str) if isinstance(value, dict) else str(value)


def log_frame(entries: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    records = [{"created_at": pd.to_datetime(e.get("created_at"), utc=True), "check_name": check_label(e["check_name"]),
                "severity": e["severity"], "message": e.get("message") or "", "context": _context(e.get("context_json")),
                "session_id": e.get("session_id") or ""}
               for e in entries]
    return pd.DataFrame(records, columns=list(LOG_COLUMNS))


def log_summary(counts: Mapping[tuple[str, str], int]) -> pd.DataFrame:
    """Checks as rows, severities as columns (the known ones first), with a total per check, most frequent first."""
    if not counts:
        return pd.DataFrame(columns=["check", *SEVERITIES, "total"])
    frame = pd.Series(counts).unstack(fill_value=0)
    frame = frame.reindex(columns=[*SEVERITIES, *sorted(set(frame.columns) - set(SEVERITIES))], fill_value=0)
    frame["total"] = frame.sum(axis=1)
    frame = frame.sort_values(["total"], ascending=False, kind="stable").rename_axis("check").reset_index()
    return frame.astype({column: int for column in frame.columns if column != "check"})


def filter_frame(frame: pd.DataFrame, text: str, columns: Iterable[str]) -> pd.DataFrame:
    """The rows where any of `columns` contains `text`, ignoring case; the text is literal, not a pattern."""
    needle = text.strip().casefold()
    if not needle or frame.empty:
        return frame
    mask = pd.Series(False, index=frame.index)
    for column in columns:
        mask |= frame[column].astype(str).str.casefold().str.contains(needle, regex=False)
    return frame[mask]


def stage_counts(df: pd.DataFrame) -> pd.DataFrame:
    """Applications per stage and job, every stage present (in funnel order) even when it holds none."""
    if df.empty:
        return pd.DataFrame(columns=["status", "job_id", "applications"])
    counts = df.groupby(["status", "job_id"]).size().reset_index(name="applications")
    order = {status: i for i, status in enumerate(APPLICATION_STATUSES)}
    return counts.sort_values(["status", "job_id"], key=lambda s: s.map(order) if s.name == "status" else s,
                              kind="stable").reset_index(drop=True)


def make_pipeline_figure(df: pd.DataFrame) -> go.Figure:
    """Applications per stage, stacked by job: the funnel at a glance, with every stage on the axis."""
    counts = stage_counts(df)
    if counts.empty:
        return empty_figure("No applications yet")
    stages = [stage_label(s) for s in APPLICATION_STATUSES]
    counts = counts.assign(stage=counts["status"].map(stage_label), job_id=counts["job_id"].map(plotly_text))
    labels = {"stage": "Stage", "applications": "Applications", "job_id": "Job"}
    if counts["job_id"].nunique() == 1:  # one job: the stages in their own colours
        figure = px.bar(counts, x="stage", y="applications", color="stage", category_orders={"stage": stages},
                        color_discrete_map={stage_label(s): c for s, c in STAGE_COLORS.items()}, labels=labels,
                        hover_data={"job_id": True})
        figure.update_layout(showlegend=False)
    else:
        figure = px.bar(counts, x="stage", y="applications", color="job_id", labels=labels,
                        category_orders={"stage": stages, "job_id": sorted(counts["job_id"].unique())},
                        color_discrete_sequence=px.colors.qualitative.Dark24)
        figure.update_layout(legend_title="Job")
    figure.update_xaxes(categoryorder="array", categoryarray=stages)
    figure.update_layout(height=300, barmode="stack", margin=dict(l=10, r=10, t=10, b=10))
    return figure


def make_log_figure(summary: pd.DataFrame) -> go.Figure:
    """Guardrail findings per check (a `log_summary` frame), stacked by severity, the most frequent check on top."""
    if summary.empty:
        return empty_figure("No guardrail finding logged yet")
    severities = [c for c in summary.columns if c not in ("check", "total")]
    checks = [plotly_text(check_label(c)) for c in summary["check"]]
    long = summary.assign(check=checks).melt(id_vars="check", value_vars=severities, var_name="severity",
                                             value_name="findings")
    long = long[long["findings"] > 0]
    figure = px.bar(long, x="findings", y="check", color="severity", orientation="h",
                    color_discrete_map=SEVERITY_COLORS, category_orders={"check": checks, "severity": severities},
                    labels={"findings": "Findings", "check": "Check", "severity": "Severity"})
    figure.update_layout(height=max(220, 80 + 28 * len(checks)), barmode="stack", margin=dict(l=10, r=10, t=10, b=10),
                         legend_title="Severity")
    return figure
