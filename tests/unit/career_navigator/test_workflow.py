"""CareerNavigator end to end through the real graph and the offline engine."""

from pipelines.core.trace.records import first_changed_by
from tests.conftest import scenario
from tests.support.driving import DISSATISFIED_SEED, SATISFIED, run_with_answers


def nodes_run(session):
    return ["+".join(r.nodes) for r in session.records() if r.status == "completed"]


def test_seed_example_follows_the_planner_path_with_clarity_45(start):
    session = start("seed_example")
    session.step()
    analysis = session.values()["cached_data"]["goal_analysis"]
    assert analysis["clarity_score"] == 45 and analysis["is_goal_clear"] is False
    assert session.values()["current_stage"] == "planning" and session.snapshot().next == ("planner",)


def test_seed_field_lifecycle_matches_section_3_1(start):
    """Which node first sets each field (seed 000 §3.1), and what the table says about stages and flags."""
    session = start("seed_example")
    run_with_answers(session, [SATISFIED, SATISFIED], step_by_step=True)
    assert session.status() == "completed"
    first = first_changed_by(session.records())
    assert first["planning_strategy"] == "planner"
    assert first["agent_tasks"] == "supervisor"
    analysts = "industry_researcher+job_analyzer+user_profiler"
    assert first["self_insight_result"] == first["industry_research_result"] == first["career_analysis_result"] == analysts
    assert first["agent_outputs"] == analysts
    assert first["integrated_report"] == "reporter"
    assert first["requires_user_input"] == "reporter"
    assert first["career_goals"] == "goal_decomposer"
    assert first["final_plan"] == "scheduler"
    assert "session_id" not in first and "user_profile" not in first  # set by the input, never changed
    stages = {}
    for record in session.records():
        if record.status == "completed" and "current_stage" in record.changes:
            stages.setdefault(record.nodes[0], []).append(record.tasks[-1].update["current_stage"])
    assert stages["coordinator"] == ["planning"] and stages["supervisor"] == ["parallel_analysis"]
    assert stages["reporter"] == ["user_feedback"] and stages["goal_decomposer"] == ["schedule_planning"]
    assert stages["scheduler"] == ["final_confirmation"] and stages["confirm_plan"] == ["completed"]


def test_dissatisfied_feedback_loops_to_supervisor_with_focus_areas(start):
    session = start("seed_example")
    session.run("end")
    first_report = session.values()["integrated_report"]
    assert session.pending_interrupts()[0].kind == "report_feedback"
    session.resume(DISSATISFIED_SEED)
    state = session.values()
    assert state["iteration_count"] == 1 and state["current_stage"] == "planning"
    assert session.snapshot().next == ("supervisor",)
    session.step()
    tasks = session.values()["agent_tasks"]
    assert len(tasks) == 6  # three per iteration, accumulated by operator.add
    latest = tasks[-3:]
    assert {t["input_data"]["iteration_count"] for t in latest} == {1}
    focus = latest[0]["input_data"]["feedback_adjustments"]["focus_areas"]
    assert "大模型产品" in focus and any("智能体" in f for f in focus)
    assert all(t["input_data"]["feedback_adjustments"] == {} for t in tasks[:3])
    session.run("end")
    second_report = session.values()["integrated_report"]
    assert second_report["iteration_count"] == 1 and second_report["iteration_summary"]
    assert second_report["executive_summary"] != first_report["executive_summary"]
    assert "大模型" in second_report["career_match"]["recommended_career"]
    assert "大模型" in second_report["iteration_summary"]


def test_max_iterations_cut_off_goes_on_to_goals_with_a_note(start):
    session = start("seed_example", max_iterations=2)
    run_with_answers(session, [DISSATISFIED_SEED, DISSATISFIED_SEED])
    state = session.values()
    assert state["iteration_count"] == 2
    assert state["current_stage"] == "final_confirmation"  # went on through goals and schedule
    assert state["workflow_notes"] == ["已达到最大迭代次数（2次），将基于最新报告继续拆分目标。"]
    assert nodes_run(session).count("reporter") == 2
    assert session.counters()["iteration_count"] == {"label": "Report iterations", "value": 2, "limit": 2}


def test_clear_goal_goes_straight_to_goal_decomposition(start):
    session = start("clear_goal")
    run_with_answers(session, scenario("clear_goal")["answers"])
    assert session.status() == "completed"
    ran = [r.nodes[0] for r in session.records() if r.status == "completed"]
    assert ran == ["__input__", "coordinator", "goal_decomposer", "scheduler", "confirm_plan"]
    state = session.values()
    assert state["cached_data"]["goal_analysis"]["clarity_score"] > 70
    assert state.get("integrated_report") is None and state.get("planning_strategy") is None
    assert state["error_log"] == []  # the clear path is not an integrity failure


