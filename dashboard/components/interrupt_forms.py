"""A form for the answer an `interrupt()` waits for, drawn from its pydantic resume schema."""

from __future__ import annotations

import enum
import typing
from typing import Any

import streamlit as st
from pydantic import BaseModel, RootModel

from dashboard.state_keys import FLASH
from pipelines.core.registry import InvalidInput
from pipelines.core.session import PendingInterrupt, Session

SKIP_KEYS = {"kind", "question"}


def _field_widget(name: str, annotation: Any, default: Any, key: str) -> Any:
    label = name.replace("_", " ").capitalize()
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        options = [m.value for m in annotation]
        index = options.index(default) if default in options else len(options) // 2
        return st.radio(label, options, index=index, horizontal=True, key=key,
                        format_func=lambda v: v.replace("_", " "))
    if typing.get_origin(annotation) is typing.Literal:
        options = list(typing.get_args(annotation))
        return st.radio(label, options, index=options.index(default) if default in options else 0, horizontal=True, key=key)
    if annotation is bool:
        return st.checkbox(label, value=bool(default), key=key)
    if annotation is int:
        return st.number_input(label, value=int(default or 0), step=1, key=key)
    if annotation is float:
        return st.number_input(label, value=float(default or 0.0), key=key)
    return st.text_area(label, value=str(default or ""), key=key, height=90)


def render_interrupt_form(session: Session, pending: PendingInterrupt, sample: Any,
                          key_prefix: str) -> bool:
    """Draw the form; on submit resume the session. Returns True when the session moved on."""
    spec = pending.spec
    title = spec.title if spec else "The run is waiting for input"
    with st.container(border=True):
        st.markdown(f"#### :material/pause_circle: {title}")
        if pending.value.get("question"):
            st.markdown(f"> {pending.value['question']}")
        context = {k: v for k, v in pending.value.items() if k not in SKIP_KEYS}
        if context:
            st.caption(" · ".join(f"{k}: {v}" for k, v in context.items()))
        if spec and spec.help:
            st.caption(spec.help)
        if spec is None:
            raw = st.text_area("Answer (JSON or text)", key=f"{key_prefix}_raw")
            if st.button("Resume", key=f"{key_prefix}_resume", type="primary"):
                return _resume(session, raw)
            return False
        schema: type[BaseModel] = spec.schema
        if issubclass(schema, RootModel):  # the answer is a plain value (a chat message), not an object
            with st.form(key=f"{key_prefix}_form_{pending.id}", clear_on_submit=True):
                answer = st.text_area("Answer", value=str(sample or ""), key=f"{key_prefix}_{pending.id}_root",
                                      height=90)
                submitted = st.form_submit_button("Submit answer", type="primary")
            return _resume(session, answer) if submitted else False
        with st.form(key=f"{key_prefix}_form_{pending.id}"):
            values = {}
            for name, info in schema.model_fields.items():
                default = (sample or {}).get(name, info.default if info.default is not None else "")
                values[name] = _field_widget(name, info.annotation, default, f"{key_prefix}_{pending.id}_{name}")
            submitted = st.form_submit_button("Submit answer", type="primary",
                                              help="The node that asked runs again with your answer; then step or run on.")
        if submitted:
            return _resume(session, values)
    return False


def _resume(session: Session, value: Any) -> bool:
    try:
        outcome = session.resume(value)
    except InvalidInput as exc:
        st.error(str(exc))
        return False
    st.session_state[FLASH] = ("error", f"The step failed: {outcome.error}") if outcome.error else \
        ("success", "Answer accepted: the node that asked has run with it. Step or run on.")
    return True
