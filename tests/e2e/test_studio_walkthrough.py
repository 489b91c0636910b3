"""A real browser walks every workflow page: start, step, answer, run to the end, reload, rewind, fork, trace PDF;
then the Runs and Metrics pages over those runs. Any Streamlit exception box fails the walk (see settle)."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from collections.abc import Callable

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from pypdf import PdfReader

from tests.e2e.conftest import SHOTS, act, click, download, open_page, settle, wait_for_text
from tests.unit.ican.conftest import ican_scenario

pytestmark = pytest.mark.browser


def sidebar_start(page) -> None:
    click(page, "Start run")


def ican_start(page) -> None:
    page.get_by_label("The client's first message").fill(ican_scenario("en_lab_to_data")["input"]["raw_input"])
    click(page, "Start the session")


def answer_feedback(page, _turn: int) -> None:
    page.get_by_text("satisfied", exact=True).first.click()
    page.get_by_label("Feedback text").fill("Clear enough, thank you")
    click(page, "Submit answer")


def answer_client(page, turn: int) -> None:
    answers = ican_scenario("en_lab_to_data")["answers"]
    page.get_by_label("The client's answer", exact=False).fill(answers[min(turn, len(answers) - 1)])
    click(page, "Send to the guide")


@dataclass
class Walk:
    pipeline: str
    title: str
    start: Callable
    answer: Callable | None
    rewind_after: str  # the node whose checkpoint the walk rewinds to and forks from
    field: str
    value: object


WALKS = [
    Walk("career_navigator", "CareerNavigator", sidebar_start, answer_feedback, "coordinator", "max_iterations", 5),
    Walk("flink_diagnosis", "Flink job diagnosis", sidebar_start, None, "retrieve", "retry_count", 2),
    Walk("ican", "iCan career guidance", ican_start, answer_client, "client_turn", "raw_input", "I love drawing"),
]


def status_text(page) -> str:
    return page.locator("[data-testid='stMarkdownContainer']").filter(has_text="next:").first.inner_text()


def choose(page, box: str, option: str) -> None:
    """Pick the option containing `option` in the selectbox or multiselect labelled `box`."""
    page.get_by_role("combobox", name=box).click()
    page.keyboard.type(option)  # long option lists are virtualised: filter first
    act(page, lambda: page.get_by_role("option", name=re.compile(re.escape(option))).first.click())


def open_fork_editor(page, field: str, attempts: int = 4) -> None:
    """Open the fork editor of the checkpoint shown and choose `field`, then wait for the JSON box it draws.

    The field list sits at the foot of a page as tall as the window, where its drop-down has no room: a pick there
    (by Enter or by a click) was sometimes not taken on a loaded machine. The box is scrolled to the middle first,
    and the pick is made again, by the other means, until its tag shows."""
    act(page, lambda: page.get_by_text("Fork from this checkpoint").click())
    box = page.get_by_role("combobox", name="Fields to edit")
    box.wait_for(state="visible")
    chosen = page.locator("[data-testid='stMultiSelectTagsContainer'] [data-tag]").filter(has_text=field)
    for attempt in range(attempts):
        box.evaluate("element => element.scrollIntoView({block: 'center'})")
        box.click()
        page.keyboard.type(field)
        option = page.get_by_role("option", name=re.compile(re.escape(field))).first
        option.wait_for(state="visible")
        act(page, (lambda: page.keyboard.press("Enter")) if attempt % 2 == 0 else option.click)
        page.keyboard.press("Escape")
        settle(page)
        try:
            chosen.first.wait_for(state="visible", timeout=10_000)
            break
        except PlaywrightTimeout:
            continue
    else:
        raise AssertionError(f"{field} could not be chosen in the fork editor in {attempts} attempts")
    page.get_by_label("New values (JSON)").wait_for(state="visible")


def shot(page, walk: Walk, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"studio_{walk.pipeline}_{name}.png"), full_page=True)


@pytest.mark.parametrize("walk", WALKS, ids=[w.pipeline for w in WALKS])
def test_every_workflow_page_from_start_to_a_forked_branch_and_its_trace_pdf(server, browser_page, tmp_path, walk):
    page = browser_page
    page.set_viewport_size({"width": 1500, "height": 2600})  # Streamlit scrolls inside the page: see it all
    open_page(page, f"{server}/{walk.pipeline}")
    shot(page, walk, "01_open")
    walk.start(page)
    page.wait_for_url(f"**/{walk.pipeline}?thread=*", timeout=30000)
    thread = page.url.split("thread=")[1]
    settle(page)
    if "waiting for your answer" not in status_text(page):
        click(page, "Step")
        wait_for_text(page, "Ran 1 step(s)")
    turn = 0
    for _ in range(12):  # run to the end, answering every question on the way
        status = status_text(page)
        if "completed" in status:
            break
        if "waiting for your answer" in status:
            walk.answer(page, turn)
            turn += 1
            if turn == 1:
                shot(page, walk, "02_answered")
        else:
            click(page, "Run to end")
    assert "completed" in status_text(page), status_text(page)
    assert walk.answer is None or turn >= 1
    shot(page, walk, "03_completed")

    open_page(page)
    assert thread in page.url and "completed" in status_text(page)

    act(page, lambda: page.get_by_role("tab", name="Checkpoints").click())
    choose(page, "Checkpoint", f"after {walk.rewind_after} ·")
    click(page, "Rewind here")
    wait_for_text(page, "Rewound to branch 1")
    open_fork_editor(page, walk.field)
    page.get_by_label("New values (JSON)").fill(json.dumps({walk.field: walk.value}))
    act(page, lambda: page.get_by_label("New values (JSON)").blur())
    click(page, "Fork with these values")
    wait_for_text(page, "Forked from step")
    shot(page, walk, "04_forked")
    click(page, "Step")
    tree = page.locator("[data-testid='stGraphVizChart'] svg").last  # the branch tree, below the workflow graph
    labels = tree.text_content()
    assert "branch 2" in labels and "the run stands here" in labels

    act(page, lambda: page.get_by_role("tab", name="Report").click())
    path = download(page, page.get_by_role("button", name=re.compile("Run-trace PDF$")),
                    tmp_path / f"{walk.pipeline}-trace.pdf")
    assert path.read_bytes().startswith(b"%PDF")
    text = "\n".join(p.extract_text() for p in PdfReader(path).pages)
    assert walk.title in text and thread in text and "Page 1 of" in text
    assert f"edit:{walk.rewind_after}" in text  # the fork is on the branch the trace shows
    shot(page, walk, "05_report")


def test_the_runs_and_metrics_pages_over_the_walked_runs(server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1500, "height": 2600})
    open_page(page, f"{server}/runs")
    page.locator("[data-testid='stDataFrame']").first.wait_for()
    page.screenshot(path=str(SHOTS / "studio_runs.png"), full_page=True)
    open_page(page, f"{server}/metrics")
    page.locator("[data-testid='stPlotlyChart']").nth(1).wait_for(timeout=60000)  # charts draw after the script
    page.screenshot(path=str(SHOTS / "studio_metrics.png"), full_page=True)
    time.sleep(0.2)
