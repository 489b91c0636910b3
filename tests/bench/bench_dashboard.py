"""Workflow page rerun time (AppTest) for a thread of 10 steps vs one of 200 steps, same page, same process.

Prints a table and the ratio per tab (goal: <= 2 on every tab). Both threads stand at the same kind of place
(paused between steps), and the two pages are rerun in turn, so that a machine busy with something else slows
both alike. Run with `make bench` or `python -m tests.bench.bench_dashboard`.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from streamlit.testing.v1 import AppTest

from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.support.toy_pipeline import ToyContext, make_toy_spec

REVISE = {"decision": "revise", "note": "again"}
TABS = ("State", "Changes", "Evolution", "Iterations", "Metrics", "Checkpoints", "Report")
TAB_PARAM = "bench_tab"  # the tab to open, passed the way the thread is: as a query parameter of the page


def toy_page():
    """The studio page of the toy workflow (a revise loop makes threads as long as wanted), on the tab named by
    the `bench_tab` query parameter (set in the script run: AppTest's own session state is not written from
    outside one)."""
    import streamlit as st

    from dashboard.studio.workflow_page import render_workflow_page
    from tests.support.toy_pipeline import ToyContext, make_toy_spec

    st.session_state["toy_tab"] = st.query_params["bench_tab"]
    render_workflow_page(make_toy_spec(ToyContext(deps=None)))


def thread_of(studio: Studio, settings, steps: int) -> tuple[str, int]:
    """A thread with at least `steps` step records (revise rounds of draft, fast+slow, review), paused between
    steps; returns it with its number of records."""
    session = studio.new_session(make_toy_spec(ToyContext(deps=None)), {"topic": "kites", "max_rounds": 10_000},
                                 settings)
    while len(session.records()) < steps or session.status() != "ready":
        if session.status() == "waiting":
            session.resume(REVISE)
        else:
            session.step()
    return session.thread_id, len(session.records())


class _AppTestSetup(logging.Filter):
    """Drops the "missing ScriptRunContext" warning that AppTest's constructor causes by preparing its session
    state before any script runs (harmless: the script itself runs with a context). Nothing else is dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "missing ScriptRunContext" not in record.getMessage()


@contextlib.contextmanager
def _quiet_setup() -> Iterator[None]:
    logger = logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
    quiet = _AppTestSetup()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


def open_page(thread_id: str, tab: str) -> AppTest:
    with _quiet_setup():
        app = AppTest.from_function(toy_page, default_timeout=120)
    app.query_params.update({"thread": thread_id, TAB_PARAM: tab})
    app.run()  # the first draw compiles and warms the caches, as a page already open has
    assert not app.exception, [e.value for e in app.exception]
    return app


def rerun_ms(apps: tuple[AppTest, AppTest], repeats: int) -> tuple[float, float]:
    """Median rerun time of each page, rerun in turn."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for app, spent in zip(apps, times):
            started = time.perf_counter()
            app.run()
            spent.append((time.perf_counter() - started) * 1000)
    for app in apps:
        assert not app.exception, [e.value for e in app.exception]
    return statistics.median(times[0]), statistics.median(times[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--long", type=int, default=200)
    parser.add_argument("--tabs", nargs="+", choices=TABS, default=TABS, help="only these tabs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        os.environ["STEPWISE_DATA_DIR"] = data
        os.environ["STEPWISE_SETTINGS_FILE"] = str(Path(data) / "settings.json")
        settings = load_settings()
        studio = Studio.from_settings(settings)
        (short, short_n), (long, long_n) = thread_of(studio, settings, 10), thread_of(studio, settings, args.long)
        print(f"{'tab':<12} {f'{short_n} steps (ms)':>14} {f'{long_n} steps (ms)':>15} {'ratio':>7}")
        ratios = {}
        for tab in args.tabs:
            short_ms, long_ms = rerun_ms((open_page(short, tab), open_page(long, tab)), args.repeats)
            ratios[tab] = long_ms / short_ms
            print(f"{tab:<12} {short_ms:>14.1f} {long_ms:>15.1f} {ratios[tab]:>7.2f}")
        studio.close()
    worst = max(ratios, key=ratios.get)
    opens = f"ratio of the page as it opens (State tab): {ratios['State']:.2f}; " if "State" in ratios else ""
    print(f"\n{opens}highest: {worst} {ratios[worst]:.2f} (goal <= 2 on every tab)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
