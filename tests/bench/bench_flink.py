"""Flink diagnosis throughput (1, 2, 4 workers on SQLite and MariaDB) and retrieval latency and recall@3.

Throughput ratios are against one worker on the same database in the same run; retrieval latency is also
shown against exact numpy cosine search over the same vectors. Run with `make bench` or
`python -m tests.bench.bench_flink [--quick]`.
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import time
from pathlib import Path


from pipelines.core.settings import load_settings
from pipelines.flink_diagnosis import services
from pipelines.flink_diagnosis.worker_pool import run_workers
from tests.bench.retrieval_bench import measure_retrieval

ROOT = Path(__file__).resolve().parents[2]

MARIADB_URL = "mysql+pymysql://root@127.0.0.1:3306/test"
SAMPLES = [json.loads(line) for line in
           (ROOT / "tests/fixtures/flink/dev_exceptions.jsonl").read_text(encoding="utf-8").splitlines() if line]


def exceptions(n: int) -> list[dict]:
    return [{"job_id": f"bench-{i}", "error_type": SAMPLES[i % len(SAMPLES)]["error_type"] or None,
             "error_message": f"{SAMPLES[i % len(SAMPLES)]['error_message']}\n(bench item {i})"} for i in range(n)]


def throughput(db_url: str | None, workers: int, n: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="stepwise-bench-flink-") as data:
        settings = load_settings(data_dir=data, db_url=db_url or "")
        store = services.open_store(settings)
        store.purge()
        services.open_flink_knowledge(settings).ensure_indexed()
        store.add_many(exceptions(n))
        started = time.perf_counter()
        reports = run_workers(settings, workers, until_empty=True, poll_s=0.2)
        wall = time.perf_counter() - started
        rows = store.list_exceptions(limit=n)
        first = min(r["claimed_at"] for r in rows)
        last = max(r["updated_at"] for r in rows)
        done = sum(r.completed + r.failed for r in reports)
        store.purge()
        services.close_all()
    steady = (last - first).total_seconds()
    return {"done": done, "wall_s": wall, "per_s": done / wall, "steady_per_s": done / max(steady, 1e-6)}


def mariadb_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 3306), timeout=2).close()
        return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer exceptions and no 50k retrieval run")
    args = parser.parse_args()
    n = 60 if args.quick else 200
    print(f"== throughput: {n} exceptions through the whole graph (offline engine), spawn time included in wall")
    print(f"{'database':<9} {'workers':>7} {'wall s':>8} {'exc/s':>7} {'steady/s':>9} {'vs 1 worker':>12}")
    for name, url in (("sqlite", None), ("mariadb", MARIADB_URL)):
        if name == "mariadb" and not mariadb_up():
            print("mariadb   (not running on 127.0.0.1:3306: skipped)")
            continue
        base = None
        for workers in (1, 2, 4):
            r = throughput(url, workers, n)
            base = base or r["steady_per_s"]
            print(f"{name:<9} {workers:>7} {r['wall_s']:>8.2f} {r['per_s']:>7.1f} {r['steady_per_s']:>9.1f} "
                  f"{r['steady_per_s'] / base:>11.2f}x", flush=True)
    sizes = (1000, 10000) if args.quick else (1000, 10000, 50000)
    print("\n== retrieval: embedded Chroma (HNSW) vs exact numpy cosine over the same vectors, 200 queries")
    print(f"{'cases':>7} {'index s':>8} {'p50 ms':>7} {'p95 ms':>7} {'exact p50':>10} {'recall@3':>9}")
    for size in sizes:
        r = measure_retrieval(size)
        print(f"{size:>7} {r['index_s']:>8} {r['p50_ms']:>7} {r['p95_ms']:>7} {r['exact_p50_ms']:>10} "
              f"{r['recall_at_3']:>9}", flush=True)


if __name__ == "__main__":
    main()
