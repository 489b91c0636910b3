"""iCan's page and a resume that talks to AI readers: the page says how many passages were left out and shows each
as written, flagged."""

from tests.app.conftest import no_errors
from tests.app.test_ican_page import KEY, submit
from tests.unit.ican.test_resume_scan import ATTACK, NOTE, RESUME

FIRST = f"{KEY}_first_message"


def test_a_resume_with_an_instruction_to_an_ai_shows_the_passage_flagged(page):
    app = page("ican")
    app.text_area(key=FIRST).input("I'm a nurse and I love teaching.")
    app.file_uploader(key=f"{KEY}_start_resume").set_value(("cv.md", RESUME.encode(), "text/markdown"))
    submit(app, "Start the session")
    no_errors(app)
    assert "Resume attached: cv.md" in " ".join(c.value for c in app.caption)
    assert any(NOTE in w.value for w in app.warning)
    assert [c.value for c in app.code] == [ATTACK]  # as written, in a box of its own, never as Markdown
    assert any(c.value.startswith("⚠ Flagged passage.") for c in app.caption)


def test_a_clean_resume_shows_no_flag(page):
    app = page("ican")
    app.text_area(key=FIRST).input("I'm a nurse and I love teaching.")
    app.file_uploader(key=f"{KEY}_start_resume").set_value(("cv.md", RESUME.replace(ATTACK, "").encode(),
                                                           "text/markdown"))
    submit(app, "Start the session")
    assert not any("read like instructions" in w.value for w in app.warning) and not app.code
