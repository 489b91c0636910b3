"""iCan's figures and frames, pure functions of data: the RIASEC radar and the matches table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from dashboard.components.metrics_charts import empty_figure
from pipelines.ican.riasec import type_name
from pipelines.ican.schemas import RIASEC

MATCH_COLUMNS = ["rank", "onet_soc_code", "title", "title_zh", "high_point_code", "score", "interest_fit",
                 "skill_overlap", "reason"]


def riasec_frame(scores: Mapping[str, Any], lang: str = "en") -> pd.DataFrame:
    return pd.DataFrame([{"type": t, "name": f"{t} {type_name(t, lang)}", "score": float(scores.get(t, 0) or 0)}
                         for t in RIASEC] if scores else [], columns=["type", "name", "score"])


def make_riasec_figure(df: pd.DataFrame) -> go.Figure:
    """The six Holland scores (0–100) on a closed radar."""
    if df.empty:
        return empty_figure("No RIASEC profile yet: it comes after the guide hands off.")
    names, values = list(df["name"]), list(df["score"])
    figure = go.Figure(go.Scatterpolar(r=values + values[:1], theta=names + names[:1], fill="toself",
                                       line={"color": "#2563eb"}, fillcolor="rgba(37,99,235,0.25)",
                                       hovertemplate="%{theta}: %{r:.0f}<extra></extra>"))
    figure.update_layout(polar={"radialaxis": {"range": [0, 100], "tickvals": [25, 50, 75, 100]}},
                         showlegend=False, height=380, margin={"l": 60, "r": 60, "t": 30, "b": 30})
    return figure


def matches_frame(matches: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    rows = [{"rank": i + 1, **{k: m.get(k) for k in MATCH_COLUMNS if k != "rank"},
             "skill_overlap": ", ".join(m.get("skill_overlap") or [])} for i, m in enumerate(matches)]
    return pd.DataFrame(rows, columns=MATCH_COLUMNS)
