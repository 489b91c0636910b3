"""Home: what Stepwise is, and the registered workflows as cards (those not built yet marked as coming)."""

import streamlit as st

from dashboard import services
from pipelines.core.markup import escape_markdown
from dashboard.navigation import workflow_page
from pipelines.core.registry import built_workflows, workflows

st.title("Stepwise")
st.markdown(
    "See inside an LLM workflow. Stepwise drives LangGraph workflows **one super-step at a time**: every state "
    "field as it evolves, loop counters against their limits, per-node timings and model usage, and every "
    "checkpoint kept so a run can be rewound and continued. It works offline with no API key; a real model is "
    "a setting.")
settings = services.current_settings()
st.caption(escape_markdown(f"Provider: {settings.provider_label} · data directory: {settings.data_path.resolve()}"))

try:
    runs = services.studio(settings).runs
    counts = {entry.id: len(runs.list_threads(entry.id)) for entry in built_workflows()}
except services.storage_errors() as exc:
    services.storage_failure(exc)
columns = st.columns(3)
for index, entry in enumerate(workflows()):
    with columns[index % 3].container(border=True):
        st.subheader(entry.title)
        st.caption(f"For {entry.audience}")
        st.write(entry.summary)
        if entry.built:
            st.page_link(workflow_page(entry.id), label=f"Open {entry.title} →", icon="▶️")
            st.caption(f"{counts[entry.id]} run(s) stored")
        else:
            st.info("Coming: not built yet.", icon=":material/construction:")
