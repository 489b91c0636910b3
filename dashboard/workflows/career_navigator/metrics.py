"""CareerNavigator's tab of the Metrics page: the client's satisfaction at each feedback round, across runs."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from sqlalchemy.engine import Engine

from dashboard.studio.metrics_charts import empty_figure
from dashboard.studio.run_metrics_charts import MARGIN
from pipelines.career_navigator.satisfaction import satisfaction_frame
from pipelines.career_navigator.state import SATISFACTION_SCORE
from pipelines.core.trace.run_metrics import RunFilter


def make_satisfaction_figure(satisfaction: pd.DataFrame) -> go.Figure:
    """The client's satisfaction at each feedback round: a thin line per run, the mean over runs in bold."""
    if satisfaction.empty:
        return empty_figure("No CareerNavigator feedback in the selected runs")
    figure = go.Figure()
    many = satisfaction["thread_id"].nunique() > 12
    for thread_id, run in satisfaction.groupby("thread_id", sort=False):
        figure.add_scatter(x=run["round"], y=run["score"], mode="lines+markers", opacity=0.6, showlegend=not many,
                           name=f"{run['title'].iloc[0]} · {thread_id[:6]}", customdata=run[["level", "about"]],
                           marker={"symbol": ["square" if a == "plan" else "circle" for a in run["about"]]},
                           hovertemplate="round %{x}: %{customdata[0]} (%{customdata[1]})")
    mean = satisfaction.groupby("round", as_index=False)["score"].mean()
    figure.add_scatter(x=mean["round"], y=mean["score"], mode="lines+markers", name="mean",
                       line={"color": "#0f172a", "width": 4, "dash": "dash"})
    figure.update_yaxes(range=[-0.05, 1.05], tickvals=list(SATISFACTION_SCORE.values()),
                        ticktext=[level.replace("_", " ") for level in SATISFACTION_SCORE])
    figure.update_xaxes(title="feedback round (circle: the report, square: the plan)", dtick=1)
    figure.update_layout(height=360, margin=MARGIN)
    return figure


def render_satisfaction_tab(engine: Engine, run_filter: RunFilter) -> None:
    satisfaction = satisfaction_frame(engine, run_filter)
    st.markdown("**CareerNavigator: the client's satisfaction** at each feedback round")
    st.plotly_chart(make_satisfaction_figure(satisfaction), key="metrics_satisfaction", width="stretch")
    if not satisfaction.empty:
        first = satisfaction.groupby("thread_id")["score"].first().mean()
        last = satisfaction.groupby("thread_id")["score"].last().mean()
        st.caption(f"Mean satisfaction moved from {first:.2f} at the first round to {last:.2f} at the last "
                   f"(0 very dissatisfied, 1 very satisfied), over {satisfaction['thread_id'].nunique()} run(s).")
