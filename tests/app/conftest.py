"""AppTest fixtures: the dashboard's pages on a temporary data directory."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("STEPWISE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def page(data_dir):
    def _page(name: str, **query) -> AppTest:
        app = AppTest.from_file(str(DASHBOARD / "app_pages" / f"{name}.py"), default_timeout=120)
        app.query_params.update(query)
        return app.run()
    return _page


@pytest.fixture
def entry(data_dir):
    """The whole app through its entry point (st.navigation); the home page is the default."""
    return AppTest.from_file(str(DASHBOARD / "app.py"), default_timeout=120).run()


def no_errors(app: AppTest) -> None:
    assert not app.exception, [e.value for e in app.exception]
