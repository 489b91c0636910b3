"""CareerNavigator with a real-provider gateway and a scripted chat model: outputs, usage, failures."""

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.settings import load_settings
from tests.conftest import scenario
from tests.support.driving import SATISFIED, run_with_answers
from tests.support.fake_chat import ScriptedChatModel

GOAL = {"title": "Model goal", "description": "d", "timeframe": "3 months"}
ANSWERS = {
    "GoalAnalysis": {"is_goal_clear": False, "clarity_score": 30, "target_role": "AI产品经理", "missing_information": ["时间"]},
    "PlanningStrategy": {"strategy": "MODEL STRATEGY"},
    "FeedbackAdjustments": {"focus_areas": ["大模型"], "pace": "same"},
    "SelfInsight": {"summary": "MODEL INSIGHT", "strengths": ["s"], "improvement_areas": ["g"], "skill_match_pct": 40},
    "IndustryResearch": {"summary": "MODEL INDUSTRY", "industries": [{"name": "AI", "demand_index": 90,
                                                                       "growth_rate_pct": 20, "outlook": "up"}],
                         "trends": ["t"]},
    "CareerAnalysis": {"summary": "MODEL CAREER", "target_role": "AI产品经理", "match_score": 0.6, "salary_band": "x",
                       "demand": "high", "required_skills": ["a"], "missing_skills": ["b"], "entry_path": ["c"]},
    "IntegratedReport": {"executive_summary": "MODEL SUMMARY", "career_match": {"recommended_career": "AI产品经理",
                                                                               "match_score": 0.6},
                         "key_findings": ["k"], "recommendations": ["r"]},
    "CareerGoals": {"long_term_goals": [GOAL], "medium_term_goals": [GOAL], "short_term_goals": [GOAL]},
    "FinalPlan": {"schedule_overview": "MODEL PLAN", "total_weeks": 8, "action_items": [
        {"week": 1, "title": "w1", "description": "d", "hours": 6}], "timeline": {"1-8": ["x"]}, "resources": ["book"]},
}


def model_session(studio, spec, responder, **settings):
    gateway_settings = load_settings(provider="openai", model="scripted", backoff_s=0.0, max_retries=1, **settings)
    model = ScriptedChatModel(responder=responder)
    gateway = ModelGateway(gateway_settings, chat_model=model, sleep=lambda s: None)
    session = studio.new_session(spec, scenario("seed_example")["input"], gateway_settings, gateway=gateway)
    return session, model


def test_nodes_use_the_model_answers_and_record_tokens(studio, spec):
    session, model = model_session(studio, spec, lambda name, msgs: ANSWERS[name])
    run_with_answers(session, [SATISFIED, SATISFIED])
    state = session.values()
    assert session.status() == "completed"
    assert state["cached_data"]["goal_analysis"]["clarity_score"] == 30
    assert state["planning_strategy"] == "MODEL STRATEGY"
    assert state["integrated_report"]["executive_summary"] == "MODEL SUMMARY"
    assert state["final_plan"]["schedule_overview"] == "MODEL PLAN"
    assert {o["provider"] for o in state["agent_outputs"]} == {"openai"}
    assert sorted(set(model.calls)) == sorted(set(ANSWERS) - {"FeedbackAdjustments"})
    coordinator = next(t for r in session.records() for t in r.tasks if t.node == "coordinator")
    (call,) = coordinator.model_calls
    assert (call["provider"], call["input_tokens"], call["output_tokens"], call["task"]) == \
        ("openai", 100, 40, "coordinator.goal_analysis")


def test_prompts_carry_client_text_as_data_in_the_clients_language(studio, spec):
    seen = {}

    def responder(name, messages):
        seen.setdefault(name, messages)
        return ANSWERS[name]

    session, _ = model_session(studio, spec, responder)
    session.step()
    system, human = seen["GoalAnalysis"]
    assert "never as instructions" in system.content and "Simplified Chinese" in system.content
    assert "<client_data>" in human.content and "我想从软件工程师转向AI产品经理" in human.content


def test_malformed_output_falls_back_to_offline_and_the_run_goes_on(studio, spec):
    def responder(name, messages):
        return "I'm sorry, I can't produce JSON today." if name == "GoalAnalysis" else ANSWERS[name]

    session, _ = model_session(studio, spec, responder)
    session.step()
    state = session.values()
    assert state["cached_data"]["goal_analysis"]["clarity_score"] == 45  # the offline engine's answer
    (failed, offline) = session.records()[-1].tasks[0].model_calls
    assert failed["ok"] is False and failed["fallback"] is True and "malformed output" in failed["error"]
    assert offline["provider"] == "offline"


def test_without_fallback_a_failing_analyst_is_logged_and_the_run_continues(studio, spec):
    def responder(name, messages):
        if name == "CareerAnalysis":
            raise TimeoutError("request timed out")
        return ANSWERS[name]

    session, _ = model_session(studio, spec, responder, fallback_to_offline=False)
    session.run("end")
    state = session.values()
    assert session.status() == "waiting"  # the reporter still reported, the client is asked
    errors = [e for e in state["error_log"]]
    assert any(e["node"] == "job_analyzer" and "timed out" in e["error"] for e in errors)
    assert any(e["node"] == "reporter" and "missing career_analysis_result" in e["error"] for e in errors)
    assert state["system_metrics"]["agent_success_rate"]["job_analyzer"] == 0.0
    assert state["system_metrics"]["error_count"] == 2
