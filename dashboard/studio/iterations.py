"""Iterations tab: each loop counter against its limit, now and over the steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from dashboard.studio.metrics_charts import counter_frame, make_counter_figure
from pipelines.core.markup import escape_markdown
from pipelines.core.trace.records import StepRecord


def render_counter_bar(name: str, counter: Mapping[str, Any], *, explain_limit: bool = False) -> None:
    """One counter against its limit; a value that is no count within its limit is said, not drawn."""
    limit, value = counter.get("limit"), int(counter.get("value") or 0)
    text = f"**{escape_markdown(counter['label'])}** (`{name}`): {value} / {limit if limit else '∞'}"
    if counter.get("problem"):
        st.warning(f"{counter['label']}: {counter['problem']}. The bar cannot show it.", icon=":material/report:")
    elif limit:
        st.progress(max(0.0, min(1.0, value / limit)), text=text)
        if explain_limit and value >= limit:
            st.caption(f"`{name}` reached its limit: the workflow moves on instead of looping again.")
    else:
        st.markdown(text)


def render_iterations(counters: Mapping[str, Mapping[str, Any]], records: Sequence[StepRecord], key: str) -> None:
    if not counters:
        st.info("This workflow declares no loop counters.")
        return
    for name, counter in counters.items():
        render_counter_bar(name, counter, explain_limit=True)
    limits = {name: c.get("limit") for name, c in counters.items()}
    st.plotly_chart(make_counter_figure(counter_frame(records, limits)), key=key, width="stretch")
