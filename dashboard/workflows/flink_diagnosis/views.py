"""Flink widgets: the diagnosis card, the retrieved cases and docs with their similarity, the knowledge hits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import services
from dashboard.workflows.flink_diagnosis import stores
from pipelines.core.markup import escape_markdown
from pipelines.core.runtime.session import Session
from pipelines.flink_diagnosis.categories import label
from pipelines.flink_diagnosis.display import (SOURCE_LABELS, confidence_text, text_markdown, threshold_verdict,
                                               unique)
from pipelines.flink_diagnosis.patterns import headline
from pipelines.flink_diagnosis.settings import flink_settings

PRIORITY_BADGES = {"high": "▲ high", "medium": "■ medium", "low": "▽ low"}


def render_diagnosis_card(result: Mapping[str, Any] | None, error: str | None = None) -> None:
    """Category, priority and confidence; the model's (or the engine's) texts are escaped: they quote the
    user's exception, so a link or image in it shows as the characters it is."""
    if not result:
        if error:
            st.error(f"Diagnosis failed: {escape_markdown(error)}")
        else:
            st.info("No diagnosis yet: step the run to `diagnose`.")
        return
    threshold = flink_settings(services.current_settings()).accumulate_threshold
    with st.container(border=True):
        # Category labels are long: a heading, not a metric tile, so they are never cut.
        st.markdown(f"#### {label(result.get('category', 'unknown'))}")
        cols = st.columns(2)
        priority = str(result.get("priority") or "")
        cols[0].metric("Priority", PRIORITY_BADGES.get(priority, priority or "—"))
        cols[1].metric("Confidence", confidence_text(result.get("confidence")),
                       help=f"Diagnoses with confidence ≥ {confidence_text(threshold)} (the accumulate threshold) "
                            "become knowledge-base cases; this one has "
                            f"{threshold_verdict(result.get('confidence'), threshold)}.")
        st.markdown(f"**Root cause** — {text_markdown(result.get('root_cause'))}")
        st.markdown("**Suggested fix**")
        st.markdown(text_markdown(result.get("suggested_fix")))
        with st.expander("Detailed analysis"):
            st.markdown(text_markdown(result.get("detailed_analysis")))
        if docs := unique(result.get("related_docs") or []):
            st.markdown("**Related docs**\n" + "\n".join(f"- {escape_markdown(doc, line_breaks=False)}"
                                                         for doc in docs))


def cases_frame(cases: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{"Case": c.get("case_id") or "—", "Similarity": c.get("similarity"),
                          "Category": label(c.get("category") or "unknown"),
                          "Source": SOURCE_LABELS.get(c.get("source"), c.get("source") or "—"),
                          "Root cause": c.get("root_cause") or ""} for c in cases],
                        columns=["Case", "Similarity", "Category", "Source", "Root cause"])


def docs_frame(docs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{"Document": d.get("title") or "—", "Similarity": d.get("similarity"),
                          "Category": label(d.get("category") or "unknown"), "Link": d.get("url") or None}
                         for d in docs], columns=["Document", "Similarity", "Category", "Link"])


SIMILARITY = st.column_config.ProgressColumn("Similarity", min_value=0.0, max_value=1.0, format="%.2f")
# Three decimals, as display.confidence_text: a 0.795 next to a 0.80 threshold is never drawn as 0.80.
CONFIDENCE = st.column_config.ProgressColumn("Confidence", min_value=0.0, max_value=1.0, format="%.3f")


def render_context(context: Mapping[str, Any] | None) -> None:
    if not context:
        st.info("Nothing retrieved yet: step the run to `retrieve`.")
        return
    if context.get("error"):
        st.warning(f"Retrieval failed, so the diagnosis ran without context: {escape_markdown(context['error'])}")
    st.markdown("**Similar cases** (top 3, filtered by error type when it is specific)")
    st.dataframe(cases_frame(context.get("cases") or []), hide_index=True, width="stretch",
                 column_config={"Similarity": SIMILARITY})
    st.markdown("**Documentation**")
    st.dataframe(docs_frame(context.get("docs") or []), hide_index=True, width="stretch",
                 column_config={"Similarity": SIMILARITY, "Link": st.column_config.LinkColumn("Link")})
    with st.expander("Query"):
        st.code(context.get("query", ""), language=None, wrap_lines=True)


def render_diagnosis_tab(session: Session) -> None:
    values = session.values()
    job = values.get("job_info") or {}
    if job:
        name = f" ({escape_markdown(job['job_name'], line_breaks=False)})" if job.get("job_name") else ""
        st.markdown(f"**Exception {job.get('exception_id')}** · job "
                    f"{escape_markdown(job.get('job_id') or '—', line_breaks=False)}{name} · "
                    f"attempt {job.get('attempts', 1)}")
        st.code(headline(job.get("error_message", ""), 400), language=None, wrap_lines=True)
    elif values.get("status") == "completed":
        st.info("No exception was pending in the queue, so the run ended after `collect`.")
    render_diagnosis_card(values.get("diagnosis_result"), values.get("error"))
    added = values.get("accumulated_case")
    if added:
        case = f" — {escape_markdown(added['case_id'], line_breaks=False)}" if added.get("case_id") else ""
        (st.success if added.get("added") else st.caption)(
            f"Knowledge base: {escape_markdown(added.get('reason'))}{case}")
    if job and values.get("status") in ("completed", "failed"):
        _pdf_button(session, int(job["exception_id"]))


def _pdf_button(session: Session, exception_id: int) -> None:
    from pipelines.flink_diagnosis.pdf_report import diagnosis_pdf

    row = stores.flink_store(session.settings).get(exception_id)
    if row is not None:
        st.download_button("Download this diagnosis as PDF", data=diagnosis_pdf([row]), mime="application/pdf",
                           file_name=f"flink-diagnosis-{exception_id}.pdf", key="flink_diagnosis_pdf", on_click="ignore")


def render_context_tab(session: Session) -> None:
    render_context(session.values().get("retrieved_context"))
