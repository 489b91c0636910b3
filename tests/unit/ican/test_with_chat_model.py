"""iCan on the real-provider path with a scripted chat model: its answers flow through, failures fall back."""

from langchain_core.messages import BaseMessage

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.paths import ASSETS_DIR
from pipelines.core.settings import load_settings
from tests.support.driving import run_with_answers
from tests.support.fake_chat import ScriptedChatModel

ROOT = ASSETS_DIR.parent
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


def test_a_model_neither_asks_again_nor_changes_what_the_client_gave(studio, ican):
    """The resume says MSc, the client 8 years; the model reads the degree, then works the years out from the
    resume's dates (6). It is never asked to ask about the degree, and the profile keeps the client's 8 years."""
    resume = (ROOT / "tests/fixtures/ican/resume_msc_en.md").read_text(encoding="utf-8")
    follow_ups: list[tuple[str, bool]] = []  # (the field the model is asked to ask about, whether it knows the MSc)

    def model(name, messages):
        prompt = messages[-1].content
        if name == "FollowUpQuestion":
            field = prompt.split("about `", 1)[1].split("`", 1)[0]
            follow_ups.append((field, "Master's" in prompt.split("What we know:", 1)[1]))
            return {"field": field, "question": f"MODEL QUESTION about {field}?"}
        if name == "BasicInfo":
            return {"current_role": "data analyst", "years_experience": 8}
        if name == "StructuredProfile":
            return {"source": "resume+conversation", "years_experience": 6, "skills": ["SQL"],
                    "education": [{"degree": "Master's", "field": "Statistics"}],
                    "summary": "Data analyst with about 6 years of experience."}
        return {**ANSWERS, "SufficiencyJudgement": {"is_sufficient": False, "missing_fields": [], "reason": "-"}}.get(
            name, "MODEL TEXT") if name else "MODEL TEXT"

    settings = load_settings(provider="openai", model="scripted", backoff_s=0.0, max_retries=0)
    gateway = ModelGateway(settings, chat_model=ScriptedChatModel(responder=model), sleep=lambda s: None)
    session = studio.new_session(ican, {"raw_input": "I've been a data analyst for 8 years.", "resume_text": resume,
                                        "resume_name": "cv.md"}, settings, gateway=gateway)
    run_with_answers(session, ["I like dashboards.", "Independence."])
    state = session.values()
    assert session.status() == "completed" and follow_ups
    assert all(field != "education" and knows_degree for field, knows_degree in follow_ups), follow_ups
    profile = state["structured_profile"]
    assert profile["years_experience"] == 8 and "6 years" not in profile["summary"]
    assert "8 years of experience" in profile["summary"]
