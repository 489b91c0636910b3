"""Charts laid out on a page: several side by side, each under its title."""

import plotly.graph_objects as go
import streamlit as st


def side_by_side(*charts: tuple[str, go.Figure, str]) -> None:
    """Charts in columns, each under its title: (title, figure, widget key)."""
    for column, (title, figure, key) in zip(st.columns(len(charts)), charts):
        with column:
            st.markdown(title)
            st.plotly_chart(figure, key=key, width="stretch")
