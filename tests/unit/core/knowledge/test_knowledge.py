"""The knowledge store on a real embedded Chroma, and the offline embedding it uses by default."""

import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from pipelines.core.knowledge.store import (
    DEFAULT_DIM,
    Hit,
    KnowledgeStoreError,
    LangChainEmbedding,
    OfflineEmbedding,
    clean_metadata,
    make_embedder,
    open_knowledge,
)
from pipelines.core.settings import load_settings

ROOT = Path(__file__).resolve().parents[4]

FLINK_CASES = {
    "checkpoint-expired": "Checkpoint expired before completing. org.apache.flink.runtime.checkpoint."
                          "CheckpointException: Checkpoint expired before completing.\n\tat org.apache.flink."
                          "runtime.checkpoint.CheckpointCoordinator.abortPendingCheckpoint("
                          "CheckpointCoordinator.java:2143)",
    "heap-oom": "java.lang.OutOfMemoryError: Java heap space\n\tat java.util.Arrays.copyOf(Arrays.java:3236)\n\t"
                "at org.apache.flink.runtime.io.network.buffer.NetworkBufferPool.requestMemorySegments",
    "kafka-timeout": "org.apache.kafka.common.errors.TimeoutException: Timeout expired while fetching topic "
                     "metadata for topic orders",
    "no-resources": "org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not "
                    "acquire the minimum required resources within 300000 ms",
    "connection-refused": "java.net.ConnectException: Connection refused: kafka-broker-1/10.0.0.12:9092\n\t"
                          "at sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)",
    "checkpoint-declined": "Checkpoint 42 of job 7f3a9c0d1e2b4a5f declined: Task Source: Kafka -> Map (3/4) "
                           "was not running",
    "serialization": "org.apache.flink.api.common.InvalidProgramException: The implementation of the "
                     "MapFunction is not serializable. The object probably contains or references non "
                     "serializable fields.",
    "zh-checkpoint-timeout": "检查点超时：Checkpoint 在完成之前过期，建议增大 checkpoint 超时时间并检查反压",
    "zh-container-killed": "TaskManager 内存不足，容器被 YARN 杀死 (exit code 137)，请调大托管内存",
}


def _metadata(case_id: str) -> dict:
    return {"lang": "zh" if case_id.startswith("zh-") else "en", "kind": case_id.split("-")[-1],
            "tags": ["flink", case_id], "resolved_by": None}


@pytest.fixture
def kb(settings):
    kb = open_knowledge(settings)
    yield kb
    kb.close()


@pytest.fixture
def cases(kb):
    ids = list(FLINK_CASES)
    kb.upsert("cases", ids, [FLINK_CASES[i] for i in ids], [_metadata(i) for i in ids])
    return kb


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- the offline embedding -------------------------------------------------------------------------------

SAMPLES = ["org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing",
           "检查点超时", "", "at 0x7f3a9c0d 12345", FLINK_CASES["heap-oom"] + " HTTPServerError myCamelCaseName"]

DIGEST_SCRIPT = """
import hashlib, json, sys
from pipelines.core.knowledge.store import OfflineEmbedding
vectors = OfflineEmbedding().embed(json.loads(sys.argv[1]))
print(hashlib.sha256(vectors.tobytes()).hexdigest())
"""


@pytest.mark.parametrize("hash_seed", ["1", "12345"])
def test_embedding_is_the_same_in_another_process_with_another_hash_seed(hash_seed):
    here = hashlib.sha256(OfflineEmbedding().embed(SAMPLES).tobytes()).hexdigest()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed}
    there = subprocess.run([sys.executable, "-c", DIGEST_SCRIPT, json.dumps(SAMPLES)], env=env, cwd=ROOT,
                           capture_output=True, text=True, timeout=120, check=True).stdout.strip()
    assert there == here


def test_vectors_are_unit_length_float32_and_empty_text_is_zero():
    emb = OfflineEmbedding()
    vectors = emb.embed(SAMPLES)
    assert vectors.shape == (len(SAMPLES), DEFAULT_DIM) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[[0, 1, 3, 4]], axis=1), 1.0, atol=1e-5)
    assert not vectors[2].any()
    assert emb.model_name == f"stepwise-hash-v1-{DEFAULT_DIM}"
    assert OfflineEmbedding(dim=512).embed(["x y"]).shape == (1, 512)


