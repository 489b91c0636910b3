"""Workflow page rerun time (AppTest) for a thread of 10 steps vs one of 200 steps, same page, same process.

Prints a table and the ratio per tab (goal: <= 2 for the page as it opens). Run with `make bench` or
`python -m tests.bench.bench_dashboard`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


from streamlit.testing.v1 import AppTest

from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.support.toy_pipeline import ToyContext, make_toy_spec

ROOT = Path(__file__).resolve().parents[2]

REVISE = {"decision": "revise", "note": "again"}
TABS = ("State", "Changes", "Evolution", "Iterations", "Metrics", "Checkpoints")


def toy_page():
    """The studio page of the toy workflow (a revise loop makes threads as long as wanted)."""
    from dashboard.studio.workflow_page import render_workflow_page
    from tests.support.toy_pipeline import ToyContext, make_toy_spec

    render_workflow_page(make_toy_spec(ToyContext(deps=None)))


def thread_of(studio: Studio, settings, steps: int) -> str:
    """A thread whose current branch holds `steps` step records: revise rounds of draft, fast+slow, review."""
    session = studio.new_session(make_toy_spec(ToyContext(deps=None)), {"topic": "kites", "max_rounds": 10_000},
                                 settings)
    while len(session.records()) < steps:
        if session.status() == "waiting":
            session.resume(REVISE)
        else:
            session.step()
    return session.thread_id


def rerun_ms(thread_id: str, tab: str, repeats: int) -> tuple[float, int]:
    app = AppTest.from_function(toy_page, default_timeout=120)
    app.query_params["thread"] = thread_id
    app.session_state["toy_tab"] = tab
    app.run()  # the first draw compiles and warms the caches, as a page already open has
    assert not app.exception, [e.value for e in app.exception]
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        app.run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), len(app.exception)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--long", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        os.environ["STEPWISE_DATA_DIR"] = data
        os.environ["STEPWISE_SETTINGS_FILE"] = str(Path(data) / "settings.json")
        settings = load_settings()
        studio = Studio.from_settings(settings)
        short, long = thread_of(studio, settings, 10), thread_of(studio, settings, args.long)
        print(f"{'tab':<12} {'10 steps (ms)':>14} {f'{args.long} steps (ms)':>15} {'ratio':>7}")
        ratios = {}
        for tab in TABS:
            short_ms, _ = rerun_ms(short, tab, args.repeats)
            long_ms, _ = rerun_ms(long, tab, args.repeats)
            ratios[tab] = long_ms / short_ms
            print(f"{tab:<12} {short_ms:>14.1f} {long_ms:>15.1f} {ratios[tab]:>7.2f}")
        studio.close()
    print(f"\nratio of the page as it opens (State tab): {ratios['State']:.2f} (goal <= 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
