"""A served dashboard and a headless chromium for the end-to-end tests (skipped with a clear note without one)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-output" / "e2e"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update"]
_skipped: list[str] = []


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if CHROMIUM.exists():
        return CHROMIUM
    reason = f"browser tests not run: no chromium at {CHROMIUM} (CI installs it: apt-get install -y chromium)"
    if os.environ.get("STEPWISE_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    _skipped.append(reason)
    pytest.skip(reason)


@contextlib.contextmanager
def streamlit_server(data: Path, **extra_env: str):
    """`streamlit run dashboard/app.py` on a free port, with its own data directory and settings."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "STEPWISE_DATA_DIR": str(data),
           "STEPWISE_SETTINGS_FILE": str(data / "settings.json"), **extra_env}
    log = open(data / "streamlit.log", "w")
    process = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.port", str(port),
                                "--server.headless", "true"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    else:
        process.kill()
        pytest.fail(f"streamlit did not start; see {data / 'streamlit.log'}")
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory, chromium_path):
    """The dashboard on the embedded defaults (offline engine, SQLite, embedded Chroma)."""
    with streamlit_server(tmp_path_factory.mktemp("e2e-data")) as url:
        yield url


@pytest.fixture
def browser_page(chromium_path):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        yield page
        browser.close()


def pytest_terminal_summary(terminalreporter):
    for reason in dict.fromkeys(_skipped):
        terminalreporter.write_line(f"NOTE: {reason}", yellow=True, bold=True)
