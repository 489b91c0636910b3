"""Scores the candidate matcher on the blind dev set in tests/devsets/matching: NDCG@10 per job and the mean, for
the hybrid ranker and each single signal. `python -m tests.support.matching_eval [--bench N]` prints the table
(and, with --bench, index build and rank times on N synthetic candidates)."""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from pipelines.recruiter.matching import PARTS, CandidateIndex
from pipelines.recruiter.records import Candidate, Job

DEV_SET = Path(__file__).resolve().parents[1] / "devsets" / "matching"
RANKERS: dict[str, tuple[str, ...]] = {"hybrid": PARTS, "bm25": ("bm25",), "embedding": ("embedding",),
                                       "skills": ("skills",)}
K = 10


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def job_record(row: dict[str, Any]) -> Job:
    return Job(row["id"], row["title"], row.get("description") or "", row.get("location"), tuple(row.get("skills") or ()),
               row.get("min_years"))


def candidate_record(row: dict[str, Any]) -> Candidate:
    return Candidate(row["id"], row["name"], row.get("resume_text") or "", row.get("email"), row.get("phone"),
                     tuple(row.get("skills") or ()), row.get("years_experience"), row.get("location"))


@cache
def load(path: Path = DEV_SET) -> tuple[tuple[Job, ...], tuple[Candidate, ...], dict[str, dict[str, int]]]:
    """The jobs, the candidates and the graded judgements {job id: {candidate id: grade}} (missing ones are 0)."""
    jobs = tuple(job_record(r) for r in _lines(path / "jobs.jsonl"))
    candidates = tuple(candidate_record(r) for r in _lines(path / "candidates.jsonl"))
    qrels: dict[str, dict[str, int]] = {}
    for row in _lines(path / "qrels.jsonl"):
        qrels.setdefault(row["job_id"], {})[row["candidate_id"]] = int(row["grade"])
    return jobs, candidates, qrels


@cache
def _index(path: Path = DEV_SET) -> CandidateIndex:
    return CandidateIndex(load(path)[1])


def ndcg(ranked: Sequence[str], grades: dict[str, int], k: int = K) -> float:
    """NDCG@k with gains 2^grade - 1, so a grade-3 candidate counts much more than a grade-1 one."""
    dcg = sum((2 ** grades.get(cid, 0) - 1) / math.log2(pos + 2) for pos, cid in enumerate(ranked[:k]))
    ideal = sorted(grades.values(), reverse=True)[:k]
    best = sum((2 ** g - 1) / math.log2(pos + 2) for pos, g in enumerate(ideal))
    return dcg / best if best else 0.0


def evaluate(parts: Sequence[str] = PARTS, *, filters: bool = True, path: Path = DEV_SET) -> dict[str, Any]:
    """{"ndcg@10": the mean over the jobs, "per_job": {job id: NDCG@10}, "top": {job id: [candidate ids]}}."""
    jobs, _, qrels = load(path)
    index = _index(path)
    per_job, tops = {}, {}
    for job in jobs:
        ranked = [m.candidate_id for m in index.rank(job, top=K, parts=tuple(parts), filters=filters)]
        per_job[job.id] = ndcg(ranked, qrels.get(job.id, {}))
        tops[job.id] = ranked
    return {"ndcg@10": sum(per_job.values()) / len(per_job) if per_job else 0.0, "per_job": per_job, "top": tops}


def synthetic_candidates(n: int, seed: int = 7, path: Path = DEV_SET) -> list[Candidate]:
    """n candidates made from the dev set's by shuffling their resume lines and swapping cities and years, so
    that no two texts are the same (the embedding caches words, not texts)."""
    rng = random.Random(seed)
    _, base, _ = load(path)
    cities = sorted({c.location for c in base if c.location})
    out = []
    for number in range(n):
        source = base[number % len(base)]
        lines = source.resume_text.splitlines()
        head, body = lines[:2], lines[2:]
        rng.shuffle(body)
        text = "\n".join([*head, *body, f"Reference {number}: {rng.randrange(10 ** 9)}"])
        years = None if source.years_experience is None else max(0.0, source.years_experience + rng.uniform(-2, 2))
        out.append(Candidate(f"S{number:05d}", f"{source.name} {number}", text, None, None, source.skills, years,
                             rng.choice(cities)))
    return out


def bench(n: int) -> dict[str, float]:
    """Seconds to build an index of n synthetic candidates and to rank them for each dev job (mean)."""
    jobs, _, _ = load()
    candidates = synthetic_candidates(n)
    started = time.perf_counter()
    index = CandidateIndex(candidates)
    built = time.perf_counter() - started
    started = time.perf_counter()
    for job in jobs:
        index.rank(job, top=10)
    return {"candidates": n, "build_s": built, "rank_s": (time.perf_counter() - started) / len(jobs)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.matching_eval")
    parser.add_argument("--bench", type=int, default=0, help="also time N synthetic candidates")
    args = parser.parse_args(argv)
    jobs, candidates, _ = load()
    started = time.perf_counter()
    _index()
    built = time.perf_counter() - started
    reports = {name: evaluate(parts) for name, parts in RANKERS.items()}
    print(f"NDCG@{K} on {DEV_SET} ({len(jobs)} jobs, {len(candidates)} candidates; index built in {built:.2f}s)")
    print(f"{'job':<8}" + "".join(f"{name:>11}" for name in RANKERS))
    for job in jobs:
        print(f"{job.id:<8}" + "".join(f"{reports[name]['per_job'][job.id]:>11.3f}" for name in RANKERS))
    print(f"{'mean':<8}" + "".join(f"{reports[name]['ndcg@10']:>11.3f}" for name in RANKERS))
    unfiltered = evaluate(PARTS, filters=False)["ndcg@10"]
    print(f"hybrid without the hard filters (years, location): {unfiltered:.3f}")
    started = time.perf_counter()
    for job in jobs:
        _index().rank(job)
    print(f"rank: {(time.perf_counter() - started) / len(jobs) * 1000:.1f} ms per job")
    if args.bench:
        result = bench(args.bench)
        print(f"{result['candidates']} synthetic candidates: index built in {result['build_s']:.2f}s, "
              f"rank {result['rank_s'] * 1000:.1f} ms per job")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
