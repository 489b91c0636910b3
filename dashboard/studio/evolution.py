"""The field-evolution matrix (fields x steps) as a coloured table, like seed 000 §3.1 draws by hand."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from pipelines.core.trace.records import EvolutionMatrix, StepRecord, evolution_matrix

CELL_STYLE = {"set": ("●", "#bbf7d0"), "changed": ("◆", "#bfdbfe"), "appended": ("＋", "#e9d5ff"),
              "removed": ("✕", "#fecaca"), "unchanged": ("✓", "#f1f5f9"), "absent": ("", "#ffffff")}


def thread_evolution(thread_id: str, head: str | None, records: Sequence[StepRecord],
                     field_order: Sequence[str]) -> EvolutionMatrix:
    """The matrix of a thread's branch, worked out once per state of the thread: the page redraws it on every
    rerun, and a long run's matrix is fields x hundreds of steps. The branch's records only change when its
    head moves or a record is added, so (thread, head, number of records) names them."""
    return _matrix_of(thread_id, head, len(records), tuple(field_order), records)


@st.cache_resource(max_entries=64, show_spinner=False)
def _matrix_of(thread_id: str, head: str | None, count: int, field_order: tuple[str, ...],
               _records: Sequence[StepRecord]) -> EvolutionMatrix:
    return evolution_matrix(_records, field_order)


def evolution_frame(matrix: EvolutionMatrix) -> pd.DataFrame:
    """Cells as words (set, changed, appended, removed, unchanged, absent): fields as rows, steps as columns."""
    columns = list(matrix.steps)
    if len(set(columns)) != len(columns):  # an edited fork can repeat a label; keep columns unique
        columns = [f"{label} #{i}" for i, label in enumerate(columns)]
    return pd.DataFrame(matrix.cells, index=matrix.fields, columns=columns)


GLYPH_TEXT = {kind: f"{glyph} {kind}" if glyph else "" for kind, (glyph, _) in CELL_STYLE.items()}
CELL_CSS = {kind: f"background-color: {colour}; text-align: center" for kind, (_, colour) in CELL_STYLE.items()}


def styled_evolution(frame: pd.DataFrame):
    """The cells as glyph and word on their kind's colour; the styles are one frame looked up at once, since a
    function called per column and cell is what made a wide matrix slow to draw."""
    css = frame.map(lambda kind: CELL_CSS.get(kind, CELL_CSS["absent"]))
    return frame.map(lambda kind: GLYPH_TEXT.get(kind, kind)).style.apply(lambda _: css, axis=None)


WINDOW = 20  # steps drawn at once: each cell costs drawing time, and a wider table cannot be read anyway


def window_of(matrix: EvolutionMatrix, first: int, last: int) -> EvolutionMatrix:
    """The columns of steps first..last-1 (indexes into the completed steps)."""
    return EvolutionMatrix(fields=matrix.fields, steps=matrix.steps[first:last],
                           cells=[row[first:last] for row in matrix.cells])


def _window_end(total: int, key: str) -> int:
    """The last step shown, chosen on a slider; it follows the newest step while it is left at the end."""
    seen = f"{key}_total"
    if st.session_state.get(seen) != total and st.session_state.get(key) in (None, st.session_state.get(seen)):
        st.session_state[key] = total
    st.session_state[seen] = total
    if not WINDOW <= st.session_state[key] <= total:
        st.session_state[key] = total
    return st.slider("Last step shown", WINDOW, total, key=key,
                     help=f"The run has {total} completed steps; {WINDOW} are shown at a time. Slide left for "
                          "older steps.")


def render_evolution(matrix: EvolutionMatrix, key: str | None = None) -> None:
    """The matrix; a long run shows its latest steps, and with a `key` a slider pages through older ones."""
    if not matrix.steps:
        st.info("No step has completed yet.")
        return
    total = len(matrix.steps)
    last = _window_end(total, key) if total > WINDOW and key is not None else total
    first = max(0, last - WINDOW)
    if total > WINDOW:
        st.caption(f"Steps {first + 1}–{last} of {total} completed steps.")
    frame = evolution_frame(window_of(matrix, first, last))
    st.dataframe(styled_evolution(frame), width="stretch", height=min(36 * (len(frame) + 1) + 4, 760))
    st.caption(" · ".join(f"{glyph} {kind}" for kind, (glyph, _) in CELL_STYLE.items() if glyph)
               + " — a field is *appended* when a reducer list grew, *set* when it first got a value.")
