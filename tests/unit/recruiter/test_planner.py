"""The planner/supervisor as the router's subgraph: the chain with an approval at each stage, a modification shown
as a diff, cancel, a plan cut by the email limit, the job seeker refused, the Resume agent's handoff, the fan-out
of drafts with Send, sending through a local SMTP server, and the pipeline cleanup."""

from __future__ import annotations

import re

from pipelines.core.guardrails.log import GuardrailLog
from pipelines.core.guardrails.pii import PiiVault
from pipelines.recruiter.outbox import Outbox
from pipelines.recruiter.plan_store import PlanStore
from pipelines.recruiter.state import (
    CLEANUP_APPROVAL, FINAL_APPROVAL, PLAN_APPROVAL, SHORTLIST_APPROVAL, SLOT_CHOICE,
)
from tests.unit.recruiter.test_outbox import smtp  # noqa: F401 - the local SMTP server fixture

CHAIN = "Find candidates for J001, email them, then schedule interviews"


def answer(session, kind: str, value) -> None:
    [pending] = session.pending_interrupts()
    assert pending.kind == kind, (pending.kind, kind)
    session.resume(value, interrupt_id=pending.id)
    session.run("end")


def said(recruiting, session_id: str) -> str:
    """The assistant's side of the conversation, as the chat shows it."""
    return "\n".join(m["content"] for m in recruiting.recent_messages(session_id, 50) if m["role"] == "assistant")


def tasks(session) -> list[str]:
    return [task.node for record in session.studio.runs.load_steps(session.thread_id) for task in record.tasks]


def test_the_chain_runs_as_one_plan_with_an_approval_at_each_stage(turn, recruiting):
    session = turn(CHAIN, session_id="c1")
    assert session.values()["intent"] == "plan" and "Approve, modify or cancel" in said(recruiting, "c1")
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    shortlist = session.pending_interrupts()[0].value["shortlist"]
    assert [item["candidate_id"] for item in shortlist][:1] == ["C001"]
    answer(session, SHORTLIST_APPROVAL, {"approved_ids": ["C001", "C005"]})
    drafts = session.pending_interrupts()[0].value["drafts"]
    assert {d["candidate_id"] for d in drafts} == {"C001", "C005"}
    assert all(d["to"].startswith("[EMAIL_") for d in drafts)  # the state holds placeholders; the card restores them
    answer(session, FINAL_APPROVAL, {"approved_ids": ["C001"]})
    slots = session.pending_interrupts()[0].value["slots"]
    answer(session, SLOT_CHOICE, {"selected_slot": slots[0]["start"]})
    [invitation] = session.pending_interrupts()[0].value["drafts"]  # the booked interview's, with its .ics
    assert invitation["candidate_id"] == "C001" and invitation["attachment"].endswith(".ics")
    answer(session, FINAL_APPROVAL, {"approved_ids": ["all"]})
    assert session.status() == "completed"
    reply = session.values()["reply"]
    assert "not sent: no SMTP server" in reply and "Interview: Priya Nair" in reply
    assert re.search(r"Interview: Priya Nair with .+ on \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d \(\S+/\S+\)", reply)
    outbox = {m.candidate_id: m for m in Outbox(recruiting.engine).drafts(batch_id=session.values()["plan_id"])}
    assert outbox["C001"].status == "not_sent" and outbox["C005"].status == "discarded"
    [sent_invitation] = [m for m in Outbox(recruiting.engine).drafts(session_id="c1") if m.attachment_name]
    assert sent_invitation.status == "not_sent" and "BEGIN:VCALENDAR" in sent_invitation.attachment_text
    names = tasks(session)
    assert names.count("communication_agent") == 2 and "jd_agent" in names and "scheduling_agent" in names
    [plan] = PlanStore(recruiting.engine).for_session("c1")
    assert plan["status"] == "completed"


def test_a_modification_is_shown_as_a_diff_validated_again_and_cancel_does_nothing(turn, recruiting):
    session = turn("Send outreach emails to the top 5 candidates for J001", session_id="m1")
    answer(session, PLAN_APPROVAL, {"action": "modify", "instruction": "only 3 candidates"})
    assert "Changes:" in said(recruiting, "m1") and "top 3" in said(recruiting, "m1")
    assert session.pending_interrupts()[0].value["revisions"] == 1
    answer(session, PLAN_APPROVAL, {"action": "cancel"})
    assert session.status() == "completed" and "cancelled" in session.values()["reply"]
    [plan] = PlanStore(recruiting.engine).for_session("m1")
    assert plan["status"] == "cancelled" and len(plan["modifications_json"]) == 1
    assert Outbox(recruiting.engine).drafts(session_id="m1") == []


