"""Runs: every thread across workflows; reopen, rename or delete one; compare two side by side."""

import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboard import services
from dashboard.studio.flash import show_flash
from dashboard.navigation import workflow_page
from dashboard.studio.run_actions import render_run_actions
from dashboard.studio.run_compare import render_run_compare
from dashboard.studio.run_table import render_run_filters, render_run_table, runs_frame
from pipelines.core.registry import built_workflows

LIMIT = 500  # newest runs listed; the filters reach older ones

st.title("Runs")
st.caption("Every run of every workflow, newest first. Select a row to reopen, rename or delete it; the Compare "
           "tab puts two runs side by side.")
show_flash()

try:
    studio = services.studio()
    runs = studio.runs
    everything = runs.thread_summaries(limit=LIMIT)
    if not everything:
        st.info("No run is stored yet. Start one on a workflow page (or with `python -m pipelines run "
                "career_navigator --scenario seed_example`), and it is listed here.", icon=":material/info:")
        for entry in built_workflows():
            try:
                st.page_link(workflow_page(entry.id), label=f"Open {entry.title}", icon=":material/play_arrow:")
            except StreamlitAPIException:  # the page alone, outside the app's navigation
                st.markdown(f"- {entry.title}")
        st.stop()

    listed, compare = st.tabs(["All runs", "Compare"], key="runs_tab", on_change="rerun")
    with listed:
        if listed.open:
            known = [entry.id for entry in built_workflows()]
            pipelines = known + sorted({s.pipeline for s in everything} - set(known))
            pipeline, status, search = render_run_filters(pipelines)
            filtered = (runs.thread_summaries(pipeline, LIMIT, status=status, search=search)
                        if pipeline or status or search else everything)
            more = f" (the newest {LIMIT}; narrow the filters to reach older runs)" if len(filtered) == LIMIT else ""
            st.caption(f"{len(filtered)} run(s){more}.")
            if filtered:
                selected = render_run_table(runs_frame(filtered))
                chosen = next((s for s in filtered if s.thread_id == selected), None)
                if chosen is None:
                    st.caption("Select a row to reopen, rename or delete that run.")
                else:
                    render_run_actions(chosen, studio)
            else:
                st.info("No run matches these filters.")
    with compare:
        if compare.open:
            render_run_compare(everything)
except services.storage_errors() as exc:
    services.storage_failure(exc)
