"""A form for the answer an `interrupt()` waits for, drawn from its pydantic resume schema.

A submitted answer names the question it was drawn for, so an answer from a stale tab (another tab answered
first, or the run was rewound) is refused with a message and its text is kept, never applied to a newer
question nor dropped."""

from __future__ import annotations

import enum
import typing
from typing import Any

import streamlit as st
from pydantic import BaseModel, RootModel

from dashboard.state_keys import FLASH
from pipelines.core.markup import escape_markdown, sanitize_markdown
from pipelines.core.errors import ConcurrentChange, InvalidInput, StaleAnswer
from pipelines.core.runtime.outcomes import PendingInterrupt
from pipelines.core.runtime.session import Session

SKIP_KEYS = {"kind", "question"}
ROOT_FIELD = "answer"  # the one widget of a form whose answer is a plain value (a chat message)


def _field_widget(name: str, annotation: Any, default: Any, key: str) -> Any:
    label = name.replace("_", " ").capitalize()
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        options = [m.value for m in annotation]
        index = options.index(default) if default in options else len(options) // 2
        return st.radio(label, options, index=index, horizontal=True, key=key,
                        format_func=lambda v: v.replace("_", " "))
    if typing.get_origin(annotation) is typing.Literal:
        options = list(typing.get_args(annotation))
        return st.radio(label, options, index=options.index(default) if default in options else 0, horizontal=True,
                        key=key, format_func=str)
    if annotation is bool:
        return st.checkbox(label, value=bool(default), key=key)
    if annotation is int:
        return st.number_input(label, value=int(default or 0), step=1, key=key)
    if annotation is float:
        return st.number_input(label, value=float(default or 0.0), key=key)
    return st.text_area(label, value=str(default or ""), key=key, height=90)


def _fields(pending: PendingInterrupt) -> list[str]:
    schema = pending.spec.schema if pending.spec else None
    if schema is None or issubclass(schema, RootModel):
        return [ROOT_FIELD]
    return list(schema.model_fields)


def _key(key_prefix: str, kind: str, name: str) -> str:
    # Keyed by the kind of question, not its id: the typed text outlives the question it was typed for.
    return f"{key_prefix}_answer_{kind or 'untyped'}_{name}"


def _record_submission(key_prefix: str, interrupt_id: str, kind: str, fields: list[str]) -> None:
    st.session_state[f"{key_prefix}_submitted"] = {"id": interrupt_id, "kind": kind, "fields": fields}


def render_interrupt_form(session: Session, pending: PendingInterrupt, sample: Any, key_prefix: str) -> None:
    """Draw the form; a submission is applied by `apply_submitted_answer` on the next run of the page."""
    spec = pending.spec
    title = spec.title if spec else "The run is waiting for input"
    kept = st.session_state.get(f"{key_prefix}_unapplied")
    if kept and kept["kind"] == pending.kind:  # an answer a stale tab could not apply, offered for this question
        sample = kept["values"].get(ROOT_FIELD) if _fields(pending) == [ROOT_FIELD] else kept["values"]
        st.session_state.pop(f"{key_prefix}_unapplied")
    with st.container(border=True):
        st.markdown(f"#### :material/pause_circle: {escape_markdown(title)}")
        if pending.value.get("question"):
            st.markdown(sanitize_markdown(f"> {pending.value['question']}"))
        context = {k: v for k, v in pending.value.items() if k not in SKIP_KEYS}
        if context:
            st.caption(escape_markdown(" · ".join(f"{k}: {v}" for k, v in context.items())))
        if spec and spec.help:
            st.caption(spec.help)
        fields = _fields(pending)
        with st.form(key=f"{key_prefix}_form_{pending.kind or 'untyped'}", border=False):
            if fields == [ROOT_FIELD]:
                label = "Answer" if spec else "Answer (JSON or text)"
                st.text_area(label, value=str(sample or ""), key=_key(key_prefix, pending.kind, ROOT_FIELD), height=90)
            else:
                schema: type[BaseModel] = spec.schema
                for name, info in schema.model_fields.items():
                    default = (sample or {}).get(name, info.default if info.default is not None else "")
                    _field_widget(name, info.annotation, default, _key(key_prefix, pending.kind, name))
            st.form_submit_button("Submit answer", type="primary", on_click=_record_submission,
                                  args=(key_prefix, pending.id, pending.kind, fields),
                                  help="The node that asked runs again with your answer; then step or run on.")


def apply_submitted_answer(session: Session, key_prefix: str, running: bool) -> bool:
    """Apply the answer submitted on the last run of the page to the question it was drawn for. Returns True
    when the run moved on. A refused answer stays in its form (invalid) or is kept for the user (stale)."""
    submitted = st.session_state.pop(f"{key_prefix}_submitted", None)
    if not submitted:
        return False
    keys = {name: _key(key_prefix, submitted["kind"], name) for name in submitted["fields"]}
    values = {name: st.session_state.get(key) for name, key in keys.items()}
    answer = values[ROOT_FIELD] if list(values) == [ROOT_FIELD] else values
    try:
        if running:
            raise StaleAnswer("the run is going on in the background: your answer was not applied")
        outcome = session.resume(answer, interrupt_id=submitted["id"])
    except ConcurrentChange as exc:
        st.session_state[f"{key_prefix}_unapplied"] = {"kind": submitted["kind"], "values": values}
        st.warning(escape_markdown(f"Not applied: {exc}. Your answer is kept: it fills the form when the same "
                                   "question is asked, and is shown below until then."), icon=":material/sync_problem:")
        return False
    except InvalidInput as exc:
        st.error(escape_markdown(f"Not applied: {exc}"))
        return False
    for key in keys.values():  # the next question starts from its own sample, not from this answer
        st.session_state.pop(key, None)
    st.session_state[FLASH] = ("error", f"The step failed: {outcome.error}") if outcome.error else \
        ("success", "Answer accepted: the node that asked has run with it. Step or run on.")
    return True


def render_unapplied_answer(key_prefix: str, open_kinds: set[str]) -> None:
    """An answer a stale tab could not apply, shown as text until a question of its kind takes it back."""
    kept = st.session_state.get(f"{key_prefix}_unapplied")
    if not kept or kept["kind"] in open_kinds:
        return
    with st.container(border=True):
        st.caption(":material/sync_problem: Your answer that was not applied (copy it if you need it):")
        st.code("\n".join(f"{k}: {v}" if len(kept["values"]) > 1 else str(v) for k, v in kept["values"].items()),
                language=None, wrap_lines=True)
        if st.button("Dismiss", key=f"{key_prefix}_unapplied_dismiss"):
            st.session_state.pop(f"{key_prefix}_unapplied", None)
            st.rerun()