def test_embedding_speaks_chromas_protocol():
    emb = OfflineEmbedding(dim=256)
    assert not emb.is_legacy()
    assert OfflineEmbedding.build_from_config(emb.get_config()).model_name == emb.model_name
    assert len(emb(["one", "two"])) == 2 and emb.default_space() == "cosine"


def test_similar_texts_score_higher_than_unrelated_ones():
    emb = OfflineEmbedding()
    base, similar, unrelated = emb.embed([
        "org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing",
        "Checkpoint 17 expired before completing; the CheckpointCoordinator aborted it",
        "java.lang.OutOfMemoryError: Java heap space while requesting network buffers"])
    assert base @ similar > 0.3 > base @ unrelated


def test_java_class_names_match_their_parts():
    emb = OfflineEmbedding()
    dotted, parts, other = emb.embed(["org.apache.flink.runtime.checkpoint.CheckpointException",
                                      "checkpoint exception", "network buffer pool"])
    assert dotted @ parts > 0.4 and dotted @ parts > dotted @ other + 0.3


def test_stack_trace_noise_weighs_little():
    emb = OfflineEmbedding()
    a, b = emb.embed(["at org.apache.flink java.lang Native Method 4711 0xdeadbeef12 Checkpoint expired",
                      "Checkpoint expired"])
    assert a @ b > 0.9


# --- the store -------------------------------------------------------------------------------------------

def test_a_query_with_typos_still_finds_the_expired_checkpoint_first(cases):
    hits = cases.search("cases", "Checkpont expird before completing", k=3)
    assert [h.id for h in hits][0] == "checkpoint-expired"
    assert len(hits) == 3 and hits[0].score > hits[1].score
    assert all(isinstance(h, Hit) and -1.0 <= h.score <= 1.0 for h in hits)
    with pytest.raises(AttributeError):
        hits[0].score = 1.0  # frozen


def test_english_queries_find_their_case(cases):
    assert cases.search("cases", "out of heap space memory", k=1)[0].id == "heap-oom"
    assert cases.search("cases", "timeout fetching kafka metadata", k=1)[0].id == "kafka-timeout"
    assert cases.search("cases", "MapFunction not serialisable", k=1)[0].id == "serialization"


def test_a_chinese_query_finds_the_chinese_document(cases):
    assert cases.search("cases", "检查点超时怎么办", k=1)[0].id == "zh-checkpoint-timeout"
    assert cases.search("cases", "容器内存不足被杀", k=1)[0].id == "zh-container-killed"


def test_where_filters_on_metadata(cases):
    hits = cases.search("cases", "checkpoint expired", k=5, where={"lang": "zh"})
    assert {h.id for h in hits} == {"zh-checkpoint-timeout", "zh-container-killed"}
    hits = cases.search("cases", "checkpoint", k=5, where={"lang": "en", "kind": "declined"})
    assert [h.id for h in hits] == ["checkpoint-declined"]
    assert hits[0].metadata == {"lang": "en", "kind": "declined", "tags": '["flink", "checkpoint-declined"]'}


def test_browse_count_get_and_delete(cases):
    assert cases.count("cases") == len(FLINK_CASES) and not cases.needs_index("cases")
    assert [c.name for c in cases.client.list_collections()] == ["cases"]
    page = cases.get("cases", limit=3, offset=2)
    assert len(page) == 3 and set(page[0]) == {"id", "document", "metadata"}
    [one] = cases.get("cases", ids=["heap-oom"])
    assert one["document"] == FLINK_CASES["heap-oom"] and one["metadata"]["lang"] == "en"
    assert {r["id"] for r in cases.get("cases", where={"lang": "zh"})} == {"zh-checkpoint-timeout",
                                                                          "zh-container-killed"}
    cases.delete_collection("cases")
    cases.delete_collection("cases")  # twice is fine
    assert cases.count("cases") == 0 and cases.needs_index("cases") and cases.get("cases") == []


