"""Session overhead: the seed example stepped through Session vs plain graph.invoke, same graph and checkpointer.

Prints a table and the ratio (goal: <= 1.5). Run with `make bench` or `python tests/bench/bench_session.py`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from langgraph.types import Command  # noqa: E402

from pipelines.core.models.gateway import ModelGateway  # noqa: E402
from pipelines.core.spec import RuntimeDeps
from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings  # noqa: E402
from pipelines.core.runtime.studio import Studio  # noqa: E402

SCENARIO = json.loads((ROOT / "assets/scenarios/career_navigator/seed_example.json").read_text(encoding="utf-8"))


def plain_invoke(studio: Studio, settings) -> int:
    """The baseline: graph.invoke, then one Command(resume=...) per interrupt, nothing recorded."""
    spec = get_spec("career_navigator")
    graph = studio.compiled(spec)
    context = spec.make_context(RuntimeDeps(settings=settings, gateway=ModelGateway(settings)))
    thread = uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread}}
    payload = spec.make_input(SCENARIO["input"], thread)
    answers = list(SCENARIO["answers"])
    calls = 0
    while True:
        result = graph.invoke(payload, config, context=context)
        calls += 1
        if "__interrupt__" not in result:
            return calls
        payload = Command(resume=answers.pop(0))


def stepped_session(studio: Studio, settings) -> int:
    """Stepwise: every super-step a separate Session.step(), with its records, diffs and counters."""
    spec = get_spec("career_navigator")
    session = studio.new_session(spec, SCENARIO["input"], settings)
    answers = list(SCENARIO["answers"])
    steps = 1
    while (status := session.status()) != "completed":
        if status == "waiting":
            session.resume(answers.pop(0))
        else:
            session.step()
        steps += 1
    return steps


def measure(label, fn, studio, settings, repeats):
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        count = fn(studio, settings)
        times.append((time.perf_counter() - started) * 1000)
    return {"label": label, "median_ms": statistics.median(times), "min_ms": min(times), "calls": count}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        settings = load_settings(data_dir=data)
        studio = Studio.from_settings(settings)  # SQLite checkpoints, the default
        for fn in (plain_invoke, stepped_session):  # warm caches and compiled graph
            fn(studio, settings)
        rows = []
        for _ in range(2):  # interleave to spread any machine noise over both
            rows += [measure("graph.invoke + resume", plain_invoke, studio, settings, args.repeats // 2 + 1),
                     measure("Session.step (stepwise)", stepped_session, studio, settings, args.repeats // 2 + 1)]
        studio.close()
    base = statistics.median(r["median_ms"] for r in rows if r["label"].startswith("graph"))
    stepped = statistics.median(r["median_ms"] for r in rows if r["label"].startswith("Session"))
    calls = {r["label"]: r["calls"] for r in rows}
    print(f"{'run (seed example, offline, SQLite checkpoints)':<50} {'median ms':>10} {'graph calls':>12}")
    print(f"{'graph.invoke + resume (baseline)':<50} {base:>10.1f} {calls['graph.invoke + resume']:>12}")
    print(f"{'Session, one super-step per call, with records':<50} {stepped:>10.1f} {calls['Session.step (stepwise)']:>12}")
    print(f"ratio Session / invoke: {stepped / base:.2f}  (goal <= 1.5)")


if __name__ == "__main__":
    main()
