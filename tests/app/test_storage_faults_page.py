"""A workflow page on a checkpoint file another program holds: the page says the storage is busy and what to do."""

import sqlite3

from streamlit.testing.v1 import AppTest

from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from tests.app.test_background_runs import held_toy_page
from tests.support.toy_pipeline import make_toy_spec, page_context


def test_a_step_on_a_locked_checkpoint_file_says_the_storage_is_busy_and_loses_nothing(data_dir, monkeypatch):
    monkeypatch.setenv("STEPWISE_STORAGE_WAIT", "1")
    settings = load_settings()
    studio = Studio.from_settings(settings)
    session = studio.new_session(make_toy_spec(page_context(fresh=True)), {"topic": "kites"}, settings)
    studio.close()
    app = AppTest.from_function(held_toy_page, default_timeout=60)
    app.query_params["thread"] = session.thread_id
    app.run()
    holder = sqlite3.connect(str(data_dir / "checkpoints.sqlite"), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    app.button(key="toy_step").click().run()
    holder.rollback()
    assert not app.exception
    warning = " ".join(w.value for w in app.warning)
    assert "The checkpoint store sqlite:///" in warning and "is busy: another program holds it locked" in warning
    assert "close the program that holds it" in warning
    assert any("Runs already stored are not lost" in c.value for c in app.caption)
    app.run()  # the file is free again: the page shows the run where it stood, and Step works
    app.button(key="toy_step").click().run()
    assert not app.exception and any("Ran 1 step(s)" in s.value for s in app.success)
