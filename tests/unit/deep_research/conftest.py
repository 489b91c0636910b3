"""Deep research test helpers: sessions over two small documents (English and Chinese), answers to its forms, and
the coder's OS sandbox (bubblewrap) that the tests running code need."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipelines.core.registry import get_spec
from pipelines.deep_research.library import close_libraries
from pipelines.deep_research.sandbox_jail import locate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "research"
DOCS = [str(FIXTURES / "harbor_report.md"), str(FIXTURES / "harbor_notes_zh.md")]


@pytest.fixture
def os_sandbox() -> str:
    """bwrap, for the tests that run the coder's code: skipped where it is missing or cannot start (the coder refuses to
    run code there), failed instead with STEPWISE_REQUIRE_SANDBOX=1, as in CI (`.ci/run` installs bubblewrap)."""
    bwrap, problem = locate()
    if bwrap is None:
        if os.environ.get("STEPWISE_REQUIRE_SANDBOX") == "1":
            pytest.fail(problem)
        pytest.skip(f"not run here: {problem}")
    return bwrap


@pytest.fixture
def research():
    yield get_spec("deep_research")
    close_libraries()  # each test's data dir is its own: no library outlives it


@pytest.fixture
def start(studio, settings, research):
    """start(question, **input) → a Session over the two documents (auto-accepted plan unless said)."""

    def make(question: str, gateway=None, **extra):
        raw = {"user_query": question, "documents": DOCS, **extra}
        return studio.new_session(research, raw, settings, gateway=gateway)

    return make


def finish(session, answers=({"skip": True},)):
    """Run to the end, answering each interrupt with the next answer (the last one again when they run out)."""
    answers = list(answers)
    for _ in range(20):
        session.run(until="end")
        if session.status() != "waiting":
            return session.values()
        session.resume(answers.pop(0) if len(answers) > 1 else answers[0])
    raise AssertionError("the run kept waiting")
