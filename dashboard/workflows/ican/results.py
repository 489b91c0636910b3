"""iCan's Results tab: the RIASEC radar and its evidence, the O*NET matches, the report and its PDF."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.workflows.ican.charts import make_riasec_figure, matches_table, riasec_frame
from dashboard.studio.workflow_page import demote_headings
from pipelines.core.markup import escape_markdown, sanitize_markdown
from pipelines.core.runtime.session import Session
from pipelines.ican.riasec import type_name

KEY = "ican"


def _target_line(target: dict[str, Any]) -> str:
    zh = f" ({escape_markdown(target['title_zh'])})" if target.get("title_zh") else ""
    return (f"The career the client named, **{escape_markdown(target.get('title', ''))}**{zh}, ranks "
            f"{target.get('rank', '?')} of {target.get('of', '?')} (score {float(target.get('score') or 0):.2f}, "
            f"interest code {escape_markdown(target.get('high_point_code', ''))}).")


def render_results_tab(session: Session) -> None:
    values = session.values()
    lang = values.get("language") if values.get("language") in ("en", "zh") else "en"
    scores = values.get("riasec_scores") or {}
    code = str(values.get("holland_code") or "")
    left, right = st.columns([3, 2])
    with left:
        st.markdown("**RIASEC profile**")
        st.plotly_chart(make_riasec_figure(riasec_frame(scores, lang)), key=f"{KEY}_radar", width="stretch")
    with right:
        st.metric("Holland code", code or "—")
        for letter, quotes in (values.get("riasec_evidence") or {}).items():
            if quotes and len(letter) == 1 and letter in code:  # the client's own words: shown as they wrote them
                st.caption(f"**{escape_markdown(letter)}** {type_name(letter, lang)} · " +
                           " · ".join(f"“{escape_markdown(q, line_breaks=False)}”" for q in quotes[:3]))
    matches = values.get("career_matches") or []
    st.markdown("**Career matches** (O\\*NET 30.2, top 10)")
    if matches:
        table, config = matches_table(matches, lang)
        st.dataframe(table, hide_index=True, key=f"{KEY}_matches", width="stretch", column_config=config)
    else:
        st.caption("The matches come after the profile analyzer.")
    target = values.get("target_match")
    if target:
        st.info(_target_line(target))
    if values.get("final_report"):
        with st.container(border=True):
            # Written by the reporter (a model, with a real provider): its formatting kept, nothing that reaches out.
            st.markdown(demote_headings(sanitize_markdown(values["final_report"]), 1))
        pdf = session.spec.pdf(values)
        st.download_button("Download the PDF report", data=pdf, mime="application/pdf", key=f"{KEY}_pdf",
                           file_name=f"ican-report-{str(values.get('session_id', 'session'))[:8]}.pdf", type="primary",
                           on_click="ignore")
