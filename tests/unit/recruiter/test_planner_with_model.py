"""The whole chain with a scripted chat model in place of a provider: the model routes the request, writes the plan
and the drafts; every approval is given; the run ends with the emails and the invitation in the outbox."""

from __future__ import annotations


from pipelines.recruiter.outbox import Outbox
from pipelines.recruiter.state import FINAL_APPROVAL, PLAN_APPROVAL, SHORTLIST_APPROVAL, SLOT_CHOICE
from tests.unit.recruiter.test_planner import answer

CHAIN_PLAN = {
    "goal": "Find candidates for J001, email them, then schedule interviews", "workflow_type": "chain",
    "agents_required": ["jd", "matching", "communication", "scheduling"],
    "steps": [{"step": 1, "agent": "jd", "action": "Read J001's requirements"},
              {"step": 2, "agent": "matching", "action": "Rank the top 3 candidates for J001"},
              {"step": 3, "agent": "supervisor", "action": "Approve the shortlist", "mode": "interrupt"},
              {"step": 4, "agent": "communication", "action": "Draft an email to each", "mode": "parallel"},
              {"step": 5, "agent": "supervisor", "action": "Approve the emails", "mode": "interrupt"},
              {"step": 6, "agent": "communication", "action": "Send the approved emails"},
              {"step": 7, "agent": "scheduling", "action": "Schedule the interviews"},
              {"step": 8, "agent": "supervisor", "action": "Confirm the times", "mode": "interrupt"}],
    "estimated_actions": {"emails": 3, "api_calls": 6}}


def test_a_scripted_model_drives_the_whole_chain(scripted_turn, recruiting):
    asked: list[str | None] = []

    def respond(tool, messages):
        asked.append(tool)
        if tool == "IntentDecision":
            return {"intent": "plan", "workflow_type": "chain", "reasoning": "find, email, schedule"}
        if tool == "Plan":
            return CHAIN_PLAN
        if tool == "EmailDraft":
            return {"subject": "A Java role at our company", "body": "Hello, your Java work fits J001. Shall we talk?"}
        return "ok"

    session = scripted_turn(respond, "Hire for J001: find people, write, then book interviews", session_id="mc")
    plan = session.pending_interrupts()[0].value["plan"]
    assert [s["agent"] for s in plan["steps"]] == [s["agent"] for s in CHAIN_PLAN["steps"]]
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    answer(session, SHORTLIST_APPROVAL, {"approved_ids": ["C001", "C005"]})
    drafts = session.pending_interrupts()[0].value["drafts"]
    assert {d["subject"] for d in drafts} == {"A Java role at our company"}
    answer(session, FINAL_APPROVAL, {"approved_ids": ["all"]})
    answer(session, SLOT_CHOICE, {})
    answer(session, FINAL_APPROVAL, {"approved_ids": ["all"]})
    assert session.status() == "completed"
    assert {"Plan", "EmailDraft"} <= set(asked) and asked.count("EmailDraft") == 2  # routed by keywords
    messages = Outbox(recruiting.engine).drafts(session_id="mc")
    assert sum(1 for m in messages if m.attachment_name) == 2 and all(m.status == "not_sent" for m in messages)
