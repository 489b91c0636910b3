"""Fork a run from a checkpoint with edited state: a JSON editor for chosen fields, checked against the schema."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import streamlit as st

from dashboard.state_keys import FLASH
from pipelines.core.markup import escape_markdown
from pipelines.core.jsonable import state_to_jsonable
from pipelines.core.runtime.outcomes import CheckpointInfo
from pipelines.core.errors import InvalidInput
from pipelines.core.runtime.session import Session
from pipelines.core.runtime.state_edit import editable_fields, parse_state_edits


def editor_text(values: Mapping[str, Any], fields: list[str]) -> str:
    """The chosen fields of a state as the JSON the editor starts from."""
    data = state_to_jsonable({name: values.get(name) for name in fields})
    return json.dumps(data, ensure_ascii=False, indent=2)


def default_as_node(info: CheckpointInfo, nodes: list[str]) -> str:
    """The node the edit is credited to: the one that wrote the checkpoint, so the run goes on where it would
    have; for the input checkpoint, the node the run starts with."""
    for name in [*info.produced_by, *info.next]:
        if name in nodes:
            return name
    return nodes[0]


def render_fork_editor(session: Session, info: CheckpointInfo, values: Mapping[str, Any], key_prefix: str) -> bool:
    """The editor for one checkpoint; True when a fork was made (the page should rerun)."""
    fields = list(editable_fields(session.graph))
    ordered = [f for f in session.spec.field_order if f in fields] + sorted(f for f in fields
                                                                            if f not in session.spec.field_order)
    chosen = st.multiselect("Fields to edit", ordered, key=f"{key_prefix}_fork_fields",
                            help="The editor shows their values at this checkpoint; other fields keep theirs")
    if not chosen:
        st.caption("Choose the fields to change. The fork starts a new branch from this checkpoint; the run's "
                   "other branches are kept.")
        return False
    # A fresh editor for each checkpoint and choice of fields; the typed text survives reruns otherwise.
    digest = hashlib.sha1(f"{info.checkpoint_id}|{'|'.join(chosen)}".encode()).hexdigest()[:12]
    text = st.text_area("New values (JSON)", value=editor_text(values, chosen), height=220,
                        key=f"{key_prefix}_fork_text_{digest}")
    nodes = [n for n in session.graph.builder.nodes if not n.startswith("__")]
    as_node = st.selectbox("Apply as if written by", nodes, index=nodes.index(default_as_node(info, nodes)),
                           key=f"{key_prefix}_fork_as_node_{info.checkpoint_id[-12:]}",
                           help="LangGraph routes on from this node: the next step runs what follows it")
    if not st.button("Fork with these values", key=f"{key_prefix}_fork", type="primary"):
        return False
    try:
        outcome = session.fork(info.checkpoint_id, parse_state_edits(text), as_node=as_node)
    except InvalidInput as exc:
        st.error(escape_markdown(f"Not forked: {exc}. The run is unchanged."))
        return False
    changed = ", ".join(f"{k} ({v})" for k, v in outcome.record.changes.items()) or "no field changed"
    st.session_state[FLASH] = ("success", f"Forked from step {info.step} as {as_node}: {changed}. "
                               f"Next: {', '.join(outcome.next) or 'END'}. Step to continue the new branch.")
    return True
