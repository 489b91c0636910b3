"""The inner guide subgraph on its own: stages, the dig_deeper loop and its exits, the welcome fix."""

from pipelines.ican.guide_graph import GUIDE_GRAPH
from pipelines.ican.state import GuideStage

RICH = ("I'm a software engineer with 6 years of experience at a fintech company; bachelor's degree in computer "
        "science. I love solving tricky data problems and building tools; I want to become a data scientist.")
ALL_FIELDS = {"education": "Bachelor's", "current_role": "teacher", "skills": ["teaching"], "interests": ["drawing"],
              "values": ["creativity"], "target": "designer"}


def guide(context, history, **extra):
    state = {"conversation_history": history, "collected_info": {}, "messages": [], "loop_count": 0,
             "max_loops": 8, "language": "en", "current_stage": GuideStage.GREETING.value, **extra}
    return GUIDE_GRAPH.invoke(state, context=context)


def test_sufficient_information_exits_after_one_pass(context):
    result = guide(context, [{"role": "user", "content": RICH}])
    assert result["is_info_sufficient"] is True
    assert result["current_stage"] == GuideStage.HANDOFF.value
    assert result["loop_count"] == 1
    welcome, ack, closing = result["messages"]
    assert "iCan career guide" in welcome and "clear enough picture" in closing


def test_insufficient_information_ends_the_turn_with_one_question(context):
    result = guide(context, [{"role": "user", "content": "I feel lost."}])
    assert result["is_info_sufficient"] is False
    assert result["current_stage"] == GuideStage.AWAITING_CLIENT.value
    assert result["messages"][-1].startswith("Which activities")  # interests are the first field dug
    assert result["missing_fields"][0] == "interests"


def test_the_loop_goes_back_to_dig_deeper_over_covered_fields(context):
    # Interests (nursing), experience, education and skills are covered, values are not: five passes, then
    # the question on values.
    said = "I'm a nurse, 5 years. Bachelor's degree."
    result = guide(context, [{"role": "user", "content": said}])
    assert result["loop_count"] == 5
    assert result["collected_info"]["examined"] == ["interests", "experience", "education", "skills", "values"]
    assert result["messages"][-1].startswith("What matters most to you in a job")


def test_loop_count_reaching_the_limit_forces_the_handoff(context):
    result = guide(context, [{"role": "user", "content": "Teacher. Drawing."}], loop_count=7,
                   collected_info=dict(ALL_FIELDS))
    assert result["loop_count"] == 8
    assert result["is_info_sufficient"] is False  # few keywords: the rule says not enough...
    assert result["current_stage"] == GuideStage.HANDOFF.value  # ...but the loop limit hands off
    assert "start the analysis with what we have" in result["messages"][-1]


def test_without_a_limit_the_same_state_keeps_digging_then_asks_openly(context):
    result = guide(context, [{"role": "user", "content": "Teacher. Drawing."}], collected_info=dict(ALL_FIELDS))
    # Six covered fields are passed over in six loops; the seventh asks an open question.
    assert result["loop_count"] == 7
    assert result["current_stage"] == GuideStage.AWAITING_CLIENT.value
    assert "anything else" in result["messages"][-1]


def test_welcome_is_not_repeated_once_the_guide_has_spoken(context):
    history = [{"role": "user", "content": "I feel lost."}, {"role": "assistant", "content": "Hello…"},
               {"role": "user", "content": "I studied biology."}]
    result = guide(context, history)
    assert not any("iCan career guide" in m for m in result["messages"])
    assert result["messages"][0] == "Thank you, that helps."


def test_chinese_conversation_gets_chinese_replies(context):
    result = guide(context, [{"role": "user", "content": "我很迷茫，不知道以后做什么。"}], language="zh")
    assert result["emotion_state"] == "confused"
    assert result["collected_info"]["need"] == "direction"
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in m) for m in result["messages"])
