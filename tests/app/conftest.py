"""AppTest fixtures: the dashboard's pages on a temporary data directory."""

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.studio.plugins import registered_uis

DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPWISE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def page_app(name: str) -> AppTest:
    """A page alone: a file of app_pages/, a workflow's studio page by its id, or a workflow's own page by its URL
    path (as the registry and the workflow's UI declare them)."""
    path = DASHBOARD / "app_pages" / f"{name}.py"
    if path.exists():
        return AppTest.from_file(str(path), default_timeout=120)
    for entry, ui in registered_uis():
        if entry.id == name:
            return AppTest.from_string(f"from dashboard.navigation import show_workflow\n"
                                       f"show_workflow({name!r})\n", default_timeout=120)
        for own in ui.pages:
            if own.url_path == name:
                return AppTest.from_file(str(own.path), default_timeout=120)
    raise KeyError(f"no page {name!r}")


@pytest.fixture
def page(data_dir):
    def _page(name: str, **query) -> AppTest:
        app = page_app(name)
        app.query_params.update(query)
        return app.run()
    return _page


@pytest.fixture
def entry(data_dir):
    """The whole app through its entry point (st.navigation); the home page is the default."""
    return AppTest.from_file(str(DASHBOARD / "app.py"), default_timeout=120).run()


def rerun_until(app: AppTest, condition: Callable[[AppTest], bool], timeout_s: float,
                describe: Callable[[AppTest], str] = lambda app: "") -> AppTest:
    """Rerun the page until `condition` holds, as the page's own polling would while a background worker goes on
    (AppTest runs no fragment timers); fails with `describe(app)` if it never does."""
    deadline = time.monotonic() + timeout_s
    while not condition(app):
        assert time.monotonic() < deadline, describe(app)
        time.sleep(0.2)
        app.run()
    return app


def no_errors(app: AppTest) -> None:
    assert not app.exception, [e.value for e in app.exception]


def open_workflow_page(app: AppTest, workflow_id: str) -> AppTest:
    """Navigate the whole app to a workflow's studio page. That page is a callable (dashboard/navigation.py), which
    AppTest.switch_page cannot name by file, so it is named by its hash: Streamlit derives it from the URL path."""
    from streamlit.util import calc_hash

    app._page_hash = calc_hash(workflow_id)
    return app
