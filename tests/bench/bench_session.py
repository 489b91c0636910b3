"""Session overhead: workflows stepped through Session vs plain graph.invoke, same graph and checkpointer.

Two workflows: career_navigator's seed example and an iCan counselor session (guide turns stepped inside the nested
subgraph, then the analysis stages); goal: ratio <= 1.5 for both. Four ways are timed, interleaved in each round:
plain invoke; every super-step a Session.step() (a click each: each claims the run); the same without the claim
(what one writer per thread costs); and Session.run to each question (Run to end: one claim per run). The figures
printed are medians over the rounds. Prints figures, asserts no time.
Run with `make bench` or `python -m tests.bench.bench_session [--rounds 5] [--repeats 5]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from langgraph.types import Command

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.registry import get_spec
from pipelines.core.runtime.session import Session
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


def run_session(studio: Studio, settings, pipeline: str) -> int:
    """Stepwise's Run to end: one Session.run to each question, answered, until the end."""
    spec, scenario = get_spec(pipeline), _scenario(pipeline)
    session = studio.new_session(spec, scenario["input"], settings)
    answers, steps = list(scenario["answers"]), 1
    while True:
        steps += len(session.run("end"))
        if session.status() != "waiting":
            return steps
        session.resume(answers.pop(0))
        steps += 1


@contextmanager
def unclaimed() -> Iterator[None]:
    """Sessions that move their thread without claiming it: the claim's cost is the difference."""
    original = Session.claimed

    @contextmanager
    def no_claim(self, *args, **kwargs):
        yield None

    Session.claimed = no_claim
    try:
        yield
    finally:
        Session.claimed = original


def _median_ms(fn: Callable[[], int], repeats: int) -> tuple[float, int]:
    times, count = [], 0
    for _ in range(repeats):
        started = time.perf_counter()
        count = fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), count


def measure(pipeline: str, rounds: int, repeats: int) -> dict:
    """`rounds` ratios, each from the medians of `repeats` runs of every way, interleaved."""
    with tempfile.TemporaryDirectory() as data:
        settings = load_settings(data_dir=data)
        studio = Studio.from_settings(settings)  # SQLite checkpoints, the default
        ways: dict[str, tuple[Callable, Callable]] = {
            "invoke": (plain_invoke, nullcontext), "step": (stepped_session, nullcontext),
            "step_unclaimed": (stepped_session, unclaimed), "run": (run_session, nullcontext)}
        for fn, context in ways.values():
            with context():
                fn(studio, settings, pipeline)  # warm imports, caches and the compiled graph
        times: dict[str, list[float]] = {name: [] for name in ways}
        counts: dict[str, int] = {}
        for _ in range(rounds):
            for name, (fn, context) in ways.items():
                with context():
                    ms, counts[name] = _median_ms(lambda fn=fn: fn(studio, settings, pipeline), repeats)
                times[name].append(ms)
        studio.close()
    ratio = lambda a, b: statistics.median(x / y for x, y in zip(times[a], times[b]))  # noqa: E731
    return {"pipeline": pipeline, "ms": {n: statistics.median(t) for n, t in times.items()}, "counts": counts,
            "step_ratio": ratio("step", "invoke"), "run_ratio": ratio("run", "invoke"),
            "unclaimed_ratio": ratio("step_unclaimed", "invoke"), "claim_cost": ratio("step", "step_unclaimed")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5, help="ratios measured; the median is reported")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each way per round")
    args = parser.parse_args()
    results = [measure(pipeline, args.rounds, args.repeats) for pipeline in SCENARIOS]
    print(f"{'workflow (offline, SQLite)':<18} {'invoke ms':>9} {'steps':>5} {'Step ms':>8} {'unclaimed':>9} "
          f"{'Run ms':>7}  {'Step/inv':>8} {'unclaimed/inv':>13} {'Run/inv':>7} {'claim cost':>10}")
    for r in results:
        ms = r["ms"]
        print(f"{r['pipeline']:<18} {ms['invoke']:>9.1f} {r['counts']['step']:>5} {ms['step']:>8.1f} "
              f"{ms['step_unclaimed']:>9.1f} {ms['run']:>7.1f}  {r['step_ratio']:>8.2f} {r['unclaimed_ratio']:>13.2f} "
              f"{r['run_ratio']:>7.2f} {r['claim_cost']:>10.2f}")
    for r in results:
        print(f"median ratio Session / invoke, {r['pipeline']}: stepped {r['step_ratio']:.2f}, run to each question "
              f"{r['run_ratio']:.2f} (goal <= 1.5); the claim costs {100 * (r['claim_cost'] - 1):+.0f} % of stepping")


if __name__ == "__main__":
    main()
