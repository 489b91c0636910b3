"""What the Runs page does to the selected run: reopen it on its workflow page, rename it, delete it."""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboard import services
from dashboard.studio.run_table import format_duration, workflow_title
from dashboard.navigation import workflow_page
from dashboard.state_keys import FLASH, THREAD_PARAM
from pipelines.core.markup import escape_markdown
from pipelines.core.registry import built_workflows
from pipelines.core.errors import InvalidInput, RunBusy
from pipelines.core.storage.run_summaries import ThreadSummary
from pipelines.core.storage.runstore import TITLE_MAX_CHARS
from pipelines.core.runtime.studio import Studio

CONFIRM_DELETE = "runs_confirm_delete"  # the thread id whose deletion waits for "Yes, delete"


def built_ids() -> set[str]:
    return {entry.id for entry in built_workflows()}


def render_run_actions(summary: ThreadSummary, studio: Studio) -> None:
    """Reopen, rename and delete for one run; a change shows a message on the rerun it triggers."""
    title = escape_markdown(summary.title or summary.thread_id[:8])
    with st.container(border=True):
        st.markdown(f"**{title}** · {workflow_title(summary.pipeline)} · thread `{summary.thread_id}`")
        st.caption(f"{summary.status} · {summary.steps} step(s) · {format_duration(summary.duration_ms)} · "
                   f"{escape_markdown(summary.provider or 'provider unknown')}")
        if summary.last_error:
            st.caption(f":material/error: Last error: {escape_markdown(summary.last_error)}")
        reopen, rename, delete = st.columns([1, 3, 1], vertical_alignment="bottom")
        with reopen:
            _reopen_button(summary)
        with rename:
            _rename_form(summary, studio)
        running = _running_in_background(summary)
        with delete:
            if st.button("Delete…", key="runs_delete", icon=":material/delete:", width="stretch", disabled=running,
                         help="Stop its background run first" if running else None):
                st.session_state[CONFIRM_DELETE] = summary.thread_id
        if running:
            st.caption(":material/progress_activity: Running in the background: stop it on its workflow page "
                       "before deleting it.")
        elif st.session_state.get(CONFIRM_DELETE) == summary.thread_id:
            _confirm_delete(summary, studio)


def _running_in_background(summary: ThreadSummary) -> bool:
    # A worker still stepping the thread would write checkpoints and records again after the delete.
    return services.background_runs().active(summary.thread_id) is not None


def _reopen_button(summary: ThreadSummary) -> None:
    built = summary.pipeline in built_ids()
    if st.button("Reopen", key="runs_reopen", icon=":material/open_in_new:", type="primary", width="stretch",
                 disabled=not built, help=None if built else f"{summary.pipeline} has no page in this version"):
        try:
            st.switch_page(workflow_page(summary.pipeline), query_params={THREAD_PARAM: summary.thread_id})
        except StreamlitAPIException:
            # Only the app's entry point (dashboard/app.py) registers the workflow pages.
            st.error(f"The {workflow_title(summary.pipeline)} page is not part of this app; open it with "
                     f"`?{THREAD_PARAM}={summary.thread_id}`.")


def _rename_form(summary: ThreadSummary, studio: Studio) -> None:
    inner = st.columns([4, 1], vertical_alignment="bottom")
    # Keyed by thread, so picking another run shows that run's title, not the text typed for the last one.
    text = inner[0].text_input("Title", value=summary.title or "", key=f"runs_title_{summary.thread_id}",
                               max_chars=TITLE_MAX_CHARS)
    if inner[1].button("Save", key="runs_rename_save", icon=":material/edit:", width="stretch"):
        try:
            studio.runs.update_thread(summary.thread_id, title=text)
        except InvalidInput as exc:
            st.error(escape_markdown(f"Not renamed: {exc}."))
            return
        st.session_state[FLASH] = ("success", f"Renamed “{summary.title or summary.thread_id[:8]}” to "
                                              f"“{text.strip()}”.")
        st.rerun()


def _confirm_delete(summary: ThreadSummary, studio: Studio) -> None:
    title = escape_markdown(summary.title or summary.thread_id[:8])
    st.warning(f"Delete **{title}** ({workflow_title(summary.pipeline)}, thread `{summary.thread_id}`)? "
               f"Its {summary.steps} step record(s) and every checkpoint go too; this cannot be undone.",
               icon=":material/warning:")
    yes, no = st.columns(2)
    if yes.button(f"Yes, delete “{title}”", key="runs_delete_confirm", type="primary", icon=":material/delete:"):
        st.session_state.pop(CONFIRM_DELETE, None)
        try:
            deleted = studio.delete_run(summary.thread_id)
        except RunBusy as exc:
            st.session_state[FLASH] = ("warning", f"Not deleted: {exc}.")
            st.rerun()
        st.session_state[FLASH] = ("success", f"Deleted “{title}” ({workflow_title(summary.pipeline)}, thread "
                                              f"{summary.thread_id}): its {summary.steps} step record(s) and "
                                              f"all its checkpoints." if deleted else
                                   f"Run {summary.thread_id} was already gone.")
        st.rerun()
    if no.button("Cancel", key="runs_delete_cancel"):
        st.session_state.pop(CONFIRM_DELETE, None)
        st.rerun()
