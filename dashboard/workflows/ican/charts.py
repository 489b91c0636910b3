"""iCan's figures and frames, pure functions of data: the RIASEC radar and the matches table with its labels."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.studio.metrics_charts import empty_figure
from pipelines.ican.riasec import type_name
from pipelines.ican.schemas import RIASEC

MATCH_COLUMNS = ["rank", "onet_soc_code", "title", "title_zh", "high_point_code", "score", "interest_fit",
                 "skill_overlap", "reason"]
COLUMN_LABELS = {"rank": ("排名", "Rank"), "onet_soc_code": ("O*NET 代码", "O*NET code"),
                 "title": ("O*NET 职业名称", "Occupation"), "title_zh": ("职业", "Chinese title"),
                 "high_point_code": ("兴趣代码", "Interest code"), "score": ("匹配度", "Score"),
                 "interest_fit": ("兴趣契合度", "Interest fit"), "skill_overlap": ("共同技能", "Shared skills"),
                 "reason": ("理由", "Why")}
SHOWN_COLUMNS = {"en": ("rank", "title", "high_point_code", "score", "skill_overlap", "reason"),
                 "zh": ("rank", "title_zh", "title", "high_point_code", "score", "skill_overlap", "reason")}


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


def matches_table(matches: Iterable[Mapping[str, Any]], lang: str = "en") -> tuple[pd.DataFrame, dict[str, Any]]:
    """The matches as the counselor reads them: labelled columns (Chinese in a Chinese session, with the Chinese
    title first), and the column settings for st.dataframe."""
    columns = SHOWN_COLUMNS["zh" if lang == "zh" else "en"]
    labels = {name: COLUMN_LABELS[name][0 if lang == "zh" else 1] for name in columns}
    frame = matches_frame(matches)[list(columns)].rename(columns=labels)
    config = {labels["score"]: st.column_config.NumberColumn(format="%.2f"),
              labels["rank"]: st.column_config.NumberColumn(width="small")}
    return frame, config
