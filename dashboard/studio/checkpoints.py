"""Checkpoints tab: every checkpoint on every branch, the state at any of them, rewind, fork with edits."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.studio.checkpoint_tree import render_branches
from dashboard.studio.fork_editor import render_fork_editor
from dashboard.studio.state_panel import changes_frame, state_frame
from dashboard.state_keys import FLASH
from pipelines.core.runtime.branches import branch_numbers, checkpoint_branches
from pipelines.core.errors import InvalidInput
from pipelines.core.runtime.outcomes import CheckpointInfo
from pipelines.core.runtime.session import Session


def _after(info: CheckpointInfo) -> str:
    return "+".join("input" if n == "__input__" else n for n in info.produced_by) or info.source


def checkpoint_frame(infos: list[CheckpointInfo], head: str | None, branches: dict[str, int] | None = None
                     ) -> pd.DataFrame:
    branches = branches or {}
    rows = [{"": "▶" if c.checkpoint_id == head else ("│" if c.on_branch else ""),
             "branch": branches.get(c.checkpoint_id), "step": c.step, "after": _after(c),
             "next": ", ".join(c.next) or "END", "source": c.source, "created": c.created_at[:19].replace("T", " "),
             "checkpoint": c.checkpoint_id[-12:], "parent": (c.parent_id or "")[-12:]} for c in infos]
    return pd.DataFrame(rows, columns=["", "branch", "step", "after", "next", "source", "created", "checkpoint",
                                       "parent"])


def _follow_head(picker: str, options: list[str], head: str | None) -> None:
    # Follow the run as it moves; keep the user's pick otherwise.
    if st.session_state.get(f"{picker}_head") != head or st.session_state.get(picker) not in options:
        st.session_state[picker] = head if head in options else options[0]
        st.session_state[f"{picker}_head"] = head


def render_checkpoints(session: Session, key_prefix: str, read_only: bool = False) -> bool:
    """Draw the tab; returns True when the run moved (rewound, forked or switched branch)."""
    infos = session.history(limit=1000)
    if not infos:
        st.info("No checkpoint yet.")
        return False
    head = session.head_checkpoint_id()
    branches = checkpoint_branches(infos)
    numbers = branch_numbers(branches)
    st.markdown("**Branches**")
    if not read_only and render_branches(session, branches, head, key_prefix):
        return True
    st.markdown("**Checkpoints**")
    st.dataframe(checkpoint_frame(infos, head, numbers), width="stretch", hide_index=True,
                 height=min(38 * (len(infos) + 1), 420))
    st.caption("▶ where the run stands · │ on the current branch. Rewinding moves the run back to a checkpoint; "
               "the next step continues from there on a new branch, and the old branch stays in the list.")
    by_id = {c.checkpoint_id: c for c in infos}
    labels = {c.checkpoint_id: f"branch {numbers.get(c.checkpoint_id)} · step {c.step} · after {_after(c)} · "
                               f"next {', '.join(c.next) or 'END'}" for c in infos}
    picker = f"{key_prefix}_checkpoint"
    _follow_head(picker, list(by_id), head)
    cols = st.columns([4, 1], vertical_alignment="bottom")
    chosen = cols[0].selectbox("Checkpoint", list(by_id), format_func=lambda cid: labels[cid], key=picker)
    if cols[1].button("Rewind here", key=f"{key_prefix}_rewind", disabled=read_only or chosen == head):
        try:
            session.rewind(chosen)
        except InvalidInput as exc:
            st.session_state[FLASH] = ("error", str(exc))
            return True
        st.session_state[FLASH] = ("success", f"Rewound to {labels[chosen]}.")
        return True
    values = session.state_at(chosen)
    then, step = st.columns(2, gap="medium")
    with then:
        st.markdown(f"**State at this checkpoint** (step {by_id[chosen].step})")
        st.dataframe(state_frame(values, session.spec.field_order), width="stretch", hide_index=True, height=300)
    with step:
        record = session.record_at(chosen)
        st.markdown(f"**What step {by_id[chosen].step} did** ({_after(by_id[chosen])})")
        if record is None or not record.changes:
            st.caption("No field changed at this checkpoint." if record else "No step record for this checkpoint.")
        else:
            st.dataframe(changes_frame(record), width="stretch", hide_index=True)
    if read_only:
        return False
    # Keyed, so it stays open through the reruns of choosing fields and typing.
    with st.expander(f"Fork from this checkpoint with edited state (step {by_id[chosen].step})",
                     key=f"{key_prefix}_fork_open", on_change="rerun"):
        return render_fork_editor(session, by_id[chosen], values, key_prefix)
