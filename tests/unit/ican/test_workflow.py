"""The outer iCan workflow on the real graph, checkpointer and run store: routes, progress, messages, resumes."""

from pipelines.core.paths import ASSETS_DIR
from pipelines.ican.nodes import route_after_guide
from tests.support.driving import run_with_answers
from tests.unit.ican.conftest import ican_scenario

ROOT = ASSETS_DIR.parent
ANALYSIS = ["resume_parser_node", "profile_analyzer_node", "career_matcher_node", "reporter_node"]


def visited(session) -> list[str]:
    return [n for r in session.records() if r.status == "completed" for n in r.nodes]


def test_route_after_guide():
    user = {"role": "user", "content": "x"}
    assert route_after_guide({"needs_more_info": False, "conversation_history": [user]}) == "resume_parser_node"
    assert route_after_guide({"needs_more_info": True, "conversation_history": [user]}) == "client_turn"
    assert route_after_guide({"needs_more_info": True, "conversation_history": [user] * 3}) == "resume_parser_node"


def test_the_third_client_message_forces_the_analysis(start_ican):
    session = start_ican("zh_forced_after_three")
    kinds = run_with_answers(session, ican_scenario("zh_forced_after_three")["answers"])
    state = session.values()
    assert kinds == ["client_message", "client_message"]
    assert session.status() == "completed"
    assert state["client_turns"] == 3 and state["forced_analysis"] is True
    assert visited(session).count("guide_node") == 3
    assert visited(session)[-4:] == ANALYSIS
    assert "对话信息还不完整" in state["final_report"]


def test_a_full_english_session(start_ican):
    session = start_ican("en_lab_to_data")
    progress = []
    session.run("end", on_step=lambda _: progress.append(session.values().get("progress")))
    assert session.status() == "waiting"
    first_turn = [t["role"] for t in session.values()["conversation_history"]]
    # Welcome, acknowledgement and question: every reply of the inner graph reaches the history.
    assert first_turn == ["user", "assistant", "assistant", "assistant"]
    run_with_answers(session, ican_scenario("en_lab_to_data")["answers"])
    state = session.values()
    assert session.status() == "completed"
    assert state["holland_code"][0] == "I"
    assert set(state["riasec_scores"]) == set("RIASEC") and all(0 <= v <= 100 for v in state["riasec_scores"].values())
    assert len(state["career_matches"]) == 10
    assert state["final_report"].startswith("# iCan career report")
    assert state["language"] == "en" and not state.get("forced_analysis")


def test_progress_goes_30_50_70_90_100(start_ican):
    session = start_ican(raw_input="I'm a software engineer with 6 years of experience at a fintech company and a "
                                   "bachelor's in computer science; I love solving data puzzles and want to become a "
                                   "data scientist.")
    seen = []
    session.run("end", on_step=lambda _: seen.append(session.values().get("progress")))
    assert session.status() == "completed"
    assert [p for i, p in enumerate(seen) if i == 0 or p != seen[i - 1]] == [0, 30, 50, 70, 90, 100]


def test_the_welcome_is_said_once_per_session(start_ican):
    session = start_ican("en_lab_to_data")
    run_with_answers(session, ican_scenario("en_lab_to_data")["answers"])
    guide_lines = [t["content"] for t in session.values()["conversation_history"] if t["role"] == "assistant"]
    assert sum("iCan career guide" in line for line in guide_lines) == 1


def test_stepping_goes_into_the_guide_subgraph_one_node_at_a_time(start_ican):
    session = start_ican("en_lab_to_data")
    assert session.next_nodes() == ("guide_node",)
    seen = []
    while (outcome := session.step()).record.status == "substep":
        (task,) = outcome.record.tasks
        assert task.namespace.startswith("guide_node:") and outcome.record.checkpoint_id is None
        seen.append(task.node)
        assert session.status() == "ready" and session.values().get("conversation_history")[-1]["role"] == "user"
    # The inner graph paused after each node (the first pass asks about interests); then guide_node finished.
    assert seen == ["welcome", "assess_need", "collect_basic_info", "dig_deeper", "check_sufficiency"]
    assert outcome.record.status == "completed" and outcome.record.nodes == ["guide_node"]
    assert outcome.next == ("client_turn",)
    assert len(session.values()["conversation_history"]) == 4
    records = session.records()
    assert [r.label for r in records[1:3]] == ["1 guide_node:welcome", "1 guide_node:assess_need"]
    assert "guide_node:welcome → messages" in records[1].changes


def test_next_nodes_name_the_inner_node_and_breakpoints_stop_inside(studio, ican, settings):
    session = studio.new_session(ican, {"raw_input": "I feel lost."}, settings,
                                 breakpoints=["guide_node:dig_deeper"])
    session.run("interrupt")
    assert session.next_nodes() == ("guide_node:dig_deeper",)
    assert [r.nodes for r in session.records()][-1] == ["guide_node:collect_basic_info"]
    session.run("interrupt")  # Run to interrupt leaves the breakpoint it stands on
    assert session.status() == "waiting" and session.next_nodes() == ("client_turn",)
    session.resume("I like drawing.")
    session.run("interrupt")  # the second turn stops at the same inner breakpoint
    assert session.next_nodes() == ("guide_node:dig_deeper",)


