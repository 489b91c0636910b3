"""Session-state and query-parameter keys, in one place so pages and components agree on them."""

THREAD_PARAM = "thread"  # st.query_params: the run a workflow page shows, so a reload finds it again

SETTINGS_OVERRIDES = "settings_overrides"  # non-secret settings chosen on the settings page
FLASH = "flash_message"  # (kind, text) shown once after a rerun
REPORTED_RUNS = "reported_background_runs"  # ids of background runs whose end this browser session has shown
ENDED_RUN = "ended_background_run"  # the summary of the run that ended last here, shown until the next action
WATCHED_RUNS = "watched_background_runs"  # ids of background runs this browser session has seen going on


def page_key(pipeline_id: str, name: str) -> str:
    """A widget or state key scoped to one workflow page."""
    return f"{pipeline_id}__{name}"
