"""Stepwise dashboard entry point: page config and navigation over the pages in app_pages/."""

import sys
from pathlib import Path

# `streamlit run dashboard/app.py` puts dashboard/ on the path; the packages live one level up.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

st.set_page_config(page_title="Stepwise", page_icon=":material/stairs:", layout="wide")

PAGES = Path(__file__).parent / "app_pages"
navigation = st.navigation({
    "Stepwise": [st.Page(PAGES / "home.py", title="Home", icon=":material/home:", default=True)],
    "Workflows": [st.Page(PAGES / "career_navigator.py", title="CareerNavigator", icon=":material/explore:",
                          url_path="career_navigator"),
                  st.Page(PAGES / "flink_diagnosis.py", title="Flink diagnosis", icon=":material/local_fire_department:",
                          url_path="flink_diagnosis"),
                  st.Page(PAGES / "ican.py", title="iCan career guidance", icon=":material/psychology:", url_path="ican")],
    "Flink": [st.Page(PAGES / "flink_queue.py", title="Exception queue", icon=":material/inbox:", url_path="flink_queue"),
              st.Page(PAGES / "flink_results.py", title="Diagnosis results", icon=":material/bar_chart:", url_path="flink_results"),
              st.Page(PAGES / "knowledge.py", title="Knowledge base", icon=":material/menu_book:", url_path="knowledge")],
    "Studio": [st.Page(PAGES / "runs.py", title="Runs", icon=":material/history:", url_path="runs"),
               st.Page(PAGES / "metrics.py", title="Metrics", icon=":material/monitoring:", url_path="metrics")],
    "Setup": [st.Page(PAGES / "settings.py", title="Settings", icon=":material/settings:", url_path="settings")],
})
navigation.run()
