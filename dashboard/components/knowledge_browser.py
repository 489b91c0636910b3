"""The knowledge base page's widgets: index status and re-index, semantic search, the case table."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from dashboard.components.flink_views import SIMILARITY
from pipelines.core.settings import Settings
from pipelines.flink_diagnosis.categories import CATEGORY_IDS, label
from pipelines.flink_diagnosis.knowledge import CASES, DOCS, FlinkKnowledge


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
    cols[4].metric("Accumulate at", f"≥ {settings.accumulate_threshold:.2f}")
    st.caption(f"Chroma: `{knowledge.kb.location}` · embedding model `{knowledge.kb.model_name}`")
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
    collection = cols[1].radio("In", ["cases", "docs"], horizontal=True, key="knowledge_collection")
    category = cols[2].selectbox("Category", ["all", *CATEGORY_IDS[:-1]], key="knowledge_category",
                                 format_func=lambda c: "all" if c == "all" else label(c))
    source = cols[3].selectbox("Source", ["all", "shipped", "accumulated"], key="knowledge_source",
                               disabled=collection == "docs")
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
            st.dataframe(pd.DataFrame([{"case": c["case_id"], "added": c.get("created_at"),
                                        "category": label(c.get("category") or ""), "hits": c.get("hit_count", 0),
                                        "confidence": c.get("confidence"), "root cause": c.get("root_cause")}
                                       for c in recent]), hide_index=True, width="stretch")
        else:
            st.info("No case has been accumulated yet: diagnoses with confidence at or above the threshold add them.")
        return
    hits = knowledge.kb.search(CASES if collection == "cases" else DOCS, query, k=10, where=where or None)
    if not hits:
        st.info("Nothing matches these filters.")
        return
    frame = pd.DataFrame([{"id": h.id, "similarity": round(h.score, 4), "category": label(h.metadata.get("category", "")),
                           "source": h.metadata.get("source", "doc"),
                           "title / root cause": h.metadata.get("title") or h.metadata.get("root_cause", ""),
                           "text": h.document[:300]} for h in hits])
    st.dataframe(frame, hide_index=True, width="stretch", column_config={"similarity": SIMILARITY})


def render_case_table(store: Any) -> None:
    cols = st.columns([1, 1, 2])
    category = cols[0].selectbox("Category", ["all", *CATEGORY_IDS[:-1]], key="knowledge_cases_category",
                                 format_func=lambda c: "all" if c == "all" else label(c))
    source = cols[1].selectbox("Source", ["all", "shipped", "accumulated"], key="knowledge_cases_source")
    search = cols[2].text_input("Text in pattern, cause or fix", key="knowledge_cases_search")
    cases = store.list_cases(category=None if category == "all" else category,
                             source=None if source == "all" else source, search=search or None, limit=2000)
    frame = pd.DataFrame([{"case": c["case_id"], "category": label(c.get("category") or ""), "source": c["source"],
                           "hits": c.get("hit_count", 0), "confidence": c.get("confidence"),
                           "added": c.get("created_at"), "error pattern": (c.get("error_pattern") or "")[:200],
                           "root cause": c.get("root_cause") or ""} for c in cases],
                         columns=["case", "category", "source", "hits", "confidence", "added", "error pattern",
                                  "root cause"])
    st.caption(f"{len(frame)} case(s). Accumulated cases come from confident diagnoses; an identical error "
               "pattern raises the hit count instead of adding a duplicate.")
    st.dataframe(frame.sort_values("added", ascending=False) if not frame.empty else frame, hide_index=True,
                 width="stretch")
