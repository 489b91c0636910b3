"""A page that fails unexpectedly shows users a message, never the traceback (the project's .streamlit/config.toml)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _failing_page() -> None:
    import streamlit as st

    st.write("before the failure")
    raise RuntimeError("could not read /home/alice/.ssh/id_rsa: token sk-live-123")


def test_an_unexpected_error_shows_a_message_and_keeps_its_details_out_of_the_page():
    at = AppTest.from_function(_failing_page).run()
    [shown] = at.exception
    assert "redacted" in shown.message and "recorded in the logs" in shown.message
    assert "id_rsa" not in shown.message and "sk-live" not in shown.message
    assert not shown.stack_trace  # no file names, lines or code reach the browser
