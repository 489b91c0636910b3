"""iCan's offline engine and session, measured against baselines in the same run.

1. RIASEC lexicon matching: the token index in pipelines/ican/lexicon.py vs one compiled regex alternation over
   the same ~5,000 terms (the first implementation), on the 180 evaluation descriptions.
2. Career matching over 923 O*NET occupations: the full matcher (interest fit, skills, target) vs interest fit
   alone.
3. A whole counselor session (guide turns with the nested subgraph, then the four analysis stages), stepped
   through Session vs plain graph.invoke on the same graph and checkpointer.

Run with `make bench` or `python -m tests.bench.bench_ican`. Prints figures; asserts no time.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
import uuid
from pathlib import Path


from langgraph.types import Command

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.spec import RuntimeDeps
from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.ican.lexicon import normalize
from pipelines.ican.occupations import client_skills, interest_fit, match_careers, occupations
from pipelines.ican.riasec import riasec_matcher, score_riasec
from pipelines.ican.schemas import RIASEC

ROOT = Path(__file__).resolve().parents[2]

FIXTURES = ROOT / "tests" / "fixtures" / "ican"
SCENARIO = json.loads((ROOT / "assets/scenarios/ican/zh_forced_after_three.json").read_text(encoding="utf-8"))


def descriptions() -> list[str]:
    return [json.loads(line)["text"] for name in ("riasec_dev.jsonl", "riasec_holdout.jsonl")
            for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def regex_baseline():
    """The same terms as one alternation of per-term patterns, longest first."""
    def pattern(text: str) -> str:
        if re.search(r"[\u4e00-\u9fff]", text):
            return re.escape(text)
        words = [re.escape(w[:-1]) + "[a-z0-9']*" if w.endswith("*") else re.escape(w) + "(?:s|es)?"
                 for w in text.lower().replace("-", " ").split()]
        return r"(?<![a-z0-9'])" + r"[\s\-/]+".join(words) + r"(?![a-z0-9'])"
    terms = sorted(riasec_matcher().terms, key=lambda t: -len(t.text))
    compiled = re.compile("|".join(f"(?:{pattern(t.text)})" for t in terms))
    return lambda text: len(compiled.findall(normalize(text)))


def per_call_ms(fn, items, repeat: int = 3) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for item in items:
            fn(item)
        runs.append((time.perf_counter() - t0) * 1000 / len(items))
    return statistics.median(runs)


def bench_riasec() -> None:
    texts = descriptions()
    riasec_matcher()
    baseline = regex_baseline()
    indexed = per_call_ms(score_riasec, texts)
    regex = per_call_ms(baseline, texts[:40], repeat=1)
    print(f"RIASEC scoring, {len(texts)} descriptions, {len(riasec_matcher().terms)} terms")
    print(f"  {'token index (score_riasec)':<34} {indexed:8.3f} ms/description")
    print(f"  {'regex alternation (baseline)':<34} {regex:8.3f} ms/description   speed-up {regex / indexed:6.0f}x")


def bench_matching() -> None:
    occupations()
    profile = {"R": 20, "I": 88, "A": 35, "S": 25, "E": 15, "C": 55}
    skills = client_skills("I write Python and SQL, do statistics and build dashboards in Excel.")

    def interest_only(_):
        vector = [profile[t] for t in RIASEC]
        return sorted(occupations(), key=lambda o: -interest_fit(vector, o.interests))[:10]

    full = per_call_ms(lambda _: match_careers(profile, skills, "en", "data analyst"), range(20))
    base = per_call_ms(interest_only, range(20))
    print(f"Career matching over {len(occupations())} occupations")
    print(f"  {'interest fit only (baseline)':<34} {base:8.2f} ms")
    print(f"  {'full matcher (skills, target)':<34} {full:8.2f} ms   ratio {full / base:5.2f}")


def bench_session() -> None:
    spec = get_spec("ican")
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(data_dir=tmp)
        studio = Studio.from_settings(settings)
        context = spec.make_context(RuntimeDeps(settings=settings, gateway=ModelGateway(settings)))
        graph = studio.compiled(spec)

        def plain() -> None:
            thread = uuid.uuid4().hex
            config = {"configurable": {"thread_id": thread}}
            payload, answers = spec.make_input(SCENARIO["input"], thread), list(SCENARIO["answers"])
            while "__interrupt__" in (result := graph.invoke(payload, config, context=context)):
                payload = Command(resume=answers.pop(0))
            assert result["final_report"]

        def stepped() -> int:
            session = studio.new_session(spec, SCENARIO["input"], settings)
            answers, steps = list(SCENARIO["answers"]), 1
            while (status := session.status()) != "completed":
                session.resume(answers.pop(0)) if status == "waiting" else session.step()
                steps += 1
            return steps

        plain(), stepped()  # warm up imports and caches
        base = statistics.median(_timed(plain) for _ in range(5))
        steps = stepped()
        step_ms = statistics.median(_timed(stepped) for _ in range(5))
        studio.close()
    print(f"A whole session ({SCENARIO['title']}): 3 guide turns, 4 analysis stages, {steps} steps")
    print(f"  {'graph.invoke (baseline)':<34} {base:8.1f} ms")
    print(f"  {'Session, stepped and recorded':<34} {step_ms:8.1f} ms   ratio {step_ms / base:5.2f}")


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


if __name__ == "__main__":
    bench_riasec()
    bench_matching()
    bench_session()
