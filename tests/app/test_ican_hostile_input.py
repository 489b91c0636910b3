"""iCan's page under hostile input: unusable resumes, over-long messages, a stale second tab, markup in outside text."""

import re

import pytest

from pipelines.core.markup import escape_markdown
from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from tests.app.conftest import no_errors
from tests.app.test_ican_page import KEY, chat_lines, send, start, submit, unescaped_markup
from tests.support.resume_files import RESUME_EN, make_pdf
from tests.unit.ican.conftest import ican_scenario

FIRST, REPLY = f"{KEY}_first_message", f"{KEY}_reply_text"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
NOT_A_RESUME = b"Shopping list: flour, butter, eggs. Call the plumber on Monday about the oven. Thanks!"
HOSTILE = "I want out ![x](http://evil.example/p.png) [c](javascript:alert(1)) <img src=x> **now**"


def live_markup(markdown):
    """Link, image and HTML syntax that Markdown would act on: not preceded by an escaping backslash (an even
    run of backslashes escapes only itself)."""
    return [m.group(2) for m in re.finditer(r"(\\*)(!\[|\]\(|</?[a-zA-Z]|\*\*bold)", markdown)
            if len(m.group(1)) % 2 == 0]


def errors(app):
    return " ".join(e.value for e in app.error)


def captions(app):
    return [c.value for c in app.caption]


def stored_conversation(thread_id, data_dir):
    """The conversation as the run keeps it, whatever any tab shows."""
    settings = load_settings(data_dir=str(data_dir))
    studio = Studio.from_settings(settings)
    try:
        return studio.open_session(get_spec("ican"), thread_id, settings).values()["conversation_history"]
    finally:
        studio.close()


@pytest.mark.parametrize("name,data,reason", [
    ("photo.pdf", PNG, "photo.pdf is not a PDF file (it may be renamed or damaged)"),
    ("cv.txt", b"  \n ", "cv.txt is empty"),
    ("notes.txt", NOT_A_RESUME, "notes.txt does not look like a resume"),
])
def test_an_unusable_resume_stops_the_start_with_its_reason_and_keeps_the_message(page, name, data, reason):
    app = page("ican")
    app.text_area(key=FIRST).input("I'm a nurse and I love teaching.")
    app.file_uploader(key=f"{KEY}_start_resume").set_value((name, data, "application/octet-stream"))
    submit(app, "Start the session")
    assert escape_markdown(reason) in errors(app)
    assert "The session has not started: remove the file to start without a resume, or fix it" in errors(app)
    assert "thread" not in app.query_params and not app.get("chat_message")
    assert app.text_area(key=FIRST).value == "I'm a nurse and I love teaching."
    # without the file the same form starts the session with the message that was kept
    app.file_uploader(key=f"{KEY}_start_resume").set_value(None)
    submit(app, "Start the session")
    assert "thread" in app.query_params
    assert chat_lines(app)[0] == ("user", escape_markdown("I'm a nurse and I love teaching."))
    assert not any("Resume attached" in c for c in captions(app))


def test_a_good_resume_uploaded_at_the_start_is_attached(page):
    app = page("ican")
    app.text_area(key=FIRST).input("I'm a lab technician and I feel stuck.")
    app.file_uploader(key=f"{KEY}_start_resume").set_value(("cv.pdf", make_pdf(RESUME_EN), "application/pdf"))
    submit(app, "Start the session")
    assert "Resume attached: cv.pdf" in " ".join(captions(app))


def test_the_resume_uploaders_state_the_real_limit(page):
    app = page("ican")
    uploader = app.file_uploader(key=f"{KEY}_start_resume")
    assert uploader.proto.max_upload_size_mb == 5 and "up to 5 MB" in uploader.label
    app = start(page, "I feel stuck in my job.")
    attach = app.file_uploader(key=f"{KEY}_resume_upload")
    assert attach.proto.max_upload_size_mb == 5 and "up to 5 MB" in attach.help


def test_an_over_long_first_message_is_kept_with_its_length_and_the_limit(page):
    app = page("ican")
    assert "0 / 4,000 characters" in captions(app)
    long = "word " * 40_000
    app.text_area(key=FIRST).input(long)
    submit(app, "Start the session")
    assert "The message is 199,999 characters; the limit is 4,000: shorten it" in errors(app)
    assert "thread" not in app.query_params
    assert app.text_area(key=FIRST).value == long
    assert any("199,999 / 4,000 characters: over the limit" in c for c in captions(app))


