"""Retrieval figures for the knowledge store: index time, query latency and Chroma's recall against exact search.

A helper for benchmark scripts (`from retrieval_bench import measure_retrieval`); run it directly for a table:
`python -m tests.bench.retrieval_bench [--sizes 1000 10000 50000]`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np


from pipelines.core.knowledge.store import OfflineEmbedding, open_knowledge
from pipelines.core.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]

EXCEPTIONS = {
    "org.apache.flink.runtime.checkpoint.CheckpointException": [
        "Checkpoint expired before completing", "Checkpoint {n} of job {job} declined by task {op}",
        "Task {op} failed to take snapshot: could not materialize checkpoint {n}"],
    "java.lang.OutOfMemoryError": ["Java heap space", "Metaspace", "Direct buffer memory",
                                   "GC overhead limit exceeded in {op}"],
    "org.apache.kafka.common.errors.TimeoutException": [
        "Timeout expired while fetching topic metadata for {topic}",
        "Topic {topic} not present in metadata after {ms} ms", "Failed to commit offsets for {topic}"],
    "org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException": [
        "Could not acquire the minimum required resources within {ms} ms",
        "Slot request for {op} timed out after {ms} ms"],
    "java.net.ConnectException": ["Connection refused: {host}:{port}", "Connection timed out to {host}"],
    "org.apache.flink.api.common.InvalidProgramException": [
        "The implementation of the {op} is not serializable", "Type of {op} could not be determined"],
    "org.apache.flink.runtime.io.network.netty.exception.RemoteTransportException": [
        "Lost connection to task manager {host}:{port}", "Connection unexpectedly closed by remote {host}"],
    "org.apache.flink.util.FlinkRuntimeException": [
        "Exceeded checkpoint tolerable failure threshold", "Could not restore keyed state backend for {op}"],
    "java.io.IOException": ["No space left on device writing {path}", "Stream closed while reading {path}",
                            "Could not perform checkpoint {n} for operator {op}"],
    "org.apache.flink.streaming.connectors.kafka.FlinkKafkaException": [
        "Failed to send data to Kafka topic {topic}: {reason}", "Producer fenced for transactional id {op}"],
    "java.lang.NullPointerException": ["Cannot invoke getKey because value is null in {op}",
                                       "null record in {op} at offset {n}"],
    "org.rocksdb.RocksDBException": ["While open a file for appending: {path}: Too many open files",
                                     "Write stall in column family {op}, pending compaction {mb} MB"],
    "java.lang.ClassNotFoundException": ["org.apache.flink.connector.{topic}.{op}Factory"],
    "org.apache.flink.runtime.taskexecutor.exceptions.TaskManagerException": [
        "Container released on a lost node {host}", "TaskManager {host} exited with code {code}"],
}
OPERATORS = ["Source: Kafka orders", "Map", "KeyedProcess", "Window(TumblingEventTimeWindows)", "Sink: JDBC",
             "FlatMap", "AsyncWaitOperator", "IntervalJoin", "Aggregate", "Filter", "Sink: Elasticsearch",
             "Source: CDC mysql", "ProcessWindowFunction", "CoProcess", "Deduplicate", "Sink: Iceberg"]
JOBS = ["orders-enrichment", "fraud-scoring", "clickstream-sessions", "inventory-sync", "payments-audit",
        "ad-attribution", "metrics-rollup", "user-profile-merge", "logistics-eta", "search-indexer"]
TOPICS = ["orders", "payments", "clicks", "inventory", "profiles", "shipments", "alerts", "audit-log"]
REASONS = ["record too large", "broker not available", "request timed out", "authorization failed"]
FRAMES = ["org.apache.flink.runtime.checkpoint.CheckpointCoordinator.abortPendingCheckpoint",
          "org.apache.flink.streaming.runtime.tasks.StreamTask.invoke",
          "org.apache.flink.runtime.taskmanager.Task.doRun",
          "org.apache.kafka.clients.producer.KafkaProducer.doSend",
          "org.apache.flink.contrib.streaming.state.RocksDBKeyedStateBackend.snapshot",
          "org.apache.flink.streaming.api.operators.AbstractStreamOperator.snapshotState",
          "org.apache.flink.runtime.io.network.partition.consumer.RemoteInputChannel.onError",
          "org.apache.flink.streaming.runtime.io.StreamInputProcessor.processInput",
          "org.apache.flink.runtime.resourcemanager.slotmanager.FineGrainedSlotManager.checkResources",
          "java.util.concurrent.ThreadPoolExecutor.runWorker"]
NOTES_ZH = ["作业在高峰期失败，反压严重", "检查点超时，状态过大", "容器内存不足被杀死", "Kafka 分区元数据获取超时",
            "磁盘空间不足导致任务失败", "序列化失败，算子不可序列化"]


def make_cases(n: int, seed: int = 7) -> list[tuple[str, str, dict]]:
    """n varied Flink-like cases: exception, message, job and operator, environment, a few frames, a note."""
    rng = random.Random(seed)
    classes = list(EXCEPTIONS)
    cases = []
    for i in range(n):
        cls = rng.choice(classes)
        slots = {"op": rng.choice(OPERATORS), "n": rng.randint(1, 9999), "job": f"{rng.getrandbits(64):016x}",
                 "topic": rng.choice(TOPICS), "ms": rng.choice([30000, 60000, 120000, 300000]),
                 "host": f"tm-{rng.randint(1, 400)}.flink.svc", "port": rng.choice([6121, 6122, 9092]),
                 "path": f"/data/flink/{rng.choice(JOBS)}/chk-{rng.randint(1, 999)}", "mb": rng.randint(64, 8192),
                 "code": rng.choice([1, 137, 143, 239]), "reason": rng.choice(REASONS)}
        message = rng.choice(EXCEPTIONS[cls]).format(**slots)
        job = rng.choice(JOBS)
        lines = [f"{cls}: {message}",
                 f"job {job} operator {rng.choice(OPERATORS)} parallelism {rng.choice([2, 4, 8, 16, 32])} "
                 f"state backend {rng.choice(['rocksdb', 'hashmap'])} interval {rng.choice([10, 30, 60, 300])}s",
                 *(f"\tat {frame}({frame.rsplit('.', 2)[-2]}.java:{rng.randint(40, 2400)})"
                   for frame in rng.sample(FRAMES, rng.randint(2, 5)))]
        if rng.random() < 0.15:
            lines.append(rng.choice(NOTES_ZH))
        cases.append((f"case-{i:06d}", "\n".join(lines), {"job": job, "exception": cls.rsplit(".", 1)[-1]}))
    return cases


def _typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 1)
    kind = rng.random()
    if kind < 0.4:
        return word[:i] + word[i + 1:]
    if kind < 0.7:
        return word[:i - 1] + word[i] + word[i - 1] + word[i + 1:]
    return word[:i] + rng.choice("aeiourstn") + word[i + 1:]


def perturb(text: str, rng: random.Random) -> str:
    """What a user types: a short part of the case, some words dropped, some misspelt."""
    words = text.split()
    start = 0 if rng.random() < 0.7 else rng.randrange(min(12, len(words)))
    words = words[start: start + rng.randint(4, 10)]
    kept = [w for w in words if rng.random() > 0.2] or words[:1]
    return " ".join(_typo(w, rng) if len(w) >= 5 and rng.random() < 0.3 else w for w in kept)


def measure_retrieval(n_cases: int, n_queries: int = 200, k: int = 3,
                      data_dir: str | Path | None = None, seed: int = 7) -> dict:
    """Index n_cases synthetic cases in embedded Chroma and compare its top-k with exact cosine top-k."""
    with tempfile.TemporaryDirectory(prefix="stepwise-bench-") as scratch:
        settings = load_settings(data_dir=str(data_dir or scratch))
        embedder = OfflineEmbedding()
        kb = open_knowledge(settings, embedder=embedder)
        name = f"bench-{n_cases}"
        try:
            kb.delete_collection(name)
            cases = make_cases(n_cases, seed)
            started = time.perf_counter()
            vectors = embedder.embed([doc for _, doc, _ in cases])
            embed_s = time.perf_counter() - started
            # The same vectors go to Chroma and to the exact search, so recall measures the index alone.
            kb.upsert(name, [c[0] for c in cases], [c[1] for c in cases], [c[2] for c in cases],
                      batch_size=2000, embeddings=vectors)
            index_s = time.perf_counter() - started
            rng = random.Random(seed + 1)
            latencies, exact_latencies, recalls = [], [], []
            for _ in range(n_queries):
                query = perturb(rng.choice(cases)[1], rng)
                t0 = time.perf_counter()
                hits = kb.search(name, query, k=k)
                latencies.append((time.perf_counter() - t0) * 1000)
                t1 = time.perf_counter()
                exact = vectors @ embedder.embed([query])[0]
                kth = np.partition(exact, -k)[-k]
                exact_latencies.append((time.perf_counter() - t1) * 1000)
                # Ties at the k-th score make "the" exact top-k ambiguous: any id scoring as high counts.
                found = sum(exact[int(h.id[5:])] >= kth - 1e-5 for h in hits)
                recalls.append(min(found, k) / k)
        finally:
            kb.delete_collection(name)
            kb.close()
    quantiles = statistics.quantiles(latencies, n=100)
    return {"n": n_cases, "index_s": round(index_s, 2), "embed_s": round(embed_s, 2),
            "p50_ms": round(statistics.median(latencies), 2), "p95_ms": round(quantiles[94], 2),
            "exact_p50_ms": round(statistics.median(exact_latencies), 2),
            f"recall_at_{k}": round(statistics.fmean(recalls), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    print(f"{'n':>8} {'embed_s':>8} {'index_s':>8} {'p50_ms':>8} {'p95_ms':>8} {'recall@3':>9}")
    for n in args.sizes:
        r = measure_retrieval(n, n_queries=args.queries)
        print(f"{r['n']:>8} {r['embed_s']:>8} {r['index_s']:>8} {r['p50_ms']:>8} {r['p95_ms']:>8} "
              f"{r['recall_at_3']:>9}", flush=True)


if __name__ == "__main__":
    main()