def test_empty_query_missing_or_empty_collection_give_no_hits(kb):
    assert kb.search("nothing-here", "checkpoint") == [] and kb.count("nothing-here") == 0
    assert kb.client.list_collections() == []  # reading does not create
    kb.collection("empty-one")
    assert kb.search("empty-one", "checkpoint") == [] and kb.needs_index("empty-one")
    kb.upsert("empty-one", ["a"], ["checkpoint expired"])
    assert kb.search("empty-one", "   ") == [] and kb.search("empty-one", "") == []


def test_upsert_batches_report_progress_and_update_in_place(kb):
    seen = []
    kb.upsert("batches", [f"d{i}" for i in range(5)], [f"document number {i}" for i in range(5)],
              batch_size=2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2, 5), (4, 5), (5, 5)]
    kb.upsert("batches", ["d0"], ["a rewritten document about watermarks"], [{"v": 2}])
    assert kb.count("batches") == 5
    assert kb.get("batches", ids=["d0"])[0] == {"id": "d0", "document": "a rewritten document about watermarks",
                                                "metadata": {"v": 2}}
    with pytest.raises(ValueError, match="same length"):
        kb.upsert("batches", ["x", "y"], ["only one"])


def test_a_reopened_store_still_finds_what_was_indexed(settings):
    first = open_knowledge(settings)
    first.upsert("cases", list(FLINK_CASES), list(FLINK_CASES.values()))
    first.close()
    again = open_knowledge(settings)  # as a restarted app would
    try:
        assert again.count("cases") == len(FLINK_CASES) and not again.needs_index("cases")
        assert again.search("cases", "Checkpont expird before completing", k=1)[0].id == "checkpoint-expired"
    finally:
        again.close()


