"""The knowledge base page's widgets: index status and re-index, semantic search, the case table."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard.workflows.flink_diagnosis.views import SIMILARITY
from pipelines.core.markup import escape_markdown
from pipelines.core.settings import Settings
from pipelines.flink_diagnosis.categories import CATEGORY_IDS, label
from pipelines.flink_diagnosis.display import SOURCE_LABELS as CASE_SOURCES, confidence_text
from pipelines.flink_diagnosis.knowledge import CASES, DOCS, FlinkKnowledge
from pipelines.flink_diagnosis.settings import flink_settings

SOURCES = ["all", "shipped", "accumulated"]
SOURCE_LABELS = {"all": "All sources", **CASE_SOURCES}
COLLECTION_LABELS = {"cases": "Cases", "docs": "Docs"}


def _category_option(category: str) -> str:
    return "All categories" if category == "all" else label(category)


def index_with_progress(knowledge: FlinkKnowledge, rebuild: bool) -> None:
    bar = st.progress(0.0, text="Indexing the knowledge base…")

    def show(what: str, done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=f"Indexing {what}: {done}/{total}")
    if rebuild:
        knowledge.reindex(show)
    else:
        knowledge.ensure_indexed(show)
    bar.empty()


def render_index_panel(knowledge: FlinkKnowledge, settings: Settings) -> bool:
    """Counts and the index buttons; indexes on first use. False when the knowledge base is still empty."""
    if knowledge.needs_index():
        st.info("The knowledge base has not been indexed on this machine yet; indexing the shipped cases and docs.")
        index_with_progress(knowledge, rebuild=False)
    cols = st.columns(5)
    cols[0].metric("Cases in Chroma", knowledge.kb.count(CASES))
    cols[1].metric("Shipped cases", knowledge.store.case_count(source="shipped"))
    cols[2].metric("Accumulated cases", knowledge.store.case_count(source="accumulated"))
    cols[3].metric("Doc snippets", knowledge.kb.count(DOCS))
    cols[4].metric("Accumulate at", f"≥ {confidence_text(flink_settings(settings).accumulate_threshold)}",
                   help="Diagnoses with at least this confidence become cases (STEPWISE_ACCUMULATE_THRESHOLD).")
    st.caption(f"Chroma: {escape_markdown(knowledge.kb.location, line_breaks=False)} · embedding model "
               f"{escape_markdown(knowledge.kb.model_name, line_breaks=False)}")
    with st.popover("Re-index…"):
        st.caption("Drops both collections and embeds every shipped and accumulated case and every doc again "
                   "(needed after changing the embedding model).")
        if st.button("Re-index now", key="knowledge_reindex", type="primary"):
            index_with_progress(knowledge, rebuild=True)
            st.success("Re-indexed.")
    return not knowledge.needs_index()


def render_search(knowledge: FlinkKnowledge) -> None:
    cols = st.columns([3, 1, 1, 1])
    query = cols[0].text_input("Search by meaning (an error message works best)", key="knowledge_query",
                               placeholder="Checkpoint expired before completing")
    collection = cols[1].radio("In", ["cases", "docs"], horizontal=True, key="knowledge_collection",
                               format_func=COLLECTION_LABELS.get)
    category = cols[2].selectbox("Category", ["all", *CATEGORY_IDS[:-1]], key="knowledge_category",
                                 format_func=_category_option)
    source = cols[3].selectbox("Source", SOURCES, key="knowledge_source", disabled=collection == "docs",
                               format_func=SOURCE_LABELS.get)
    where: dict[str, Any] = {}
    if category != "all":
        where["category"] = category
    if source != "all" and collection == "cases":
        where["source"] = source
    if not query.strip():
        st.caption("Type a query to search; the Cases tab lists everything. Latest cases learned from diagnoses:")
        recent = sorted(knowledge.store.list_cases(source="accumulated", limit=500),
                        key=lambda c: str(c.get("created_at")), reverse=True)[:10]
        if recent:
            st.dataframe(pd.DataFrame([{"Case": c["case_id"], "Added": c.get("created_at"),
                                        "Category": label(c.get("category") or "unknown"),
                                        "Hits": c.get("hit_count") or 0,
                                        "Confidence": confidence_text(c.get("confidence")),
                                        "Root cause": c.get("root_cause") or ""}
                                       for c in recent]), hide_index=True, width="stretch")
        else:
            st.info("No case has been accumulated yet: diagnoses with confidence at or above the threshold add them.")
        return
    hits = knowledge.kb.search(CASES if collection == "cases" else DOCS, query, k=10, where=where or None)
    if not hits:
        st.info(f"Nothing matches “{escape_markdown(query.strip(), line_breaks=False)}” with these filters.")
        return
    st.caption(f"The {len(hits)} {COLLECTION_LABELS[collection].lower()} closest in meaning to "
               f"“{escape_markdown(query.strip(), line_breaks=False)}”:")
    frame = pd.DataFrame([{"ID": h.id, "Similarity": round(h.score, 4),
                           "Category": label(h.metadata.get("category") or "unknown"),
                           "Source": SOURCE_LABELS.get(h.metadata.get("source"), "Documentation"),
                           "Title / root cause": h.metadata.get("title") or h.metadata.get("root_cause") or "",
                           "Text": h.document[:300]} for h in hits])
    st.dataframe(frame, hide_index=True, width="stretch", column_config={"Similarity": SIMILARITY})


def render_case_table(store: Any) -> None:
    cols = st.columns([1, 1, 2])
    category = cols[0].selectbox("Category", ["all", *CATEGORY_IDS[:-1]], key="knowledge_cases_category",
                                 format_func=_category_option)
    source = cols[1].selectbox("Source", SOURCES, key="knowledge_cases_source", format_func=SOURCE_LABELS.get)
    search = cols[2].text_input("Text in pattern, cause or fix", key="knowledge_cases_search")
    cases = store.list_cases(category=None if category == "all" else category,
                             source=None if source == "all" else source, search=search or None, limit=2000)
    columns = ["Case", "Category", "Source", "Hits", "Confidence", "Added", "Error pattern", "Root cause"]
    frame = pd.DataFrame([{"Case": c["case_id"], "Category": label(c.get("category") or "unknown"),
                           "Source": SOURCE_LABELS.get(c["source"], c["source"]), "Hits": c.get("hit_count") or 0,
                           "Confidence": confidence_text(c.get("confidence")), "Added": c.get("created_at"),
                           "Error pattern": (c.get("error_pattern") or "")[:200],
                           "Root cause": c.get("root_cause") or ""} for c in cases], columns=columns)
    st.caption(f"{len(frame)} case(s). Accumulated cases come from confident diagnoses; an identical error "
               "pattern raises the hit count instead of adding a duplicate.")
    st.dataframe(frame.sort_values("Added", ascending=False) if not frame.empty else frame, hide_index=True,
                 width="stretch")
