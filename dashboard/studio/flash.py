"""The message an action leaves for the page it reruns, shown once as plain text (it may quote input)."""

from __future__ import annotations

import streamlit as st

from dashboard.state_keys import FLASH
from pipelines.core.markup import escape_markdown


def as_sentence(reason: object) -> str:
    """A reason as the runtime words it ("another step of this run is under way: …") made a sentence to show."""
    text = str(reason)
    return f"{text[:1].upper()}{text[1:]}."


def show_flash() -> bool:
    """Show the message the last action left, once; True when there was one."""
    message = st.session_state.pop(FLASH, None)
    if message:
        getattr(st, message[0])(escape_markdown(message[1]))
    return bool(message)
