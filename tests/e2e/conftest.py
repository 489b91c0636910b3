"""A served dashboard and a headless chromium for the end-to-end tests (skipped with a clear note without one)."""

from __future__ import annotations

import contextlib
import os
import re
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
SERVER_LOGS: list[Path] = []  # the servers' logs, newest last: a page shows users no traceback, the log has it


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
    SERVER_LOGS.append(data / "streamlit.log")
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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stepwise_failed = report.failed  # read by browser_page, to keep a picture of where the page stood
    return report


@pytest.fixture
def browser_page(chromium_path, request):
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        # Waits are on conditions; the limit only says when a page that never gets there has failed (a busy
        # 2-core machine can take a while).
        page.context.set_default_timeout(120_000)
        yield page
        if getattr(request.node, "stepwise_failed", False):
            name = re.sub(r"[^\w.-]+", "_", request.node.name)
            with contextlib.suppress(Exception):
                page.screenshot(path=str(SHOTS / f"FAILED_{name}.png"), full_page=True, timeout=30_000)
        browser.close()


def pytest_terminal_summary(terminalreporter):
    for reason in dict.fromkeys(_skipped):
        terminalreporter.write_line(f"NOTE: {reason}", yellow=True, bold=True)


# Streamlit's app root says whether a script run is going on (data-test-script-state); elements of the previous run
# are marked stale while the next one draws. A counter of run starts, kept by an observer in the page, tells that
# the rerun an action asked for has begun, so no wait depends on how fast the machine is.
_WATCH_RUNS = """() => {
  if (window.__stepwiseRuns !== undefined) return;
  window.__stepwiseRuns = 0;
  const watch = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) { setTimeout(watch, 20); return; }
    new MutationObserver(() => { if (app.dataset.testScriptState !== 'notRunning') window.__stepwiseRuns++; })
      .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  };
  watch();
}"""
_IDLE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.dataset.testScriptState === 'notRunning' && !document.querySelector('[data-stale="true"]');
}"""
_RUN_OVER = r"""() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.dataset.testScriptState === 'notRunning' && !document.querySelector('[data-stale="true"]')
    && !/running\b[^\n]*\bin the background/i.test(document.body.innerText);
}"""  # "running in the background" (step controls), "Running to the end in the background" (the live run)
RERUN_START_S = 10  # an action that asked for a rerun sees it begin within this (at once, on a quiet machine)


def runs_started(page) -> int:
    """How many script runs the page has seen begin (watching from the first call on this document)."""
    page.evaluate(_WATCH_RUNS)
    return page.evaluate("() => window.__stepwiseRuns")


def settle(page, since: int | None = None, timeout_ms: int = 180_000) -> None:
    """Wait until the page is idle (no script run, no stale element), then check it drew no exception box.
    `since`: the run count before an action; the wait first sees that action's rerun begin."""
    if since is not None:
        with contextlib.suppress(Exception):  # an action that asks for no rerun (a tab, a download)
            page.wait_for_function(f"() => window.__stepwiseRuns > {since}", timeout=RERUN_START_S * 1000)
    page.wait_for_function(_IDLE, timeout=timeout_ms)
    exceptions = page.locator("[data-testid='stException']").all_inner_texts()
    assert not exceptions, (exceptions, _log_tail())


def _log_tail(chars: int = 6000) -> str:
    """The end of the newest server log: where the traceback of an exception box is."""
    if not SERVER_LOGS:
        return ""
    with contextlib.suppress(OSError):
        return SERVER_LOGS[-1].read_text(encoding="utf-8", errors="replace")[-chars:]
    return ""


def click(page, name: str, timeout_ms: int = 300_000) -> None:
    """Click the button labelled `name` (a material icon's name may come first in its accessible name), wait for the
    rerun it asks for to end and, when it started a background run (Run to end, a chat's Send), for that run to end
    and the page to draw where it stopped."""
    button = page.get_by_role("button", name=re.compile(rf"(^|\s){re.escape(name)}$"))
    before = runs_started(page)
    button.click()
    settle(page, before)
    page.wait_for_function(_RUN_OVER, timeout=timeout_ms)
    settle(page)


def wait_until_run_over(page, timeout_ms: int = 300_000) -> None:
    """Until no script run, no stale element and no background run is left on the page (a download button's file is
    made by the run that drew it: pressed during a later one, it is never sent)."""
    page.wait_for_function(_RUN_OVER, timeout=timeout_ms)
    settle(page)


def act(page, action) -> None:
    """Do `action()` (a fill, a selection, a tab) and wait for the rerun it may ask for to end."""
    before = runs_started(page)
    action()
    settle(page, before)


def download(page, button, target: Path, tries: int = 3) -> Path:
    """Press the download button `button` (a role locator) and save what it sends to `target`.

    A button whose file is made on demand holds an id of the run that drew it: pressed while a later run replaces
    it, Streamlit answers with an error under the button and no file, and the user presses again. So does this, up to
    `tries` times, and fails naming the errors it saw. Waits are on the file or the error, never on a time."""
    errors: list[str] = []
    error = page.locator("[data-testid='stDownloadButtonError']")
    for _ in range(tries):
        error.first.wait_for(state="detached")  # the last press's error goes after a while
        wait_until_run_over(page)
        got: list = []

        def on_download(file, got=got) -> None:
            got.append(file)

        page.on("download", on_download)
        try:
            button.click()
            # Streamlit gives up on a file it has not made in 180 s; past that, this press has failed.
            deadline = time.monotonic() + 200
            while not got and not error.count() and time.monotonic() < deadline:
                page.wait_for_timeout(200)  # events reach `got` only while Playwright runs its loop
            if got:
                got[0].save_as(target)
                return target
            errors.append(" / ".join(error.all_inner_texts()))
        finally:
            page.remove_listener("download", on_download)
    raise AssertionError(f"no file after {tries} presses; the button said: {errors}")


def open_page(page, url: str | None = None) -> None:
    """Go to a page (without a URL: reload it) and wait until its first run has drawn it."""
    page.goto(url) if url else page.reload()
    page.wait_for_function(_IDLE, timeout=180_000)
    settle(page)


def wait_for_text(page, text: str, timeout_ms: int = 120_000) -> None:
    """Wait until `text` is shown (after the rerun that draws it), then until the page is idle."""
    page.get_by_text(text, exact=False).first.wait_for(state="visible", timeout=timeout_ms)
    settle(page)
