"""A workflow's own settings on the Settings page, drawn from its pydantic model: one widget per field, its bounds,
its help, and disabled where an environment variable fixes it."""

from __future__ import annotations

import typing
from typing import Any

import streamlit as st
from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from pipelines.core.settings import env_var, workflow_env
from pipelines.core.spec import PipelineSpec


def _bounds(info: FieldInfo) -> dict[str, float]:
    bounds: dict[str, float] = {}
    for rule in info.metadata:
        if isinstance(rule, (Ge, Gt)):
            bounds["min_value"] = rule.ge if isinstance(rule, Ge) else rule.gt
        elif isinstance(rule, (Le, Lt)):
            bounds["max_value"] = rule.le if isinstance(rule, Le) else rule.lt
    return bounds


def _widget(model: type[BaseModel], name: str, value: Any, key: str, fixed_by: str | None) -> Any:
    info = model.model_fields[name]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    label = info.title or name.replace("_", " ").capitalize()
    help_text = (info.description or "") + (f" Fixed by the environment variable {fixed_by}." if fixed_by else "")
    options = dict(key=key, disabled=bool(fixed_by), help=help_text or None)
    kind = info.annotation
    if kind is bool:
        return st.toggle(label, value=bool(value), **options)
    if typing.get_origin(kind) is typing.Literal:
        choices = list(typing.get_args(kind))
        return st.selectbox(label, choices, index=choices.index(value) if value in choices else 0, **options)
    if kind is int:
        bounds = {k: int(v) for k, v in _bounds(info).items()}
        return int(st.number_input(label, value=int(value), step=1, **bounds, **options))
    if kind is float:
        bounds = {k: float(v) for k, v in _bounds(info).items()}
        return float(st.number_input(label, value=float(value), step=float(extra.get("step", 0.1)), **bounds,
                                     **options))
    return st.text_input(label, value=str(value), **options).strip()


def render_workflow_settings(spec: PipelineSpec, current: BaseModel) -> dict[str, Any]:
    """The workflow's section of the settings form; returns the values typed (those an env variable fixes left out)."""
    model = type(current)
    fixed = workflow_env(model)
    st.markdown(f"**{spec.title}**")
    values = {}
    columns = st.columns(min(len(model.model_fields), 3) or 1)
    for index, name in enumerate(model.model_fields):
        with columns[index % len(columns)]:
            value = _widget(model, name, getattr(current, name), f"settings_{spec.id}_{name}",
                            env_var(model, name) if name in fixed else None)
        if name not in fixed:
            values[name] = value
    return values
