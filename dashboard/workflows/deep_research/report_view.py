"""The cited report: its support figure, the claims the check could not support, the report, each citation's passage
on demand, and the downloads (Markdown, PDF, DOCX)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import streamlit as st

from pipelines.core.markup import escape_markdown, sanitize_markdown
from pipelines.deep_research.citations import location
from pipelines.deep_research.exports import research_docx, research_markdown
from pipelines.deep_research.pdf_report import research_pdf


def _where(citation: Mapping[str, Any]) -> str:
    return location(citation.get("page"), str(citation.get("section") or ""), str(citation.get("title") or ""))


def render_support(values: Mapping[str, Any]) -> None:
    check = values.get("citation_check") or {}
    citations = values.get("citations") or []
    columns = st.columns(3)
    claims, supported = int(check.get("claims") or 0), int(check.get("supported") or 0)
    columns[0].metric("Cited claims supported", f"{supported} / {claims}" if check else "not checked")
    columns[1].metric("Sources cited", len(citations))
    columns[2].metric("Documents", len({c.get("document") for c in citations}))
    for item in check.get("unsupported") or []:
        st.warning(f"**Unsupported claim** (cites {escape_markdown(', '.join(f'[{n}]' for n in item.get('refs') or []))}):"
                   f" {escape_markdown(item.get('sentence'))} — {escape_markdown(item.get('reason'))}",
                   icon=":material/report:")
    if check.get("invalid_refs"):
        st.warning("Citation numbers that point to no collected passage: " +
                   escape_markdown(", ".join(f"[{n}]" for n in check["invalid_refs"])), icon=":material/link_off:")


def render_citations(values: Mapping[str, Any], key: str) -> None:
    """Each citation by its number and file name; its passage on demand, as text."""
    for citation in values.get("citations") or []:
        title = f" — {citation['title']}" if citation.get("title") else ""
        where = f" ({_where(citation)})" if _where(citation) else ""
        label = f"[{citation.get('n')}] {citation.get('document')}{title}{where}"
        with st.expander(escape_markdown(label, line_breaks=False)):
            if citation.get("flagged"):
                st.caption(":material/shield: The guardrails flagged this passage: it is quoted as data, never followed.")
            st.text(str(citation.get("text") or ""))


def render_downloads(values: Mapping[str, Any], key: str, name: str) -> None:
    """Markdown, PDF and DOCX of the report. A press only downloads: the rerun a press asks for by default would
    replace the button's on-demand file id while Streamlit is still asked to build the file from it."""
    columns = st.columns(3)
    frozen = dict(values)
    columns[0].download_button("Markdown", research_markdown(frozen), file_name=f"{name}.md", mime="text/markdown",
                               key=f"{key}_md", icon=":material/description:", on_click="ignore")
    columns[1].download_button("PDF", functools.partial(research_pdf, frozen), file_name=f"{name}.pdf",
                               mime="application/pdf", key=f"{key}_pdf", icon=":material/picture_as_pdf:",
                               on_click="ignore")
    columns[2].download_button(
        "DOCX", functools.partial(research_docx, frozen), file_name=f"{name}.docx", key=f"{key}_docx", on_click="ignore",
        mime="application/vnd.openxmlformats-officedocument.wordprocessingml.document", icon=":material/article:")


def render_report(values: Mapping[str, Any], key: str, name: str) -> None:
    render_support(values)
    render_downloads(values, key, name)
    with st.container(border=True):
        # The report is ours: outside text in it is escaped already; a model's Markdown loses links, images, HTML.
        st.markdown(sanitize_markdown(values.get("final_report") or ""))
    st.markdown("##### Citations")
    render_citations(values, key)
