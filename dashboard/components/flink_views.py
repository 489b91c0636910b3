"""Flink widgets: the diagnosis card, the retrieved cases and docs with their similarity, the knowledge hits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import services
from pipelines.core.session import Session
from pipelines.flink_diagnosis.categories import label
from pipelines.flink_diagnosis.patterns import headline

PRIORITY_BADGES = {"high": "▲ high", "medium": "■ medium", "low": "▽ low"}


def render_diagnosis_card(result: Mapping[str, Any] | None, error: str | None = None) -> None:
    if not result:
        if error:
            st.error(f"Diagnosis failed: {error}")
        else:
            st.info("No diagnosis yet: step the run to `diagnose`.")
        return
    with st.container(border=True):
        # Category labels are long: a heading, not a metric tile, so they are never cut.
        st.markdown(f"#### {label(result.get('category', 'unknown'))}")
        cols = st.columns(2)
        cols[0].metric("Priority", PRIORITY_BADGES.get(result.get("priority", ""), result.get("priority", "")))
        cols[1].metric("Confidence", f"{float(result.get('confidence') or 0):.0%}")
        st.markdown(f"**Root cause** — {result.get('root_cause', '')}")
        st.markdown("**Suggested fix**")
        st.markdown(result.get("suggested_fix", ""))
        with st.expander("Detailed analysis"):
            st.write(result.get("detailed_analysis", ""))
        if result.get("related_docs"):
            st.markdown("**Related docs**\n" + "\n".join(f"- {doc}" for doc in result["related_docs"]))


def cases_frame(cases: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{"case": c.get("case_id"), "similarity": c.get("similarity"),
                          "category": label(c.get("category") or ""), "source": c.get("source", ""),
                          "root cause": c.get("root_cause", "")} for c in cases],
                        columns=["case", "similarity", "category", "source", "root cause"])


def docs_frame(docs: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{"doc": d.get("title"), "similarity": d.get("similarity"),
                          "category": label(d.get("category") or ""), "url": d.get("url")} for d in docs],
                        columns=["doc", "similarity", "category", "url"])


SIMILARITY = st.column_config.ProgressColumn("similarity", min_value=0.0, max_value=1.0, format="%.2f")


def render_context(context: Mapping[str, Any] | None) -> None:
    if not context:
        st.info("Nothing retrieved yet: step the run to `retrieve`.")
        return
    if context.get("error"):
        st.warning(f"Retrieval failed, so the diagnosis ran without context: {context['error']}")
    st.markdown("**Similar cases** (top 3, filtered by error type when it is specific)")
    st.dataframe(cases_frame(context.get("cases") or []), hide_index=True, width="stretch",
                 column_config={"similarity": SIMILARITY})
    st.markdown("**Documentation**")
    st.dataframe(docs_frame(context.get("docs") or []), hide_index=True, width="stretch",
                 column_config={"similarity": SIMILARITY, "url": st.column_config.LinkColumn("url")})
    with st.expander("Query"):
        st.code(context.get("query", ""), language=None, wrap_lines=True)


def render_diagnosis_tab(session: Session) -> None:
    values = session.values()
    job = values.get("job_info") or {}
    if job:
        st.markdown(f"**Exception {job.get('exception_id')}** · job `{job.get('job_id')}` "
                    f"{job.get('job_name') or ''} · attempt {job.get('attempts', 1)}")
        st.code(headline(job.get("error_message", ""), 400), language=None, wrap_lines=True)
    elif values.get("status") == "completed":
        st.info("No exception was pending in the queue, so the run ended after `collect`.")
    render_diagnosis_card(values.get("diagnosis_result"), values.get("error"))
    added = values.get("accumulated_case")
    if added:
        (st.success if added.get("added") else st.caption)(
            f"Knowledge base: {added.get('reason')}" + (f" — `{added['case_id']}`" if added.get("case_id") else ""))
    if job and values.get("status") in ("completed", "failed"):
        _pdf_button(session, int(job["exception_id"]))


def _pdf_button(session: Session, exception_id: int) -> None:
    from pipelines.flink_diagnosis.pdf_report import diagnosis_pdf

    row = services.flink_store(session.settings).get(exception_id)
    if row is not None:
        st.download_button("Download this diagnosis as PDF", data=diagnosis_pdf([row]), mime="application/pdf",
                           file_name=f"flink-diagnosis-{exception_id}.pdf", key="flink_diagnosis_pdf")


def render_context_tab(session: Session) -> None:
    render_context(session.values().get("retrieved_context"))