def test_an_over_long_reply_is_kept_and_a_sent_reply_clears_the_box(page):
    app = start(page, "I feel stuck in my job.")
    before = chat_lines(app)
    send(app, "x" * 200_000)
    assert "The message is 200,000 characters; the limit is 4,000: shorten it" in errors(app)
    assert app.text_area(key=REPLY).value == "x" * 200_000  # nothing typed is lost
    assert any("200,000 / 4,000 characters: over the limit" in c for c in captions(app))
    assert chat_lines(app) == before
    send(app, "I studied biology and I love solving puzzles with data.")
    assert chat_lines(app)[len(before)] == ("user", escape_markdown("I studied biology and I love solving puzzles "
                                                                    "with data."))
    assert app.text_area(key=REPLY).value == ""  # emptied once sent
    assert "0 / 4,000 characters" in captions(app)


def test_an_answer_from_a_stale_tab_is_refused_and_kept(page, data_dir):
    first = start(page, "I feel stuck in my job.")
    thread = first.query_params["thread"]
    second = page("ican", thread=thread)  # the same run in a second tab, at the same question
    no_errors(second)
    assert any(t.key == REPLY for t in second.text_area)
    send(first, "I love solving puzzles with data.")
    assert any(t.key == REPLY for t in first.text_area), "the guide asks again"
    send(second, "I enjoy teaching children.")
    assert "The session has moved on (answered in another tab): your message was not sent" in \
        " ".join(w.value for w in second.warning)
    assert second.text_area(key=REPLY).value == "I enjoy teaching children."
    said = [t["content"] for t in stored_conversation(thread, data_dir) if t["role"] == "user"]
    assert said == ["I feel stuck in my job.", "I love solving puzzles with data."]
    # the second tab now shows the newer question; sent again, the kept text answers it
    assert ("user", escape_markdown("I love solving puzzles with data.")) in chat_lines(second)
    submit(second, "Send to the guide")
    said = [t["content"] for t in stored_conversation(thread, data_dir) if t["role"] == "user"]
    assert said[-1] == "I enjoy teaching children." and len(said) == 3


def test_a_stale_answer_after_the_guide_stopped_asking_is_shown_not_lost(page, data_dir):
    scenario = ican_scenario("en_lab_to_data")
    first = start(page, scenario["input"]["raw_input"])
    second = page("ican", thread=first.query_params["thread"])
    for answer in scenario["answers"]:
        if any(t.key == REPLY for t in first.text_area):
            send(first, answer)
    assert not any(t.key == REPLY for t in first.text_area)  # the analysis has run
    send(second, "One more thing: I like drawing.")
    assert "your message was not sent" in " ".join(w.value for w in second.warning)
    assert "One more thing: I like drawing." in [c.value for c in second.code]


def test_outside_text_is_shown_as_text(page):
    app = page("ican")
    app.text_area(key=FIRST).input(HOSTILE)
    app.file_uploader(key=f"{KEY}_start_resume").set_value(("**bold**.txt", RESUME_EN.encode(), "text/plain"))
    submit(app, "Start the session")
    client = [m for m in app.get("chat_message") if m.name == "user"][0].markdown[0].value
    assert client == escape_markdown(HOSTILE) and not unescaped_markup(client)
    assert f"Resume attached: {escape_markdown('**bold**.txt')}" in " ".join(captions(app))
    answers = ("I studied chemistry <b>and</b> [more](http://evil.example).", "I enjoy data ![y](http://e.x/y.png)")
    for answer in answers:
        if any(t.key == REPLY for t in app.text_area):
            send(app, answer)
    app.session_state[f"{KEY}_tab"] = "Results"
    app.run()
    no_errors(app)
    # every line of the page that quotes the client or a file: the chat, captions, notices
    own_html = "<span style="  # the graph's colour legend, the page's own markup
    quoted = [m.value for c in app.get("chat_message") for m in c.markdown] + [
        c for c in captions(app) if own_html not in c] + [e.value for e in [*app.info, *app.warning, *app.error]]
    assert any("I studied chemistry" in q for q in quoted) and any("Resume attached" in q for q in quoted)
    assert not live_markup(" ".join(quoted)), live_markup(" ".join(quoted))
    # the report (a model's with a real provider) goes through the shared sanitiser: no image, link or tag
    report = next(m.value for m in app.markdown if "iCan career report" in m.value)
    assert not [m for m in live_markup(report) if m in ("![", "](")]
