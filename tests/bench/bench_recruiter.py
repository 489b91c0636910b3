"""The Open Recruiter's guardrails and matcher, measured against baselines in the same run.

1. Input guardrail latency per text (p50/p95) for 1 KB and 64 KB recruiting texts: the full validator (NFKC and
   look-alike folding, per-sentence injection scoring, PII with phonenumbers/python-stdnum, masking) vs a plain
   regex-only baseline (a handful of English injection phrases and an email/phone regex over the raw text).
2. Match latency: building the hybrid index and ranking one job, for the 170 shipped demo candidates and for
   10,000 candidates (the demo's resumes re-combined), vs BM25 alone on the same index.
3. Ranking quality on the blind matching dev set: NDCG@10 of the hybrid matcher vs BM25 alone, embeddings alone
   and skills alone.

Run with `make bench` or `python -m tests.bench.bench_recruiter`. Prints figures; asserts no time.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import time
from dataclasses import replace
from pathlib import Path

from pipelines.core.guardrails.input_validator import validate_input_text
from pipelines.recruiter.matching import CandidateIndex
from pipelines.recruiter.records import Candidate, Job
from tests.support import matching_eval

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "assets" / "recruiter"

BASELINE = re.compile(r"ignore (?:all )?previous instructions|system prompt|you are now|jailbreak|"
                      r"[\w.+-]+@[\w-]+\.[\w.]+|\+?\d[\d\s-]{8,}\d", re.I)


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DEMO / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def demo_jobs() -> list[Job]:
    return [Job(r["id"], r["title"], r["description"], r.get("location"), tuple(r.get("skills") or ()), r.get("min_years"))
            for r in rows("jobs.jsonl")]


def demo_candidates() -> list[Candidate]:
    out = []
    for r in rows("candidates.jsonl"):
        text = r.get("resume_text") or ""
        out.append(Candidate(r["id"], r["name"], text, r.get("email"), r.get("phone"), tuple(r.get("skills") or ()),
                             r.get("years_experience"), r.get("location")))
    return out


def texts_of(size: int, count: int, seed: int = 7) -> list[str]:
    """Recruiting texts of about `size` characters: resume paragraphs in both languages, some PII, no attack."""
    rng = random.Random(seed)
    pool = [c.resume_text for c in demo_candidates() if c.resume_text]
    out = []
    for i in range(count):
        parts, length = [], 0
        while length < size:
            part = rng.choice(pool)
            parts.append(part)
            length += len(part) + 1
        text = "\n".join(parts)[:size - 60]
        out.append(text + f"\nContact: person{i}@example.com, +86 138 0013 {8000 + i % 1000:04d}")
    return out


def latency_ms(fn, items, repeat: int = 1) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        for item in items:
            start = time.perf_counter()
            fn(item)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def bench_guardrails() -> None:
    print("\n1. Input guardrail latency per text (ms)")
    print(f"{'size':>6} {'texts':>6} {'full p50':>10} {'full p95':>10} {'regex p50':>10} {'regex p95':>10} {'ratio p50':>10}")
    validate_input_text("warm-up: call me on +86 138 0013 8000")
    for size, count in ((1_000, 200), (64_000, 20)):
        items = texts_of(size, count)
        full = latency_ms(lambda t: validate_input_text(t, max_chars=64_000), items)
        base = latency_ms(lambda t: BASELINE.findall(t), items, repeat=5)
        print(f"{size // 1000:>5}K {count:>6} {full[0]:>10.2f} {full[1]:>10.2f} {base[0]:>10.3f} {base[1]:>10.3f} "
              f"{full[0] / max(base[0], 1e-6):>9.0f}x")


def many_candidates(count: int, seed: int = 11) -> list[Candidate]:
    """`count` candidates whose resumes are the demo's paragraphs re-combined (so BM25 and skills have real text)."""
    rng = random.Random(seed)
    demo = demo_candidates()
    paragraphs = [p for c in demo for p in c.resume_text.split("\n\n") if p.strip()]
    out = []
    for i in range(count):
        base = demo[i % len(demo)]
        text = "\n\n".join(rng.sample(paragraphs, 4))
        out.append(replace(base, id=f"X{i:05d}", name=f"{base.name} {i}", resume_text=text, email=None, phone=None))
    return out


def bench_matching() -> None:
    print("\n2. Match latency (one job ranked over all candidates; index built once)")
    print(f"{'candidates':>11} {'build s':>9} {'hybrid ms':>10} {'bm25 ms':>9} {'ratio':>7}")
    jobs = demo_jobs()
    for candidates in (demo_candidates(), many_candidates(10_000)):
        start = time.perf_counter()
        index = CandidateIndex(candidates)
        build = time.perf_counter() - start
        index.rank(jobs[0], top=10)  # warm-up
        hybrid = statistics.median(_rank_ms(index, job, ("bm25", "skills", "embedding")) for job in jobs)
        bm25 = statistics.median(_rank_ms(index, job, ("bm25",)) for job in jobs)
        print(f"{len(candidates):>11,} {build:>9.2f} {hybrid:>10.1f} {bm25:>9.1f} {hybrid / max(bm25, 1e-6):>6.1f}x")


def _rank_ms(index: CandidateIndex, job: Job, parts: tuple[str, ...]) -> float:
    start = time.perf_counter()
    index.rank(job, top=10, parts=parts)
    return (time.perf_counter() - start) * 1000


def bench_ranking_quality() -> None:
    print("\n3. NDCG@10 on the blind matching dev set (tests/devsets/matching)")
    print(f"{'ranker':<28} {'NDCG@10':>8}")
    for label, parts in (("hybrid (bm25+skills+emb.)", ("bm25", "skills", "embedding")), ("BM25 alone", ("bm25",)),
                         ("embeddings alone", ("embedding",)), ("skills alone", ("skills",))):
        print(f"{label:<28} {matching_eval.evaluate(parts)['ndcg@10']:>8.3f}")


def main() -> int:
    bench_guardrails()
    bench_matching()
    bench_ranking_quality()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