def test_plan_dissatisfaction_revises_goals_and_schedule(start):
    session = start("english_teacher_to_ux")
    answers = scenario("english_teacher_to_ux")["answers"]
    run_with_answers(session, answers[:1])
    assert session.pending_interrupts()[0].kind == "plan_confirmation"
    first_plan = session.values()["final_plan"]
    session.resume(answers[1])
    assert session.values()["plan_revision_count"] == 1 and session.snapshot().next == ("goal_decomposer",)
    session.run("end")
    revised = session.values()["final_plan"]
    assert revised["schedule_overview"] != first_plan["schedule_overview"]
    assert "5 hours" in revised["schedule_overview"] and revised["action_items"][0]["hours"] == 5
    assert revised["action_items"][0]["skill"] == "Prototyping"  # asked to start with prototyping
    session.resume(answers[2])
    assert session.values()["current_stage"] == "completed"


def test_plan_revisions_are_limited_too(start):
    session = start("clear_goal", max_iterations=1)
    run_with_answers(session, [{"satisfaction_level": "dissatisfied", "feedback_text": "太快了"}])
    state = session.values()
    assert session.status() == "completed" and state["current_stage"] == "completed"
    assert state["plan_revision_count"] == 1 and state["workflow_notes"]


def test_same_input_same_output(start):
    def content(session):
        state = session.values()
        return {k: state[k] for k in ("integrated_report", "career_goals", "final_plan", "self_insight_result")}

    sessions = [start("seed_example"), start("seed_example")]
    for session in sessions:
        run_with_answers(session, [DISSATISFIED_SEED, SATISFIED])
    a, b = (content(s) for s in sessions)
    for result in ("self_insight_result",):
        a[result].pop("iteration_info"), b[result].pop("iteration_info")
    assert a == b


def test_chinese_profiles_get_chinese_reports_and_english_ones_english(start, spec):
    zh, en = start("seed_example"), start("english_teacher_to_ux")
    run_with_answers(zh, [SATISFIED, SATISFIED])
    run_with_answers(en, [{"satisfaction_level": "satisfied", "feedback_text": "Good"}] * 2)
    zh_report, en_report = spec.report(zh.values()), spec.report(en.values())
    assert zh_report.startswith("# 职业规划报告") and "执行摘要" in zh_report and "行动计划" in zh_report
    assert en_report.startswith("# Career plan") and "Executive summary" in en_report
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in en_report)


def test_schedule_is_8_to_12_weeks_built_from_the_gaps(start):
    session = start("seed_example")
    run_with_answers(session, [SATISFIED])
    plan = session.values()["final_plan"]
    assert 8 <= plan["total_weeks"] <= 12
    assert {item["week"] for item in plan["action_items"]} == set(range(1, plan["total_weeks"] + 1))
    gaps = session.values()["self_insight_result"]["improvement_areas"]
    assert plan["action_items"][0]["skill"] == gaps[0]
    assert set(plan) >= {"schedule_overview", "action_items", "timeline", "resources"}


def test_metrics_and_agent_outputs_are_kept(start):
    session = start("seed_example")
    run_with_answers(session, [SATISFIED])
    metrics = session.values()["system_metrics"]
    assert set(metrics["response_time"]) >= {"coordinator", "planner", "supervisor", "user_profiler", "reporter"}
    assert metrics["agent_success_rate"]["job_analyzer"] == 1.0 and metrics["error_count"] == 0
    assert metrics["mcp_call_success_rate"] == 1.0
    outputs = session.values()["agent_outputs"]
    assert sorted(o["agent_name"] for o in outputs) == ["industry_researcher_node", "job_analyzer_node", "user_profiler_node"]
    assert all(o["provider"] == "offline" and o["status"] == "completed" for o in outputs)


def test_a_run_is_titled_by_who_it_is_for_and_where_they_want_to_go(studio, spec, settings):
    session = studio.new_session(spec, spec.scenario("english_teacher_to_ux").input, settings,
                                 scenario="english_teacher_to_ux")
    assert session.thread.title == "Morgan · High school teacher → I want to move from teaching into UX design"
    untitled = studio.new_session(spec, {"user_profile": {}}, settings)
    assert untitled.thread.title == spec.title
