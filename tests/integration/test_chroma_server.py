"""A real Chroma server started by the test: two workers index and search one shared knowledge store."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from pipelines.core.knowledge.store import open_knowledge
from pipelines.core.settings import load_settings

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]
CHROMA = Path(sys.executable).with_name("chroma")

CASES = {
    "checkpoint-expired": "org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before "
                          "completing.",
    "heap-oom": "java.lang.OutOfMemoryError: Java heap space",
    "kafka-timeout": "org.apache.kafka.common.errors.TimeoutException: Timeout expired while fetching topic "
                     "metadata",
    "zh-checkpoint-timeout": "检查点超时：Checkpoint 在完成之前过期",
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def chroma_url(tmp_path):
    if not CHROMA.exists():
        if os.environ.get("STEPWISE_REQUIRE_SERVICES") == "1":
            pytest.fail(f"the chroma command is missing next to {sys.executable}, and CI requires it")
        pytest.skip(f"the chroma command is not installed next to {sys.executable}")
    port = _free_port()
    log = (tmp_path / "chroma.log").open("wb")
    server = subprocess.Popen([str(CHROMA), "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1",
                               "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/v2/heartbeat", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"chroma server did not come up on {url}:\n"
                            f"{(tmp_path / 'chroma.log').read_text(errors='replace')[-2000:]}")
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def test_two_workers_share_one_store_on_the_server(chroma_url, tmp_path):
    settings = load_settings(data_dir=str(tmp_path / "worker-a"), chroma_url=chroma_url)
    writer = open_knowledge(settings)
    seen = []
    writer.upsert("cases", list(CASES), list(CASES.values()), [{"lang": i[:2]} for i in CASES], batch_size=2,
                  progress=lambda done, total: seen.append(done))
    assert seen == [2, 4] and writer.location == chroma_url
    assert writer.search("cases", "Checkpont expird before completing", k=1)[0].id == "checkpoint-expired"
    assert [h.id for h in writer.search("cases", "checkpoint", k=3, where={"lang": "zh"})] == [
        "zh-checkpoint-timeout"]

    # A second worker, in another process with its own data dir, sees the same collection.
    script = ("import sys; from pipelines.core.knowledge.store import open_knowledge; "
              "from pipelines.core.settings import load_settings; "
              "kb = open_knowledge(load_settings(data_dir=sys.argv[1], chroma_url=sys.argv[2])); "
              "print(kb.count('cases'), kb.search('cases', 'heap space out of memory', k=1)[0].id); "
              "kb.upsert('cases', ['from-b'], ['Buffer pool is destroyed, task cancelled'])")
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "worker-b"), chroma_url], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == [str(len(CASES)), "heap-oom"]
    assert writer.count("cases") == len(CASES) + 1
    assert writer.search("cases", "buffer pool destroyed", k=1)[0].id == "from-b"
    assert not (tmp_path / "worker-a" / "chroma").exists()  # nothing embedded when a server is set

    again = open_knowledge(settings)  # a second client in this process as well
    try:
        assert again.get("cases", ids=["from-b"])[0]["document"].startswith("Buffer pool")
        assert not again.needs_index("cases")
    finally:
        again.close()
        writer.close()
