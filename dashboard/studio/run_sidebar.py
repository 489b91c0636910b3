"""Sidebar of a workflow page: provider badge, the run picker, a new run from a scenario, breakpoints."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import streamlit as st

from dashboard import services
from dashboard.state_keys import FLASH, THREAD_PARAM, page_key
from pipelines.core.markup import escape_markdown
from pipelines.core.errors import InvalidInput
from pipelines.core.spec import PipelineSpec
from pipelines.core.storage.runstore import ThreadInfo

NEW_RUN = "__new__"


def _thread_label(info: ThreadInfo) -> str:
    when = dt.datetime.fromtimestamp(info.updated_at).strftime("%m-%d %H:%M")
    return f"{info.title or info.thread_id[:8]} · {info.status} · {when}"


def _follow_picker(chosen: str) -> None:
    if chosen == NEW_RUN:
        st.query_params.pop(THREAD_PARAM, None)
    else:
        st.query_params[THREAD_PARAM] = chosen


def start_run(spec: PipelineSpec, raw_input: dict[str, Any], scenario: str | None) -> bool:
    """Create a thread from the input and point the page at it; False (with an error shown) if the input is bad."""
    settings = services.current_settings()
    try:
        session = services.studio(settings).new_session(spec, raw_input, settings, scenario=scenario)
    except InvalidInput as exc:
        st.session_state[FLASH] = ("error", str(exc))
        return False
    st.query_params[THREAD_PARAM] = session.thread_id
    st.session_state[FLASH] = ("success", f"Started run {session.thread_id[:8]} — the input is step 0.")
    return True


def render_run_sidebar(spec: PipelineSpec, thread: ThreadInfo | None, node_names: list[str]) -> list[str]:
    """Draw the sidebar; returns the breakpoints chosen. May rerun the page when the run changes."""
    settings = services.current_settings()
    with st.sidebar:
        st.markdown(f"**Provider:** {escape_markdown(settings.provider_label)}")
        if settings.provider == "offline":
            st.caption("Deterministic offline engine — no network, no key. Change it on the Settings page.")
        threads = services.studio(settings).runs.list_threads(spec.id, limit=100)
        options = [NEW_RUN] + [t.thread_id for t in threads]
        labels = {t.thread_id: _thread_label(t) for t in threads} | {NEW_RUN: "+ new run"}
        current = thread.thread_id if thread and thread.thread_id in options else NEW_RUN
        # The URL decides which run is shown. Choosing another run takes a click on Open: a picker that
        # navigated on change was switched to another tab's run when the browser resent its stale position
        # in a list that had grown.
        chosen = st.selectbox("Run", options, index=options.index(current), key=page_key(
            spec.id, f"run_picker_{current[:12]}_{len(options)}_{thread.status if thread else ''}"),
            format_func=lambda tid: labels.get(tid, tid[:8]))
        if chosen != current and st.button("Open this run" if chosen != NEW_RUN else "Start a new run instead",
                                           key=page_key(spec.id, "open_run")):
            _follow_picker(chosen)
            st.rerun()
        breakpoints = st.multiselect("Breakpoints", node_names, key=page_key(spec.id, "breakpoints"),
                                     help="Run to interrupt stops before these nodes")
        with st.expander("New run", expanded=thread is None):
            scenarios = spec.scenarios()
            names = [s.name for s in scenarios]
            name = st.selectbox("Scenario", names, format_func=lambda n: spec.scenario(n).title,
                                key=page_key(spec.id, "scenario"))
            scenario = spec.scenario(name) if name else None
            if scenario is not None:
                st.caption(scenario.description)
            editor_key = page_key(spec.id, f"input_{name}")
            text = st.text_area("Input (JSON, editable)",
                                value=json.dumps(scenario.input if scenario else {}, ensure_ascii=False, indent=2),
                                height=260, key=editor_key)
            if st.button("Start run", key=page_key(spec.id, "start"), type="primary"):
                try:
                    raw = json.loads(text)
                except json.JSONDecodeError as exc:
                    st.error(escape_markdown(f"The input is not valid JSON (line {exc.lineno}: {exc.msg})."))
                else:
                    if not isinstance(raw, dict):
                        st.error("The input must be a JSON object.")
                    elif start_run(spec, raw, name):
                        st.rerun()
                    else:
                        st.error(escape_markdown(st.session_state.pop(FLASH)[1]))
    return breakpoints
