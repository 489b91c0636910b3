"""The studio's views of a long run: the Evolution tab pages through its steps, the State tab inspects a long list."""

import json

from streamlit.testing.v1 import AppTest

from dashboard.studio.evolution import WINDOW
from dashboard.studio.state_panel import INSPECT_ITEMS, preview
from pipelines.core.trace.records import EvolutionMatrix
from tests.app.conftest import no_errors


def evolution_view(matrices):
    from dashboard.studio.evolution import render_evolution

    render_evolution(matrices[-1], key="evolution_window")


def state_view(values):
    from dashboard.studio.state_panel import render_state

    render_state(values, ("log",), key="state_field")


def _matrix(steps: int) -> EvolutionMatrix:
    labels = [f"{i} draft" for i in range(steps)]
    return EvolutionMatrix(fields=["topic", "log"], steps=labels,
                           cells=[["set"] + ["unchanged"] * (steps - 1), ["appended"] * steps])


def _shown_steps(app) -> list[str]:
    return list(app.dataframe[0].value.columns)


def test_a_long_run_shows_its_latest_steps_and_a_slider_pages_back_and_follows_new_steps():
    matrices = [_matrix(3 * WINDOW)]
    app = AppTest.from_function(evolution_view, args=(matrices,)).run()
    no_errors(app)
    assert _shown_steps(app) == [f"{i} draft" for i in range(2 * WINDOW, 3 * WINDOW)]
    assert any(f"Steps {2 * WINDOW + 1}–{3 * WINDOW} of {3 * WINDOW}" in c.value for c in app.caption)
    assert app.dataframe[0].value.loc["log"].iloc[0].endswith("appended")

    app.slider(key="evolution_window").set_value(WINDOW).run()  # back to the first steps
    assert _shown_steps(app) == [f"{i} draft" for i in range(WINDOW)]
    matrices.append(_matrix(3 * WINDOW + 1))  # a step lands: the chosen window stays
    assert _shown_steps(app.run()) == [f"{i} draft" for i in range(WINDOW)]

    app.slider(key="evolution_window").set_value(3 * WINDOW + 1).run()  # at the end again: it follows
    matrices.append(_matrix(3 * WINDOW + 2))
    assert _shown_steps(app.run())[-1] == f"{3 * WINDOW + 1} draft"


def test_a_short_run_shows_every_step_without_a_slider():
    app = AppTest.from_function(evolution_view, args=([_matrix(5)],)).run()
    assert _shown_steps(app) == [f"{i} draft" for i in range(5)] and not app.slider


def test_the_state_of_a_long_run_previews_a_long_list_and_inspects_its_newest_items():
    log = [f"entry {i}" for i in range(3 * INSPECT_ITEMS)]
    app = AppTest.from_function(state_view, args=({"topic": "kites", "log": log},)).run()
    no_errors(app)
    table = app.dataframe[0].value.set_index("field")
    assert table.loc["log", "size"] == f"{len(log):,}"
    assert table.loc["log", "value"] == json.dumps(log)[:159] + "…"
    app.selectbox(key="state_field").set_value("log").run()
    shown = json.loads(app.json[0].value)
    assert shown == log[-INSPECT_ITEMS:]
    assert any(f"The last {INSPECT_ITEMS} of {len(log):,} items" in c.value for c in app.caption)


def test_a_preview_is_the_start_of_the_json_of_any_value():
    nested = {"plan": [{"step": i, "note": "ü" * 3} for i in range(5000)], "n": 1.5, "when": None}
    assert preview(nested, 80) == json.dumps(nested, ensure_ascii=False)[:79] + "…"
    assert preview({"a": [1, 2]}) == '{"a": [1, 2]}' and preview("short") == "short"
    assert preview({"odd": {1, 2}} | {"obj": object}).startswith('{"odd": "{1, 2}", "obj": "<class')
