"""Iterations tab: each loop counter against its limit, now and over the steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from dashboard.components.metrics_charts import counter_frame, make_counter_figure
from pipelines.core.trace import StepRecord


def render_iterations(counters: Mapping[str, Mapping[str, Any]], records: Sequence[StepRecord], key: str) -> None:
    if not counters:
        st.info("This workflow declares no loop counters.")
        return
    for name, counter in counters.items():
        limit = counter.get("limit")
        value = int(counter.get("value") or 0)
        text = f"**{counter['label']}** (`{name}`): {value} / {limit if limit else '∞'}"
        if limit:
            st.progress(min(1.0, value / limit), text=text)
            if value >= limit:
                st.caption(f"`{name}` reached its limit: the workflow moves on instead of looping again.")
        else:
            st.markdown(text)
    limits = {name: c.get("limit") for name, c in counters.items()}
    st.plotly_chart(make_counter_figure(counter_frame(records, limits)), key=key, width="stretch")
