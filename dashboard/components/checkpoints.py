"""Checkpoints tab: every checkpoint of the thread, which branch it is on, and rewind to any of them."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.state_keys import FLASH
from pipelines.core.registry import InvalidInput
from pipelines.core.session import CheckpointInfo, Session


def _after(info: CheckpointInfo) -> str:
    return "+".join("input" if n == "__input__" else n for n in info.produced_by) or info.source


def checkpoint_frame(infos: list[CheckpointInfo], head: str | None) -> pd.DataFrame:
    rows = [{"": "▶" if c.checkpoint_id == head else ("│" if c.on_branch else ""), "step": c.step,
             "after": _after(c), "next": ", ".join(c.next) or "END",
             "source": c.source, "created": c.created_at[:19].replace("T", " "), "checkpoint": c.checkpoint_id[-12:],
             "parent": (c.parent_id or "")[-12:]} for c in infos]
    return pd.DataFrame(rows, columns=["", "step", "after", "next", "source", "created", "checkpoint", "parent"])


def render_checkpoints(session: Session, key_prefix: str) -> bool:
    """Draw the list and the rewind control; returns True when the cursor moved."""
    infos = session.history(limit=500)
    if not infos:
        st.info("No checkpoint yet.")
        return False
    head = session.head_checkpoint_id()
    st.dataframe(checkpoint_frame(infos, head), width="stretch", hide_index=True, height=min(38 * (len(infos) + 1), 420))
    st.caption("▶ where the run stands · │ on the current branch. Rewinding moves the run back to a checkpoint; "
               "the next step continues from there on a new branch, and the old branch stays in the list.")
    options = [c.checkpoint_id for c in infos]
    labels = {c.checkpoint_id: f"step {c.step} · after {_after(c)} · next {', '.join(c.next) or 'END'}" for c in infos}
    picker = f"{key_prefix}_checkpoint"
    if st.session_state.get(f"{picker}_head") != head or st.session_state.get(picker) not in options:
        st.session_state[picker] = head if head in options else options[0]  # follow the run as it moves
        st.session_state[f"{picker}_head"] = head
    cols = st.columns([4, 1], vertical_alignment="bottom")
    chosen = cols[0].selectbox("Checkpoint", options, format_func=lambda cid: labels[cid], key=picker)
    if cols[1].button("Rewind here", key=f"{key_prefix}_rewind", disabled=chosen == head):
        try:
            session.rewind(chosen)
        except InvalidInput as exc:
            st.session_state[FLASH] = ("error", str(exc))
            return True
        st.session_state[FLASH] = ("info", f"Rewound to step {labels[chosen]}. Step to continue from here.")
        return True
    return False
