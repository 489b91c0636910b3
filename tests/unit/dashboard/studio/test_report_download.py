"""The PDF download row: nothing is built until a click, a click builds once, a failure is one st.error line."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from streamlit.testing.v1 import AppTest

from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.support.driving import run_with_answers

PREFIX = "ican-test"


def download_row(thread_id: str, broken_report: bool) -> None:
    import dataclasses

    from dashboard import services
    from dashboard.studio.report_download import render_report_downloads
    from pipelines.core.registry import get_spec

    def no_fonts(values):
        raise ValueError("no fonts today")

    spec = get_spec("ican")
    if broken_report:
        spec = dataclasses.replace(spec, pdf=no_fonts)
    render_report_downloads(services.open_session(spec, thread_id), "ican-test")


@pytest.fixture
def ican_thread(tmp_path, monkeypatch) -> str:
    monkeypatch.setenv("STEPWISE_DATA_DIR", str(tmp_path / "data"))
    settings = load_settings()
    studio = Studio.from_settings(settings)
    try:
        spec = get_spec("ican")
        data = spec.scenario("en_lab_to_data")
        session = studio.new_session(spec, data.input, settings, scenario=data.name)
        run_with_answers(session, data.answers)
        return session.thread_id
    finally:
        studio.close()


def builds(app: AppTest) -> dict:
    return app.session_state[f"{PREFIX}-pdf-builds"][1]


def test_the_row_builds_nothing_until_a_button_is_clicked(ican_thread):
    app = AppTest.from_function(download_row, args=(ican_thread, False), default_timeout=120).run()
    assert not app.exception
    assert [b.label for b in app.download_button] == ["Run-trace PDF", "Report PDF"]
    assert [b.key for b in app.download_button] == [f"{PREFIX}-trace-pdf", f"{PREFIX}-report-pdf"]
    app.run()
    assert all(b.started == 0 for b in builds(app).values())

    app.download_button(key=f"{PREFIX}-trace-pdf").click().run()
    assert not app.exception and not app.error
    trace = builds(app)["trace"]
    assert trace.started == trace.finished == 1 and builds(app)["report"].started == 0
    pdf = trace.wait(0)  # what Streamlit's download thread gets for that click
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert ican_thread in text and "Run trace · iCan career guidance" in text

    app.download_button(key=f"{PREFIX}-report-pdf").click().run()
    assert builds(app)["report"].wait(0).startswith(b"%PDF") and not app.error


def test_a_failed_build_is_one_error_line_shown_once(ican_thread):
    app = AppTest.from_function(download_row, args=(ican_thread, True), default_timeout=120).run()
    app.download_button(key=f"{PREFIX}-report-pdf").click().run()
    assert not app.exception
    assert [e.value for e in app.error] == ["The Report PDF could not be built: ValueError: no fonts today"]
    with pytest.raises(RuntimeError, match="no fonts today"):
        builds(app)["report"].wait(0)  # the browser's download fails too, rather than saving a broken file
    app.run()
    assert not app.error
