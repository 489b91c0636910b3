"""What every approval card shares: its widget keys, and buttons that record which question they answer and how, for
the next run of the page to act on (a button's click survives the rerun; the answer is built from the card's fields)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from pipelines.core.runtime.outcomes import PendingInterrupt

PREFIX = "recruiter_card"
REQUEST = f"{PREFIX}_request"  # (interrupt id, action) recorded by a card's button


def card_key(pending: PendingInterrupt, *parts: Any) -> str:
    return "_".join([PREFIX, pending.id, *(str(p) for p in parts)])


def ask(interrupt_id: str, action: str) -> None:
    """A card's on_click: answer `interrupt_id` with `action` on the next run of the page."""
    st.session_state[REQUEST] = (interrupt_id, action)


def button(pending: PendingInterrupt, label: str, action: str, *, primary: bool = False, disabled: bool = False,
           container: Any = st) -> None:
    container.button(label, key=card_key(pending, action), type="primary" if primary else "secondary",
                     on_click=ask, args=(pending.id, action), disabled=disabled)
