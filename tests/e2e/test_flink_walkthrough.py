"""A real browser: paste a stack trace into the queue, step it through the diagnosis graph, read the diagnosis,
then find it in the results and download its PDF."""

import time

import pytest
from pypdf import PdfReader

from tests.e2e.conftest import SHOTS, act, click, download, open_page, settle

pytestmark = pytest.mark.browser

TRACE = """2026-11-20 04:01:12,507 WARN  org.apache.flink.runtime.taskmanager.Task [] - Window(TumblingEventTimeWindows) (3/8) switched from RUNNING to FAILED
java.lang.OutOfMemoryError: Java heap space
\tat java.util.Arrays.copyOf(Arrays.java:3236)
\tat org.apache.flink.runtime.state.heap.HeapListState.add(HeapListState.java:93)"""


def test_paste_step_through_and_export_a_diagnosis(server, browser_page, tmp_path):
    page = browser_page
    page.set_viewport_size({"width": 1500, "height": 2600})  # Streamlit scrolls inside the page: see it all
    open_page(page, f"{server}/flink_queue")
    page.get_by_label("Job ID", exact=True).fill("sessionize-prod")
    page.get_by_label("Stack trace or log excerpt").fill(TRACE)
    click(page, "Add and step through ▶")
    page.wait_for_url("**/flink_diagnosis?thread=*", timeout=30000)
    settle(page)
    page.screenshot(path=str(SHOTS / "flink_01_started.png"), full_page=True)
    click(page, "Step")  # collect: the exception is claimed
    click(page, "Step")  # retrieve
    act(page, lambda: page.get_by_role("tab", name="Retrieved context").click())
    page.get_by_text("Similar cases", exact=True).first.wait_for()  # drawn by the rerun the click starts
    click(page, "Run to end")
    act(page, lambda: page.get_by_role("tab", name="Diagnosis").click())
    page.get_by_text("Heap out of memory").first.wait_for()
    page.screenshot(path=str(SHOTS / "flink_02_diagnosis.png"), full_page=True)

    open_page(page, f"{server}/flink_results")
    page.locator("[data-testid='stDataFrame']").first.wait_for()
    page.screenshot(path=str(SHOTS / "flink_03_results.png"), full_page=True)
    click(page, "Build the PDF report of 1 exceptions")
    path = download(page, page.get_by_role("button", name="Download the batch PDF"), tmp_path / "report.pdf")
    text = "".join(p.extract_text() for p in PdfReader(path).pages)
    assert path.read_bytes().startswith(b"%PDF") and "Heap out of memory" in text and "sessionize-prod" in text
    time.sleep(0.2)
