"""Stepwise dashboard entry point: page config and the navigation that dashboard/navigation.py builds."""

import streamlit as st

from dashboard.navigation import app_pages

st.set_page_config(page_title="Stepwise", page_icon=":material/stairs:", layout="wide")
st.navigation(app_pages()).run()
