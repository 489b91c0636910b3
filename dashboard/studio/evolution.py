"""The field-evolution matrix (fields x steps) as a coloured table, like seed 000 §3.1 draws by hand."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pipelines.core.trace.records import EvolutionMatrix

CELL_STYLE = {"set": ("●", "#bbf7d0"), "changed": ("◆", "#bfdbfe"), "appended": ("＋", "#e9d5ff"),
              "removed": ("✕", "#fecaca"), "unchanged": ("✓", "#f1f5f9"), "absent": ("", "#ffffff")}


def evolution_frame(matrix: EvolutionMatrix) -> pd.DataFrame:
    """Cells as words (set, changed, appended, removed, unchanged, absent): fields as rows, steps as columns."""
    columns = list(matrix.steps)
    if len(set(columns)) != len(columns):  # an edited fork can repeat a label; keep columns unique
        columns = [f"{label} #{i}" for i, label in enumerate(columns)]
    return pd.DataFrame(matrix.cells, index=matrix.fields, columns=columns)


def styled_evolution(frame: pd.DataFrame):
    def colour(value: str) -> str:
        return f"background-color: {CELL_STYLE.get(value, ('', '#ffffff'))[1]}; text-align: center"

    glyphs = frame.apply(lambda column: column.map(lambda v: f"{CELL_STYLE.get(v, (v,))[0]} {v}" if v != "absent" else ""))
    return glyphs.style.apply(lambda column: [colour(v) for v in frame[column.name]], axis=0)


WINDOW = 40  # steps drawn at once: a wider table is slow to draw and cannot be read anyway


def window_of(matrix: EvolutionMatrix, first: int, last: int) -> EvolutionMatrix:
    """The columns of steps first..last-1 (indexes into the completed steps)."""
    return EvolutionMatrix(fields=matrix.fields, steps=matrix.steps[first:last],
                           cells=[row[first:last] for row in matrix.cells])


def render_evolution(matrix: EvolutionMatrix, key: str | None = None) -> None:
    """The matrix; a long run shows its latest steps, and with a `key` a slider chooses which."""
    if not matrix.steps:
        st.info("No step has completed yet.")
        return
    total = len(matrix.steps)
    first, last = max(0, total - WINDOW), total
    if total > WINDOW and key is not None:
        first, last = st.slider("Steps shown", 0, total, (first, last), key=key,
                                help=f"The run has {total} completed steps; a window of about {WINDOW} reads best")
    if total > WINDOW:
        st.caption(f"Steps {first + 1}–{last} of {total} completed steps.")
    frame = evolution_frame(window_of(matrix, first, last))
    st.dataframe(styled_evolution(frame), width="stretch", height=min(36 * (len(frame) + 1) + 4, 760))
    st.caption(" · ".join(f"{glyph} {kind}" for kind, (glyph, _) in CELL_STYLE.items() if glyph)
               + " — a field is *appended* when a reducer list grew, *set* when it first got a value.")
