"""iCan on the real-provider path with a scripted chat model: its answers flow through, failures fall back."""

from langchain_core.messages import BaseMessage

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.settings import load_settings
from tests.support.driving import run_with_answers
from tests.support.fake_chat import ScriptedChatModel

ANSWERS = {
    "NeedAssessment": {"need": "career_change", "emotion": "hopeful", "acknowledgement": "MODEL ACK"},
    "BasicInfo": {"education": "Master's", "current_role": "analyst", "years_experience": 3, "skills": ["SQL"],
                  "interests": ["puzzles"], "values": [], "target": "data scientist"},
    "FollowUpQuestion": {"field": "values", "question": "MODEL QUESTION?"},
    "SufficiencyJudgement": {"is_sufficient": False, "missing_fields": ["values"], "reason": "model says no"},
    "StructuredProfile": {"source": "conversation", "skills": ["SQL"], "target": "data scientist", "summary": "MODEL"},
    "RiasecProfile": {"scores": {"R": 10, "I": 90, "A": 20, "S": 30, "E": 40, "C": 70}, "holland_code": "ICE",
                      "evidence": {"I": ["loves puzzles"]}},
}


def session_with(studio, ican, responder, **settings):
    gateway_settings = load_settings(provider="openai", model="scripted", backoff_s=0.0, max_retries=0, **settings)
    model = ScriptedChatModel(responder=responder)
    gateway = ModelGateway(gateway_settings, chat_model=model, sleep=lambda s: None)
    session = studio.new_session(ican, {"raw_input": "I'm an analyst thinking about data science."},
                                 gateway_settings, gateway=gateway)
    return session, model


def scripted(name: str | None, messages: list[BaseMessage]):
    return ANSWERS[name] if name else "MODEL TEXT"


def test_model_answers_drive_the_guide_and_the_analysis(studio, ican):
    session, model = session_with(studio, ican, scripted)
    session.run("end")
    history = session.values()["conversation_history"]
    assert [t["content"] for t in history[1:]] == ["MODEL TEXT", "MODEL ACK", "MODEL QUESTION?"]
    run_with_answers(session, ["I value learning.", "And stability."])
    state = session.values()
    assert session.status() == "completed" and state["forced_analysis"] is True  # the model never said enough
    assert state["riasec_scores"]["I"] == 90 and state["holland_code"] == "ICE"
    assert state["structured_profile"]["summary"] == "MODEL" and state["final_report"] == "MODEL TEXT"
    assert state["career_matches"][0]["high_point_code"].startswith("I")
    calls = [t for r in session.records() for t in r.tasks if t.node == "assess_need"]
    assert calls and calls[0].model_calls[0]["provider"] == "openai"


def test_a_model_that_says_enough_ends_the_guide_early(studio, ican):
    answers = {**ANSWERS, "SufficiencyJudgement": {"is_sufficient": True, "missing_fields": [], "reason": "ok"}}
    session, _ = session_with(studio, ican, lambda name, msgs: answers[name] if name else "MODEL TEXT")
    session.run("end")
    assert session.status() == "completed"
    assert session.values()["client_turns"] == 1 and not session.values()["forced_analysis"]


def test_malformed_output_falls_back_to_the_offline_engine(studio, ican):
    session, _ = session_with(studio, ican, lambda name, msgs: {"nonsense": True} if name else "MODEL TEXT")
    session.run("end")
    history = session.values()["conversation_history"]
    assert session.status() == "waiting"
    assert history[-1]["content"].startswith("Which activities")  # the offline question


def test_a_failing_model_without_fallback_still_guides_with_fixed_phrases(studio, ican):
    def broken(name, msgs):
        raise RuntimeError("provider down")
    session, _ = session_with(studio, ican, broken, fallback_to_offline=False)
    run_with_answers(session, ["I studied maths.", "I like puzzles."])
    state = session.values()
    assert session.status() == "completed"
    assert "iCan career guide" in state["conversation_history"][1]["content"]
    assert state["final_report"].startswith("# iCan career report")
