"""Every route of the router: chat, planner (part 2's pinned reply), direct workflows, and a paused status change
found through the workflows table and the checkpointer, after a restart too."""

from __future__ import annotations

from pipelines.core.runtime.studio import Studio
from pipelines.recruiter.services import forget_stores, open_store
from pipelines.recruiter.state import STATUS_APPROVAL


def test_a_question_goes_to_the_chat_subgraph_node_by_node(turn):
    session = turn("Who matches J001?")
    values = session.values()
    assert values["intent"] == "chat" and values["intent_source"] == "default"
    nodes = [task.node for record in session.studio.runs.load_steps(session.thread_id) for task in record.tasks]
    for node in ("check_paused", "classify_intent", "chat:build_context", "chat:input_guard", "chat:call_llm",
                 "chat:parse_response", "chat:output_guard", "chat:process_action", "chat:finalize"):
        assert any(node == n or n.endswith(node.split(":")[-1]) for n in nodes), (node, nodes)
    assert "Priya Nair (C001)" in values["reply"] and values["action"]["type"] == "search_candidates"


def test_a_multi_step_request_goes_to_the_planner_in_both_languages(turn):
    for message in ("Find candidates for J001, email them, then schedule interviews",
                    "帮我找到适合这个职位的候选人，发邮件，然后安排面试"):
        session = turn(message)
        assert session.values()["intent"] == "plan"
        [pending] = session.pending_interrupts()
        assert pending.kind == "plan_approval" and pending.value["plan"]["workflow_type"] == "chain"


def test_a_named_workflow_goes_to_the_planner_with_its_type(turn):
    session = turn("Clean up the pipeline")
    values = session.values()
    assert values["intent"] == "workflow" and values["workflow_type"] == "pipeline_cleanup"
    assert session.pending_interrupts()[0].value["plan"]["workflow_type"] == "pipeline_cleanup"


def test_a_status_change_waits_for_approval_and_a_yes_in_the_chat_applies_it(turn, recruiting):
    first = turn("Move Priya Nair to interview for J001", session_id="s1")
    assert first.status() == "waiting" and first.pending_interrupts()[0].kind == STATUS_APPROVAL
    assert "from screening to interview" in first.values()["reply"]
    [paused] = recruiting.paused_workflows("s1")
    assert paused["langgraph_thread_id"] == first.thread_id and paused["graph_name"] == "recruiter"
    second = turn("yes", session_id="s1").values()
    assert second["intent"] == "resume" and "screening → interview" in second["reply"]
    [application] = recruiting.applications(candidate_id="C001", job_id="J001")
    assert application["status"] == "interview"
    assert [h["to_status"] for h in recruiting.history(application["id"])][-1] == "interview"
    assert recruiting.paused_workflows("s1") == [] and recruiting.workflow(paused["id"])["status"] == "completed"


def test_a_no_drops_the_change_and_another_question_meanwhile_is_answered(turn, recruiting):
    turn("把王磊移到录用阶段", session_id="s2")
    meanwhile = turn("What stage is 王磊 in?", session_id="s2").values()
    assert meanwhile["intent"] == "chat" and meanwhile["paused_workflow"]["workflow_type"] == "status_change"
    declined = turn("不", session_id="s2").values()
    assert declined["intent"] == "resume" and "保持" in declined["reply"]
    assert recruiting.applications(candidate_id="C003")[0]["status"] == "interview"


def test_a_paused_workflow_is_found_after_a_restart(settings, recruiter, recruiting):
    studio = Studio.from_settings(settings)
    first = studio.new_session(recruiter, {"message": "Move C002 to screening for J001", "session_id": "s3"}, settings)
    first.run("end")
    assert first.status() == "waiting"
    studio.close()
    forget_stores()  # a new process: nothing in memory survives
    restarted = Studio.from_settings(settings)
    try:
        answer = restarted.new_session(recruiter, {"message": "confirm", "session_id": "s3"}, settings)
        answer.run("end")
        assert answer.values()["intent"] == "resume"
        assert open_store(settings).applications(candidate_id="C002")[0]["status"] == "screening"
        assert restarted.open_session(recruiter, first.thread_id, settings).status() == "completed"
    finally:
        restarted.close()


def test_a_workflow_row_whose_run_no_longer_waits_is_closed(turn, recruiting):
    finished = turn("Who matches J001?", session_id="s4")
    stale = recruiting.start_workflow("s4", user_id="recruiter", workflow_type="status_change", graph_name="recruiter",
                                      thread_id=finished.thread_id, status="paused")
    values = turn("yes", session_id="s4").values()
    assert values["intent"] == "chat" and values["paused_workflow"] is None
    assert recruiting.workflow(stale)["status"] == "cancelled"