def test_a_plan_over_the_email_limit_is_cut_with_the_reason(turn, settings, recruiting):
    from pipelines.recruiter.services import services_for

    limiter = services_for(settings).limiter
    for _ in range(2):
        assert limiter.take("emails", 20).allowed
    session = turn("Send outreach emails to the top 30 candidates for J001", session_id="l1")  # 40 of 50 used
    text = said(recruiting, "l1")
    assert "over the cap of 20" in text and "10" in text
    assert session.pending_interrupts()[0].value["plan"]["estimated_actions"]["emails"] == 10
    assert limiter.take("emails", 10).allowed
    refused = turn("Send outreach emails to the top 5 candidates for J001", session_id="l2")
    assert "The daily limit of 50 emails is reached" in said(recruiting, "l2")
    assert all(s["agent"] != "communication" for s in refused.pending_interrupts()[0].value["plan"]["steps"]) \
        if refused.pending_interrupts() else True


def test_a_job_seeker_cannot_run_an_outreach_plan(turn, recruiting):
    session = turn("Send outreach emails to the top 5 candidates for J001", role="job_seeker", session_id="js")
    assert session.status() == "completed" and "cannot run" in said(recruiting, "js")


def test_a_candidate_review_hands_off_from_resume_to_matching_and_moves_the_confirmed(turn, recruiting):
    session = turn("Review the resume of C004 for J003", session_id="r1")
    assert session.values()["intent"] in ("plan", "workflow")
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    names = tasks(session)
    resume_at, matching_at = names.index("resume_agent"), names.index("matching_agent")
    assert "dispatch" not in names[resume_at + 1:matching_at]  # the handoff skips the supervisor
    answer(session, SHORTLIST_APPROVAL, {"approved_ids": ["C004"]})
    assert recruiting.applications(candidate_id="C004", job_id="J003")[0]["status"] == "screening"
    assert "Status: Ana Costa (C004) → screening" in session.values()["reply"]  # a name beside the id


