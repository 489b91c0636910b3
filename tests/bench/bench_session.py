"""Session overhead: workflows stepped through Session vs plain graph.invoke, same graph and checkpointer.

Two workflows: career_navigator's seed example (goal: ratio <= 1.5) and an iCan counselor session (guide turns
stepped inside the nested subgraph, then the analysis stages). Each round times both ways, interleaved, and
gives one ratio per workflow; the figures printed are medians over the rounds. Prints figures, asserts no time.
Run with `make bench` or `python -m tests.bench.bench_session [--rounds 5] [--repeats 5]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from langgraph.types import Command

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.registry import get_spec
from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from pipelines.core.spec import RuntimeDeps

ROOT = Path(__file__).resolve().parents[2]

SCENARIOS = {
    "career_navigator": "assets/scenarios/career_navigator/seed_example.json",
    "ican": "assets/scenarios/ican/zh_forced_after_three.json",
}


def _scenario(pipeline: str) -> dict:
    return json.loads((ROOT / SCENARIOS[pipeline]).read_text(encoding="utf-8"))


def plain_invoke(studio: Studio, settings, pipeline: str) -> int:
    """The baseline: graph.invoke, then one Command(resume=...) per interrupt, nothing recorded."""
    spec, scenario = get_spec(pipeline), _scenario(pipeline)
    graph = studio.compiled(spec)
    context = spec.make_context(RuntimeDeps(settings=settings, gateway=ModelGateway(settings)))
    thread = uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread}}
    payload = spec.make_input(scenario["input"], thread)
    answers = list(scenario["answers"])
    calls = 0
    while True:
        result = graph.invoke(payload, config, context=context)
        calls += 1
        if "__interrupt__" not in result:
            return calls
        payload = Command(resume=answers.pop(0))


def stepped_session(studio: Studio, settings, pipeline: str) -> int:
    """Stepwise: every super-step a separate Session.step(), with its records, diffs and counters."""
    spec, scenario = get_spec(pipeline), _scenario(pipeline)
    session = studio.new_session(spec, scenario["input"], settings)
    answers = list(scenario["answers"])
    steps = 1
    while (status := session.status()) != "completed":
        if status == "waiting":
            session.resume(answers.pop(0))
        else:
            session.step()
        steps += 1
    return steps


def _median_ms(fn: Callable[[], int], repeats: int) -> tuple[float, int]:
    times, count = [], 0
    for _ in range(repeats):
        started = time.perf_counter()
        count = fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), count


def measure(pipeline: str, rounds: int, repeats: int) -> dict:
    """`rounds` ratios, each from the medians of `repeats` runs of both ways, interleaved."""
    with tempfile.TemporaryDirectory() as data:
        settings = load_settings(data_dir=data)
        studio = Studio.from_settings(settings)  # SQLite checkpoints, the default
        plain = lambda: plain_invoke(studio, settings, pipeline)  # noqa: E731
        stepped = lambda: stepped_session(studio, settings, pipeline)  # noqa: E731
        plain(), stepped()  # warm imports, caches and the compiled graph
        bases, steps, ratios, calls = [], [], [], {}
        for _ in range(rounds):
            base, calls["plain"] = _median_ms(plain, repeats)
            step, calls["stepped"] = _median_ms(stepped, repeats)
            bases.append(base)
            steps.append(step)
            ratios.append(step / base)
        studio.close()
    return {"pipeline": pipeline, "base_ms": statistics.median(bases), "step_ms": statistics.median(steps),
            "ratio": statistics.median(ratios), "ratios": ratios, **calls}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5, help="ratios measured; the median is reported")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each way per round")
    args = parser.parse_args()
    results = [measure(pipeline, args.rounds, args.repeats) for pipeline in SCENARIOS]
    print(f"{'workflow (offline, SQLite checkpoints)':<24} {'invoke ms':>10} {'calls':>6} {'Session ms':>11} "
          f"{'steps':>6} {'ratio':>6}  ratios of the {args.rounds} rounds")
    for r in results:
        print(f"{r['pipeline']:<24} {r['base_ms']:>10.1f} {r['plain']:>6} {r['step_ms']:>11.1f} {r['stepped']:>6} "
              f"{r['ratio']:>6.2f}  {' '.join(f'{x:.2f}' for x in r['ratios'])}")
    for r in results:
        goal = "  (goal <= 1.5)" if r["pipeline"] == "career_navigator" else ""
        print(f"median ratio Session / invoke, {r['pipeline']}: {r['ratio']:.2f}{goal}")


if __name__ == "__main__":
    main()
