"""The CareerNavigator page in AppTest: start, step, answer feedback, finish, reload, rewind, bad input."""

import json

from tests.app.conftest import no_errors

KEY = "career_navigator"


def texts(app):
    return " ".join(m.value for m in [*app.markdown, *app.caption, *app.info, *app.success, *app.warning, *app.error])


def start(page):
    app = page("career_navigator")
    no_errors(app)
    app.sidebar.button(key=f"{KEY}__start").click().run()
    no_errors(app)
    return app


def open_tab(app, name):
    """Tabs track their state (only the open one is drawn); choosing one is setting that state."""
    app.session_state[f"{KEY}_tab"] = name
    app.run()
    no_errors(app)


def feedback_box(app):
    return next(t for t in app.text_area if t.key.endswith("_feedback_text"))


def answer(app, level, text):
    next(r for r in app.radio if r.key.endswith("_satisfaction_level")).set_value(level)
    feedback_box(app).input(text)
    next(b for b in app.button if b.key.startswith("FormSubmitter")).click().run()
    no_errors(app)


def test_page_before_a_run_explains_what_to_do_and_draws_the_graph(page):
    app = page("career_navigator")
    no_errors(app)
    assert "Start run" in texts(app) and app.title[0].value == "CareerNavigator"
    assert app.sidebar.selectbox(key=f"{KEY}__scenario").value == "seed_example"
    assert len(app.get("graphviz_chart")) == 1


def test_start_step_answer_and_finish(page):
    app = start(page)
    thread = app.query_params["thread"]
    assert thread and "Started run" in texts(app)
    app.button(key=f"{KEY}_step").click().run()
    no_errors(app)
    assert "next: `planner`" in texts(app)
    app.button(key=f"{KEY}_run_interrupt").click().run()
    assert "Feedback on the integrated report" in texts(app)
    answer(app, "dissatisfied", "我希望重点关注大模型和多智能体方向的AI产品经理岗位")
    assert "next: `supervisor`" in texts(app)
    assert "iteration_count 1/3" in app.get("graphviz_chart")[0].proto.spec  # the loop edge shows its counter
    app.button(key=f"{KEY}_run_end").click().run()
    answer(app, "satisfied", "可以了")
    app.button(key=f"{KEY}_run_end").click().run()
    answer(app, "very_satisfied", "计划可行")
    assert "completed" in texts(app)
    open_tab(app, "Report")
    report = " ".join(m.value for m in app.markdown)
    assert "职业规划报告" in report and "行动计划" in report and "大模型" in report


def test_reload_returns_to_the_same_run(page):
    app = start(page)
    app.button(key=f"{KEY}_run_interrupt").click().run()
    thread = app.query_params["thread"]
    again = page("career_navigator", thread=thread)
    no_errors(again)
    assert thread in texts(again) and "waiting for your answer" in texts(again)
    assert next(b for b in again.sidebar.selectbox if b.label == "Run").value == thread


def test_invalid_input_json_is_explained_and_nothing_starts(page):
    app = page("career_navigator")
    editor = app.sidebar.text_area(key=f"{KEY}__input_seed_example")
    editor.input("{not json").run()
    app.sidebar.button(key=f"{KEY}__start").click().run()
    assert "not valid JSON" in " ".join(e.value for e in app.error)
    editor.input(json.dumps({"user_profile": {"age": 3}})).run()
    app.sidebar.button(key=f"{KEY}__start").click().run()
    assert "user_profile.age" in " ".join(e.value for e in app.error)
    assert "thread" not in app.query_params


def test_an_invalid_answer_is_refused_with_a_message(page):
    app = start(page)
    app.button(key=f"{KEY}_run_interrupt").click().run()
    feedback_box(app).input("x" * 5000)
    next(b for b in app.button if b.key.startswith("FormSubmitter")).click().run()
    assert "invalid answer" in " ".join(e.value for e in app.error)
    assert "waiting for your answer" in texts(app)


def test_rewind_from_the_checkpoints_tab(page):
    app = start(page)
    for _ in range(3):
        app.button(key=f"{KEY}_step").click().run()
    open_tab(app, "Checkpoints")
    picker = app.selectbox(key=f"{KEY}_checkpoint")
    target = next(o for o in picker.options if "after coordinator" in o)
    picker.select(target).run()
    app.button(key=f"{KEY}_rewind").click().run()
    no_errors(app)
    assert "Rewound" in texts(app) and "next: `planner`" in texts(app)
    app.button(key=f"{KEY}_step").click().run()
    assert "next: `supervisor`" in texts(app)


def test_a_database_that_is_down_gets_a_clear_message(page, monkeypatch):
    monkeypatch.setenv("STEPWISE_CHECKPOINT_URL", "postgresql://stepwise@127.0.0.1:9/none?connect_timeout=1")
    app = page("career_navigator")
    assert not app.exception
    (error,) = app.error
    assert error.value.startswith("Stepwise cannot reach its storage: cannot open PostgreSQL checkpoints at")


def test_every_tab_draws_without_error_mid_run(page):
    app = start(page)
    app.button(key=f"{KEY}_run_interrupt").click().run()
    for tab in ["State", "Changes", "Evolution", "Iterations", "Metrics", "Checkpoints", "Report"]:
        open_tab(app, tab)
    open_tab(app, "State")
    app.selectbox(key=f"{KEY}_state_field").select("session_id").run()
    no_errors(app)
    assert app.code[0].value == app.query_params["thread"]  # a string field shows as text, not parsed as JSON


def test_an_answer_from_a_stale_tab_is_refused_with_its_text_kept(page):
    first = start(page)
    first.button(key=f"{KEY}_run_interrupt").click().run()
    thread = first.query_params["thread"]
    second = page("career_navigator", thread=thread)  # the same run in a second tab, at the same question
    assert "Feedback on the integrated report" in texts(second)
    answer(first, "dissatisfied", "Focus on AI product roles")
    assert "Answer accepted" in texts(first)
    answer(second, "neutral", "Text typed in the stale tab")
    warning = " ".join(w.value for w in second.warning)
    assert "Not applied: the run has moved on" in warning and "Your answer is kept" in warning
    assert "Text typed in the stale tab" in " ".join(c.value for c in second.code)
    history = [f["feedback_text"] for f in _values(thread)["user_feedback_history"]]
    assert history == ["Focus on AI product roles"]  # the stale answer reached neither question
    second.button(key=f"{KEY}_run_interrupt").click().run()  # the same kind of question again: the text is back
    no_errors(second)
    assert feedback_box(second).value == "Text typed in the stale tab"


def _values(thread):
    from pipelines.core.registry import get_spec
    from pipelines.core.settings import load_settings
    from pipelines.core.runtime.studio import Studio
    studio = Studio.from_settings(load_settings())
    try:
        return studio.open_session(get_spec(KEY), thread, load_settings()).values()
    finally:
        studio.close()


def test_an_answer_short_of_satisfied_needs_a_reason(page):
    app = start(page)
    app.button(key=f"{KEY}_run_interrupt").click().run()
    answer(app, "dissatisfied", "   ")
    assert "a 'dissatisfied' answer needs feedback text" in " ".join(e.value for e in app.error)
    assert "Feedback on the integrated report" in texts(app)  # still asked; nothing was applied
    answer(app, "satisfied", "")
    assert "Answer accepted" in texts(app)