def test_job_launch_sends_the_approved_drafts_through_smtp(turn, recruiting, settings, smtp, monkeypatch):  # noqa: F811
    monkeypatch.setenv("STEPWISE_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("STEPWISE_SMTP_PORT", str(smtp.port))
    monkeypatch.setenv("STEPWISE_SMTP_TLS", "none")
    session = turn("Launch the job J001: find candidates and send them outreach emails", session_id="j1")
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    waiting = session.pending_interrupts()
    if waiting and waiting[0].kind == SHORTLIST_APPROVAL:
        answer(session, SHORTLIST_APPROVAL, {"approved_ids": ["all"]})
    drafts = session.pending_interrupts()[0].value["drafts"]
    first = drafts[0]
    answer(session, FINAL_APPROVAL, {"approved_ids": [str(first["outbox_id"])],
                                     "edits": {str(first["outbox_id"]): {"subject": "A role for you"}}})
    [(to, message)] = smtp.messages
    assert message["Subject"] == "A role for you" and to[0].endswith("@example.com")
    assert "1 sent" in session.values()["reply"]


def test_the_fanned_out_drafts_each_name_their_own_address(turn, recruiting):
    """The Communication agents draft in parallel; each draft's masked address stands for its own recipient (the
    card restores it for the recruiter: one placeholder for two addresses would show the wrong one)."""
    session = turn("Launch the job J001: find candidates and send them outreach emails", session_id="f1")
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    drafts = session.pending_interrupts()[0].value["drafts"]
    assert len(drafts) >= 3
    vault = PiiVault.from_entries(recruiting.vault_entries("f1"))
    outbox = Outbox(recruiting.engine)
    assert {d["outbox_id"]: vault.restore(d["to"]) for d in drafts} == {
        d["outbox_id"]: outbox.get(d["outbox_id"]).to_address for d in drafts}
    assert len({d["to"] for d in drafts}) == len(drafts)


def test_the_pipeline_cleanup_waits_for_its_approval(turn, recruiting):
    recruiting.add_application("C004", "J003", "new")
    session = turn("Clean up the pipeline", session_id="p1")
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    if session.pending_interrupts():
        assert session.pending_interrupts()[0].kind == CLEANUP_APPROVAL
        answer(session, CLEANUP_APPROVAL, {"approved_ids": []})
    assert session.status() == "completed"


def test_a_paused_plan_goes_on_from_the_chat_after_a_restart(settings, recruiter, recruiting):
    from pipelines.core.runtime.studio import Studio
    from pipelines.recruiter.services import forget_stores, open_store

    studio = Studio.from_settings(settings)
    first = studio.new_session(recruiter, {"message": CHAIN, "session_id": "rs"}, settings)
    first.run("end")
    assert first.pending_interrupts()[0].kind == PLAN_APPROVAL
    studio.close()
    forget_stores()  # a new process: nothing in memory survives
    restarted = Studio.from_settings(settings)
    try:
        for expected in ("shortlist", "Send which", "Which interview time", "Send which", None):
            turn = restarted.new_session(recruiter, {"message": "yes", "session_id": "rs"}, settings)
            turn.run("end")
            assert turn.values()["intent"] == "resume"
            waiting = restarted.open_session(recruiter, first.thread_id, settings).pending_interrupts()
            if expected is None:
                assert waiting == []
            else:
                assert waiting and expected.lower() in str(waiting[0].value.get("question", "")).lower() \
                    or expected == "shortlist" and waiting[0].kind == SHORTLIST_APPROVAL
        assert restarted.open_session(recruiter, first.thread_id, settings).status() == "completed"
        store = open_store(settings)
        assert store.paused_workflows("rs") == []
        assert "Interview:" in said(store, "rs")
    finally:
        restarted.close()


def test_a_fake_model_runs_the_chain_and_aggregate_discards_its_invented_candidate(scripted_turn, recruiting):
    """The planner's plan and the drafts come from a scripted model; one draft names a candidate who does not exist,
    and aggregate_results discards it before the final approval shows the batch."""
    def respond(tool, messages):
        text = "\n".join(str(m.content) for m in messages)
        if tool == "IntentDecision":
            return {"intent": "plan", "workflow_type": "chain", "reasoning": "several steps"}
        if tool == "Plan":
            return {"goal": "Hire for J001", "workflow_type": "bulk_outreach", "agents_required": ["matching", "communication"],
                    "steps": [{"step": 1, "agent": "matching", "action": "Rank the top 2 candidates for J001"},
                              {"step": 2, "agent": "communication", "action": "Draft an email to each", "mode": "parallel"},
                              {"step": 3, "agent": "supervisor", "action": "Approve sending", "mode": "interrupt"}],
                    "estimated_actions": {"emails": 2, "api_calls": 3}}
        if tool == "EmailDraft":
            if "Priya Nair" in text:
                return {"subject": "Java role", "body": "Hi Priya, your Kafka work fits J001. Zorro Unknown (C777) says hi."}
            return {"subject": "Java role", "body": "Hi there, would you like to talk about J001?"}
        return "ok"

    session = scripted_turn(respond, "Find people for J001 and write to them", session_id="fm")
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    drafts = session.pending_interrupts()[0].value["drafts"]
    assert drafts and "C001" not in {d["candidate_id"] for d in drafts}  # the invented name's draft is gone
    logged = {row["check_name"] for row in GuardrailLog(recruiting.engine).entries(session_id="fm")}
    assert "output_hallucination" in logged
    discarded = [m for m in Outbox(recruiting.engine).drafts(session_id="fm") if m.status == "discarded"]
    assert [m.candidate_id for m in discarded] == ["C001"]


def test_the_revision_counter_is_shown_against_its_setting_and_stops_modifications(turn, recruiting, settings):
    session = turn("Send outreach emails to the top 5 candidates for J001", session_id="rv")
    assert session.counters()["plan_revisions"] == {"label": "Plan revisions (modify rounds)", "value": 0, "limit": 3}
    for n in range(3):
        answer(session, PLAN_APPROVAL, {"action": "modify", "instruction": f"only {4 - n} candidates"})
        assert session.counters()["plan_revisions"]["value"] == n + 1
    answer(session, PLAN_APPROVAL, {"action": "modify", "instruction": "only 1 candidate"})
    assert session.counters()["plan_revisions"]["value"] == 3
    assert "the limit: approve or cancel it as it is" in said(recruiting, "rv")
    assert "top 2" in str(session.pending_interrupts()[0].value["plan"])


def test_the_revision_counter_reads_the_same_in_the_panel_the_graph_the_records_and_the_finished_run(turn):
    from dashboard.studio.graph_view import counter_labels

    session = turn("Send outreach emails to the top 5 candidates for J001", session_id="one")
    answer(session, PLAN_APPROVAL, {"action": "modify", "instruction": "only 4 candidates"})
    edge = ("planner:approve_plan", "planner:validate_plan")
    assert session.counters()["plan_revisions"]["value"] == 1
    assert counter_labels(session.spec.counters, session.counters())[edge] == "plan_revisions 1/3"
    answer(session, PLAN_APPROVAL, {"action": "cancel"})
    assert session.status() == "completed"
    assert session.counters()["plan_revisions"] == {"label": "Plan revisions (modify rounds)", "value": 1, "limit": 3}
    assert session.records()[-1].counters["plan_revisions"] == 1  # the step records count it too