def test_another_process_reads_the_persisted_store(settings):
    kb = open_knowledge(settings)
    kb.upsert("cases", list(FLINK_CASES), list(FLINK_CASES.values()))
    kb.close()
    script = ("import sys; from pipelines.core.knowledge.store import open_knowledge; "
              "from pipelines.core.settings import load_settings; "
              "kb = open_knowledge(load_settings(data_dir=sys.argv[1])); "
              "print(kb.search('cases', '检查点超时', k=1)[0].id)")
    out = subprocess.run([sys.executable, "-c", script, settings.data_dir], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "zh-checkpoint-timeout"


def test_persisted_collections_carry_model_and_rebuild_their_embedding_function_without_warnings(settings):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kb = open_knowledge(settings)
        kb.upsert("cases", ["a"], ["checkpoint expired"])
        coll = kb.collection("cases")
        assert coll.metadata["embedding_model"] == kb.model_name
        assert coll.configuration_json["hnsw"]["space"] == "cosine"
        assert coll.configuration_json["embedding_function"]["name"] == "stepwise-hash"
        rebuilt = coll.configuration["embedding_function"]
        assert isinstance(rebuilt, OfflineEmbedding) and rebuilt.model_name == kb.model_name
        # Chroma itself can embed a text query with the rebuilt function.
        fresh = kb.client.get_collection("cases", embedding_function=rebuilt)
        assert fresh.query(query_texts=["checkpoint"], n_results=1)["ids"] == [["a"]]
        kb.close()


def test_a_switch_of_embedding_model_recreates_the_collection_empty(settings):
    kb = open_knowledge(settings)
    kb.upsert("cases", list(FLINK_CASES), list(FLINK_CASES.values()))
    kb.close()
    switched = open_knowledge(settings, embedder=OfflineEmbedding(dim=512))
    try:
        assert switched.needs_index("cases") and switched.count("cases") == 0
        assert switched.collection("cases").metadata["embedding_model"] == "stepwise-hash-v1-512"
        switched.upsert("cases", list(FLINK_CASES), list(FLINK_CASES.values()))
        assert switched.search("cases", "heap space", k=1)[0].id == "heap-oom"
    finally:
        switched.close()
    back = open_knowledge(settings)  # and back again: never a mix of 768- and 512-dimensional vectors
    try:
        assert back.needs_index("cases")
    finally:
        back.close()


def test_clean_metadata_keeps_scalars_drops_none_and_encodes_the_rest():
    assert clean_metadata({"a": "x", "b": 2, "c": 1.5, "d": True, "e": None, "f": ["x", 1], "g": {"k": "检查"},
                           3: "n"}) == {"a": "x", "b": 2, "c": 1.5, "d": True, "f": '["x", 1]',
                                        "g": '{"k": "检查"}', "3": "n"}
    assert clean_metadata(None) == {}


# --- settings and failures -------------------------------------------------------------------------------

def test_an_unreachable_server_fails_fast_with_the_url_and_no_secret(tmp_path):
    port = _closed_port()
    settings = load_settings(data_dir=str(tmp_path), chroma_url=f"http://stepwise:hunter2@127.0.0.1:{port}")
    started = time.monotonic()
    with pytest.raises(KnowledgeStoreError) as caught:
        open_knowledge(settings)
    assert time.monotonic() - started < 10
    message = str(caught.value)
    assert message.startswith(f"cannot reach the Chroma server at http://127.0.0.1:{port}")
    assert "hunter2" not in message and "stepwise:" not in message


def test_a_chroma_url_must_be_http(tmp_path):
    with pytest.raises(KnowledgeStoreError, match="use http://host:port"):
        open_knowledge(load_settings(data_dir=str(tmp_path), chroma_url="redis://127.0.0.1:6379"))


def test_an_unusable_data_dir_names_the_path(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data dir should be")
    with pytest.raises(KnowledgeStoreError, match=f"cannot open the Chroma store at {blocker / 'chroma'}"):
        open_knowledge(load_settings(data_dir=str(blocker)))


def test_embedding_provider_by_setting_builds_without_calling_the_network(tmp_path):
    assert isinstance(make_embedder(load_settings(data_dir=str(tmp_path))), OfflineEmbedding)
    openai = make_embedder(load_settings(data_dir=str(tmp_path), embedding_provider="openai", api_key="sk-test",
                                         provider="openai", base_url="http://127.0.0.1:9/v1"))
    assert isinstance(openai, LangChainEmbedding) and openai.model_name == "openai:text-embedding-3-small"
    assert type(openai.client).__name__ == "OpenAIEmbeddings"
    assert str(openai.client.openai_api_base) == "http://127.0.0.1:9/v1"
    assert "sk-test" not in json.dumps(openai.get_config())
    ollama = make_embedder(load_settings(data_dir=str(tmp_path), embedding_provider="ollama",
                                         embedding_model="bge-m3"))
    assert ollama.model_name == "ollama:bge-m3" and ollama.base_url == "http://127.0.0.1:11434"
    assert type(ollama.client).__name__ == "OllamaEmbeddings"
    assert not ollama.is_legacy()


def test_a_large_collection_is_read_a_page_at_a_time(tmp_path, monkeypatch):
    # Embedded Chroma refuses to return more than ~32,000 records at once ("too many SQL variables"): a 30 MB
    # document is 43,000 passages. Pages of 7 here show every record comes back once, in pages, with or without text.
    from pipelines.core.knowledge import store

    monkeypatch.setattr(store, "GET_PAGE", 7)
    kb = open_knowledge(load_settings(data_dir=str(tmp_path)))
    ids = [f"d#{i}" for i in range(30)]
    vectors = np.random.default_rng(0).standard_normal((30, 8)).astype(np.float32)
    kb.upsert("pages", ids, [f"text {i}" for i in range(30)], [{"chunk": i, "doc": "d"} for i in range(30)],
              embeddings=vectors)
    rows = kb.get("pages")
    assert sorted(r["id"] for r in rows) == sorted(ids) and all(r["document"].startswith("text") for r in rows)
    assert sorted(r["metadata"]["chunk"] for r in kb.get("pages", where={"doc": "d"}, texts=False)) == list(range(30))
    assert all(r["document"] == "" for r in kb.get("pages", texts=False))
    assert len(kb.get("pages", limit=10, offset=25)) == 5 and len(kb.get("pages", limit=9)) == 9
    assert sorted(r["id"] for r in kb.get("pages", ids=ids[:20])) == sorted(ids[:20])
    kb.close()
