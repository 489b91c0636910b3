"""State tab (the values now) and Changes tab (what one step did to them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from pipelines.core.markup import escape_markdown
from pipelines.core.jsonable import json_head, state_to_jsonable
from pipelines.core.trace.records import StepRecord

KIND_ICON = {"set": "● set", "changed": "◆ changed", "appended": "＋ appended", "removed": "✕ removed"}


INSPECT_ITEMS = 200  # items of a list drawn by the field inspector: the newest, as reducer lists grow at the end


def preview(value: Any, limit: int = 160) -> str:
    text = json_head(value, limit)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def state_frame(values: Mapping[str, Any], field_order: Sequence[str]) -> pd.DataFrame:
    return _state_rows(state_to_jsonable(values), field_order)


def _state_rows(data: Mapping[str, Any], field_order: Sequence[str]) -> pd.DataFrame:
    ordered = [f for f in field_order if f in data] + sorted(f for f in data if f not in field_order)
    rows = []
    for name in ordered:
        value = data[name]
        kind = type(value).__name__ if value is not None else "None"
        # as text, so a value without a size shows an empty cell rather than "None"
        size = f"{len(value):,}" if isinstance(value, (list, dict, str)) else ""
        rows.append({"field": name, "type": kind, "size": size, "value": preview(value)})
    return pd.DataFrame(rows, columns=["field", "type", "size", "value"])


def render_state(values: Mapping[str, Any], field_order: Sequence[str], key: str) -> None:
    if not values:
        st.info("The run has no state yet.")
        return
    data = state_to_jsonable(values)
    st.dataframe(_state_rows(data, field_order), width="stretch", hide_index=True)
    chosen = st.selectbox("Inspect a field", list(data), key=key)
    value = data.get(chosen)
    if isinstance(value, list) and len(value) > INSPECT_ITEMS:
        st.caption(f"The last {INSPECT_ITEMS} of {len(value):,} items (items {len(value) - INSPECT_ITEMS}–"
                   f"{len(value) - 1}).")
        value = value[-INSPECT_ITEMS:]
    if chosen and isinstance(value, (dict, list)):
        st.json(value, expanded=2)
    elif chosen:
        st.code(str(value), language=None, wrap_lines=True)  # st.json would parse a string as JSON text


def changes_frame(record: StepRecord) -> pd.DataFrame:
    """The fields a step changed, with what each task wrote to them."""
    written: dict[str, list[str]] = {}
    for task in record.tasks:
        for name, value in (task.update or {}).items() if isinstance(task.update, dict) else []:
            written.setdefault(name, []).append(f"{task.node}: {preview(value, 220)}")
    rows = [{"field": name, "change": KIND_ICON.get(kind, kind), "written": "\n".join(written.get(name, ["(reducer)"]))}
            for name, kind in record.changes.items()]
    return pd.DataFrame(rows, columns=["field", "change", "written"])


def render_changes(records: Sequence[StepRecord], key: str) -> None:
    if not records:
        st.info("No step has run yet.")
        return
    labels = [f"{r.step} · {'+'.join(r.nodes)} · {r.status}" for r in records]
    # Follow the newest step whenever a step lands; keep the user's pick otherwise.
    if st.session_state.get(f"{key}_seen") != len(records) or st.session_state.get(key, 0) >= len(records):
        st.session_state[key] = len(records) - 1
        st.session_state[f"{key}_seen"] = len(records)
    index = st.selectbox("Step", range(len(records)), format_func=lambda i: labels[i], key=key)
    record = records[index]
    cols = st.columns(4)
    cols[0].metric("Super-step", record.step)
    cols[1].metric("Tasks", len(record.tasks))
    cols[2].metric("Duration", f"{record.duration_ms:.1f} ms")
    cols[3].metric("Fields changed", len(record.changes))
    if record.error:
        st.error(escape_markdown(record.error))
    if record.status == "interrupted":
        st.warning("This step paused at an interrupt(); the node runs again when it is answered.")
    if record.changes:
        st.dataframe(changes_frame(record), width="stretch", hide_index=True)
    elif record.status == "completed":
        st.caption("This step changed no field.")
    if len(record.tasks) > 1:
        st.caption("Tasks of this step (parallel nodes run in the same super-step):")
        st.dataframe(pd.DataFrame([{"node": t.node, "task id": t.task_id, "duration ms": round(t.duration_ms, 2),
                                    "status": t.status, "model calls": len(t.model_calls)} for t in record.tasks]),
                     hide_index=True, width="stretch")