def test_a_plain_invoke_runs_the_subgraph_straight_through(studio, ican, context):
    graph = studio.compiled(ican)
    config = {"configurable": {"thread_id": "plain"}}
    result = graph.invoke(ican.make_input({"raw_input": "I feel lost."}, "plain"), config, context=context)
    assert "__interrupt__" in result and len(result["conversation_history"]) == 4


def test_the_graph_shows_the_guide_as_a_cluster(studio, ican):
    nodes = set(studio.compiled(ican).get_graph(xray=True).nodes)
    assert {"guide_node:welcome", "guide_node:assess_need", "guide_node:collect_basic_info",
            "guide_node:dig_deeper", "guide_node:check_sufficiency", "client_turn", "reporter_node"} <= nodes


def test_a_resume_file_feeds_the_profile(start_ican):
    session = start_ican("en_with_resume")
    run_with_answers(session, ican_scenario("en_with_resume")["answers"])
    state = session.values()
    profile = state["structured_profile"]
    assert profile["source"] == "resume+conversation" and profile["name"] == "Maria Lopez"
    assert any("Cardiology" in (e.get("title") or "") for e in profile["experience"])
    assert state["holland_code"][0] == "S"


def test_a_file_that_is_not_a_resume_is_noted_and_the_session_goes_on(start_ican):
    session = start_ican("en_not_a_resume")
    run_with_answers(session, ican_scenario("en_not_a_resume")["answers"])
    state = session.values()
    assert session.status() == "completed"
    assert "does not look like a resume" in state["resume_issue"]
    assert state["structured_profile"]["source"] == "conversation"
    assert "The resume was not used" in state["final_report"]
    assert state["holland_code"][0] == "E"


def test_a_missing_resume_file_is_noted(start_ican):
    session = start_ican(raw_input="I am a chef.", resume_file="/nowhere/cv.pdf")
    assert "no such file" in session.values()["resume_issue"]


def test_the_guide_loop_limit_is_a_setting(studio, ican, settings):
    tight = settings.for_workflow("ican", guide_max_loops=1)
    session = studio.new_session(ican, {"raw_input": "I'm a nurse, 5 years. Bachelor's degree."}, tight)
    session.run("end")
    state = session.values()
    assert state["max_guide_loops"] == 1 and state["guide_loop_count"] == 1
    # The one pass found education covered, so the guide hands off at once.
    assert session.status() == "completed" and state["forced_analysis"] is True


def test_a_resume_attached_mid_session_is_kept_and_parsed(start_ican):
    """What the page does on Attach: write the resume as the guide, then run back to the client's turn."""
    session = start_ican("en_lab_to_data")
    session.run("end")
    question = session.pending_interrupts()[0].value["question"]
    resume = (ROOT / "assets/samples/ican/resume_nurse_en.md").read_text(encoding="utf-8")
    session.edit_state({"resume_text": resume, "resume_name": "cv.md", "resume_issue": ""}, as_node="guide_node")
    session.run("interrupt")
    assert session.status() == "waiting"
    assert session.pending_interrupts()[0].value["question"] == question  # the same question, asked again
    run_with_answers(session, ican_scenario("en_lab_to_data")["answers"])
    profile = session.values()["structured_profile"]
    assert session.status() == "completed" and profile["name"] == "Maria Lopez"


MSC_RESUME = ROOT / "tests/fixtures/ican/resume_msc_en.md"  # MSc Statistics; dates that add up to 6 years
DEGREE_QUESTIONS = ("What did you study, and what is your highest degree?", "你的学历和专业是什么？")


def test_what_the_client_gave_is_not_asked_again_or_changed(start_ican):
    """The resume says MSc and the client says 8 years (its dates add up to 6): the guide never asks about the
    degree, and the profile and the report keep the client's 8 years."""
    session = start_ican(raw_input="I've worked as a data analyst for 8 years and I feel stuck.",
                         resume_file=str(MSC_RESUME))
    run_with_answers(session, ["I love building dashboards and explaining numbers to people.",
                               "Independence matters most to me."])
    state = session.values()
    assert session.status() == "completed"
    asked = [t["content"] for t in state["conversation_history"] if t["role"] == "assistant"]
    assert not any(q in asked for q in DEGREE_QUESTIONS), asked
    assert state["collected_info"]["from_resume"]["education"] == "Master's"
    assert "education" not in state["missing_fields"]
    profile = state["structured_profile"]
    assert profile["years_experience"] == 8
    assert {"degree": "Master's", "field": "Statistics"}.items() <= profile["education"][0].items()
    summary = state["final_report"].split("## RIASEC profile")[0]
    assert "8 years of experience" in summary and "6 years" not in summary and "about 8" not in summary
    assert "education" not in summary  # not among the gaps the report notes


def test_without_a_stated_figure_the_years_from_the_dates_are_an_estimate(start_ican):
    session = start_ican(raw_input="I'm a data analyst and I feel stuck.", resume_file=str(MSC_RESUME))
    run_with_answers(session, ["I love building dashboards.", "Independence matters most to me."])
    state = session.values()
    assert state["structured_profile"]["years_experience"] == 6
    assert "about 6 years of experience" in state["final_report"]
