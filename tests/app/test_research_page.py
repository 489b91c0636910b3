"""The research assistant page in AppTest: start over a collection, answer the preferences, edit and accept the plan,
read the cited report with its passages and downloads; hostile text in the question stays text."""


from pipelines.core.settings import load_settings
from pipelines.deep_research.library import close_libraries, open_library
from tests.app.conftest import no_errors, rerun_until
from tests.unit.deep_research.conftest import DOCS

KEY = "research"
QUESTION = "What was Lindenport's container throughput in 2024, and when does the rail link open?"


def texts(app):
    return " ".join(str(m.value) for m in [*app.markdown, *app.caption, *app.info, *app.success, *app.warning,
                                           *app.error])


def settle(app, limit_s: float = 240.0):
    rerun_until(app, lambda a: "Researching…" not in texts(a), limit_s, texts)
    no_errors(app)


def harbor_collection(data_dir):
    library = open_library(load_settings(data_dir=str(data_dir)))
    for path in DOCS:
        with open(path, "rb") as handle:
            library.add("harbor", path.rsplit("/", 1)[-1], handle.read())
    close_libraries()


def start(page, data_dir, question=QUESTION):
    harbor_collection(data_dir)
    app = page("deep_research")
    no_errors(app)
    app.text_area(key=f"{KEY}_question").input(question)
    app.multiselect(key=f"{KEY}_collections").select("harbor")
    next(b for b in app.button if b.label == "Start the research").click().run()
    settle(app)
    return app


def click(app, label):
    next(b for b in app.button if b.label == label).click().run()
    settle(app)


def test_the_studio_page_shows_the_graph_with_the_agents_as_clusters(page):
    app = page("deep_research")
    no_errors(app)
    assert app.title[0].value == "Deep research"
    dot = app.get("graphviz_chart")[0].proto.spec
    for node in ("central_agent", "human_feedback", "citation_check", "search", "run_code", "compare_findings"):
        assert node in dot
    assert dot.count("cluster_") >= 3


def test_a_session_from_question_to_cited_report(page, data_dir):
    app = start(page, data_dir)
    assert "Your research preferences" in texts(app)
    app.selectbox(key="research_card_dst_depth").set_value("brief")
    click(app, "Send answers")
    assert "Review the research plan" in texts(app) and "brief" in texts(app)
    steps_before = texts(app)
    # An edit the engine does not understand is asked about: no new step, no planning pass used.
    app.text_input(key=next(t.key for t in app.text_input if t.key.startswith("research_card_plan_instruction"))) \
        .input("make it *punchier*")
    click(app, "Apply the edit")
    question = " ".join(str(w.value) for w in app.warning)
    assert "I did not understand" in question and "*punchier*" not in question  # said as text, not as Markdown
    assert "Planning pass 1" in texts(app) and "Find: make it" not in texts(app) and "Find: make it" not in steps_before
    app.text_input(key=next(t.key for t in app.text_input if t.key.startswith("research_card_plan_instruction"))) \
        .input("add a step about dredging costs")
    click(app, "Apply the edit")
    assert "Planning pass 2" in texts(app) and "I did not understand" not in texts(app)
    click(app, "Accept the plan")
    assert "Cited claims supported" in " ".join(m.label for m in app.metric)
    supported = next(m.value for m in app.metric if m.label == "Cited claims supported")
    claims = supported.split(" / ")
    assert claims[0] == claims[1] and int(claims[0]) >= 2
    assert "2.4 million TEU" in texts(app)
    labels = [e.label for e in app.expander]
    assert any("harbor_report.md" in label for label in labels)
    assert {b.label for b in app.get("download_button")} >= {"Markdown", "PDF", "DOCX"}


def test_hostile_question_is_shown_as_text(page, data_dir):
    app = start(page, data_dir, "<script>alert(1)</script> ![x](http://evil/x.png) **bold** throughput?")
    header = next(m.value for m in app.markdown if "alert(1)" in m.value)
    assert "\\<script\\>" in header and "\\!" in header or "\\[x\\]" in header


def test_two_tabs_on_one_run_the_stale_answer_is_refused(page, data_dir):
    first = start(page, data_dir)
    thread = first.query_params["thread"]
    thread = thread[0] if isinstance(thread, list) else thread
    second = page("deep_research", thread=thread)
    assert "Your research preferences" in texts(second)
    click(first, "Skip")
    assert "Review the research plan" in texts(first)
    click(second, "Send answers")  # drawn for the question the first tab already answered
    assert "moved on" in texts(second)
    assert "Review the research plan" in texts(second)


def uploads_job(data_dir):
    from dashboard.workflows.deep_research.documents_view import index_jobs

    return index_jobs().get(open_library(load_settings(data_dir=str(data_dir))), "uploads")


def start_with_upload(page, data_dir, files):
    app = page("deep_research")
    app.text_area(key=f"{KEY}_question").input(QUESTION)
    app.file_uploader(key=f"{KEY}_uploads").set_value(files)
    next(b for b in app.button if b.label == "Start the research").click().run()
    no_errors(app)
    return app


def test_uploads_are_added_in_the_background_then_the_research_starts(page, data_dir):
    assert "up to 50 MB per file" in page("deep_research").file_uploader(key=f"{KEY}_uploads").label
    with open(DOCS[0], "rb") as handle:
        app = start_with_upload(page, data_dir, [("harbor_report.md", handle.read(), "text/markdown"),
                                                 ("cv.docx", b"PK\x03\x04 not a package", "application/zip")])
    job = uploads_job(data_dir)
    assert job is not None and job.wait(120)
    app.run()
    settle(app)
    assert "Your research preferences" in texts(app)  # the run started over the uploaded document
    assert "cv.docx is not a Word document" in texts(app)  # the skipped file is named with its reason, above the run
    click(app, "Send answers")
    assert "cv.docx is not a Word document" in texts(app)
    reloaded = page("deep_research", thread=app.query_params["thread"])  # a reload, or a second tab: a new session
    assert "cv.docx is not a Word document" in texts(reloaded)


def test_stopping_the_uploads_keeps_the_question_and_starts_nothing(page, data_dir):
    from tests.support.held_embedder import hold

    from tests.unit.deep_research.test_indexing import BIG_TEXT

    held = hold(open_library(load_settings(data_dir=str(data_dir))))
    app = start_with_upload(page, data_dir, [("big.md", BIG_TEXT.encode(), "text/markdown")])
    assert held.wait_arrived(1)
    app.run()
    assert any(p.proto.text.startswith("Adding your documents: file 1 of 1, big.md") for p in app.get("progress"))
    next(b for b in app.button if b.label == "Stop").click().run()
    held.release_all()
    assert uploads_job(data_dir).wait(120)
    app.run()
    no_errors(app)
    said = texts(app)
    assert "The research did not start: you stopped adding your documents" in said
    assert "Not added: big.md: stopped after 256 of" in said and "nothing of it was kept" in said
    assert app.text_area(key=f"{KEY}_question").value == QUESTION
    assert "thread" not in app.query_params
