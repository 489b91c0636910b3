"""The branches of a thread drawn as a tree (which checkpoint each fork left from), and continuing one of them."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from dashboard.state_keys import FLASH
from dashboard.studio.dot import dot_escape
from pipelines.core.runtime.branches import Branch
from pipelines.core.errors import InvalidInput
from pipelines.core.runtime.session import Session


def make_branch_dot(branches: Sequence[Branch], head: str | None) -> str:
    """DOT of the branch tree: one box per branch, an edge from the checkpoint each fork left from.
    One box per branch, not per checkpoint, so a thread of hundreds of steps stays readable."""
    lines = ["digraph branches {", "rankdir=LR;", 'node [shape=box, style="rounded,filled", fontname="Helvetica", '
             'fontsize=11, fillcolor="#f1f5f9", color="#94a3b8"];', 'edge [color="#64748b", fontsize=10];']
    for branch in branches:
        current = branch.holds(head)
        where = "END" if not branch.leaf.next else "next: " + ", ".join(branch.leaf.next)
        steps = f"step {branch.first.step}" if len(branch.checkpoints) == 1 else \
            f"steps {branch.first.step}–{branch.leaf.step}"
        label = f"branch {branch.number}{' (edited)' if branch.edited else ''}\\n{steps} · " \
                f"{len(branch.checkpoints)} checkpoint(s)\\n{dot_escape(where)}"
        if current:
            label += "\\n▶ the run stands here"
        style = ', fillcolor="#dcfce7", color="#16a34a", penwidth=2' if current else ""
        lines.append(f'b{branch.number} [label="{label}"{style}];')
        if branch.fork_from is not None:
            lines.append(f'b{branch.parent_branch} -> b{branch.number} '
                         f'[label="from step {branch.fork_from.step}\\n{branch.fork_from.checkpoint_id[-6:]}"];')
    lines.append("}")
    return "\n".join(lines)


def render_branches(session: Session, branches: Sequence[Branch], head: str | None, key_prefix: str) -> bool:
    """The tree and a "continue this branch" control; True when the run moved to another branch."""
    if len(branches) == 1:
        st.caption("One branch so far. Rewind to a checkpoint and step, or fork it with edits, to branch off.")
        return False
    st.graphviz_chart(make_branch_dot(branches, head), width="stretch")
    current = next((b.number for b in branches if b.holds(head)), branches[0].number)
    labels = {b.number: b.describe() for b in branches}
    cols = st.columns([4, 1], vertical_alignment="bottom")
    chosen = cols[0].selectbox("Branch", list(labels), index=list(labels).index(current),
                               format_func=lambda number: labels[number], key=f"{key_prefix}_branch_{len(branches)}_{current}")
    if cols[1].button("Continue this branch", key=f"{key_prefix}_continue_branch", disabled=chosen == current,
                      help="Move the run to this branch's last checkpoint; Step goes on from there"):
        branch = next(b for b in branches if b.number == chosen)
        try:
            session.rewind(branch.leaf.checkpoint_id)
        except InvalidInput as exc:
            st.session_state[FLASH] = ("error", str(exc))
        else:
            st.session_state[FLASH] = ("success", f"Now on {labels[chosen]}.")
        return True
    return False
