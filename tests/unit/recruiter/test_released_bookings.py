"""Effects stay consistent when a check refuses one: names are compared as the import stores them (a name written
across lines is the same person), and an interview whose invitation does not go out is released, with a note."""

from __future__ import annotations

import json

import pytest

from pipelines.core.guardrails.log import GuardrailLog
from pipelines.core.guardrails.output_validator import validate_output_text
from pipelines.recruiter.calendar_events import InterviewCalendar
from pipelines.recruiter.importing import candidates_from_text
from pipelines.recruiter.outbox import Outbox
from pipelines.recruiter.state import FINAL_APPROVAL, PLAN_APPROVAL, SLOT_CHOICE
from tests.unit.recruiter.test_planner import answer, said

RESUME = "Experience\n2016 - 2024 Backend engineer: Java, Spring Boot, Kafka, MySQL.\nSkills\nJava, Spring Boot, Kafka"


def _import_kevin(recruiting, fmt: str, name: str = "Kevin\nZhou", email: str = "kevin.zhou@example.com") -> None:
    if fmt == "csv":
        cell = name.replace("\n", "\r\n").replace('"', '""')
        text = f'id,name,email,resume_text,skills\r\nC010,"{cell}",{email},"{RESUME}",Java; Spring Boot; Kafka\r\n'
        report = candidates_from_text(text, "people.csv", None)
    else:
        row = {"id": "C010", "name": name, "email": email, "resume_text": RESUME,
               "skills": ["Java", "Spring Boot", "Kafka"]}
        report = candidates_from_text(json.dumps(row), "people.jsonl", None)
    assert not report.errors, report.errors
    recruiting.upsert_candidates(report.rows, source="test")
    recruiting.add_application("C010", "J001", "screening")


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_the_import_keeps_a_name_on_one_line(tmp_path, fmt):
    text = ('id,name,resume_text\nC1,"Kevin\r\n  Zhou",Nurse\n' if fmt == "csv"
            else json.dumps({"id": "C1", "name": "Kevin\u2028Zhou\t", "resume_text": "Nurse"}))
    [person] = candidates_from_text(text, f"people.{fmt}", tmp_path).rows
    assert person.name == "Kevin Zhou"


def test_the_output_check_compares_names_as_the_import_stores_them():
    """Data stored before the import kept names on one line still names the same person."""
    for stored in ("Kevin\nZhou", "Kevin\r\nZhou", "KEVIN  Zhou"):
        verdict = validate_output_text("Kevin Zhou (C010) fits the role.", known_names={stored}, known_ids={"C010"})
        assert not verdict.findings, (stored, verdict.findings)
    assert validate_output_text("Kevin Zhu (C010) fits.", known_names={"Kevin\nZhou"}).findings  # still checked


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_a_model_draft_naming_a_line_break_candidate_is_kept(scripted_turn, recruiting, fmt):
    """The reported case: the candidate exists, but the final check called the draft 'not in the data'."""

    _import_kevin(recruiting, fmt)

    def respond(tool, messages):
        if tool == "IntentDecision":
            return {"intent": "plan", "workflow_type": "bulk_outreach", "reasoning": "outreach"}
        if tool == "Plan":
            return {"goal": "Write to C010 about J001", "workflow_type": "bulk_outreach",
                    "steps": [{"step": 1, "agent": "matching", "action": "Rank the top 5 candidates for J001"},
                              {"step": 2, "agent": "communication", "action": "Draft an email", "mode": "parallel"},
                              {"step": 3, "agent": "supervisor", "action": "Approve sending", "mode": "interrupt"}],
                    "estimated_actions": {"emails": 5, "api_calls": 6}}
        if tool == "EmailDraft" and "Kevin" in "\n".join(str(m.content) for m in messages):
            return {"subject": "Java role", "body": "Dear Kevin Zhou (C010), your Kafka work fits J001."}
        if tool == "EmailDraft":
            return {"subject": "Java role", "body": "Hello, your work fits J001."}
        return "ok"

    session = scripted_turn(respond, "Send outreach emails to C010 for J001", session_id="lb")
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    [pending] = session.pending_interrupts()
    assert pending.kind == FINAL_APPROVAL
    assert "C010" in [d["candidate_id"] for d in pending.value["drafts"]]
    assert not GuardrailLog(recruiting.engine).entries(session_id="lb", check="output_hallucination")


def _schedule(turn, recruiting, session_id: str):
    session = turn("Schedule an interview with C010 for J001", session_id=session_id)
    answer(session, PLAN_APPROVAL, {"action": "approve"})
    slots = session.pending_interrupts()[0].value["slots"]
    answer(session, SLOT_CHOICE, {"selected_slot": slots[0]["start"]})
    return session


def test_a_line_break_name_is_booked_and_invited(turn, recruiting):
    _import_kevin(recruiting, "csv")
    session = _schedule(turn, recruiting, "ok1")
    [invitation] = session.pending_interrupts()[0].value["drafts"]
    assert invitation["name"] == "Kevin Zhou" and invitation["event_id"]
    answer(session, FINAL_APPROVAL, {"approved_ids": ["all"]})
    [event] = InterviewCalendar(recruiting.engine).events(candidate_id="C010")
    assert event.status == "scheduled" and event.outbox_id == invitation["outbox_id"]
    assert "Interview: Kevin Zhou with" in session.values()["reply"]


def test_an_invitation_a_check_discards_releases_its_interview(turn, recruiting):
    """A name that carries an address nobody knows: the check discards the invitation, and the booking goes too."""
    _import_kevin(recruiting, "jsonl", name="Kevin Zhou kz@elsewhere.example")
    session = _schedule(turn, recruiting, "rel1")
    assert session.status() == "completed"  # nothing was left to approve
    assert InterviewCalendar(recruiting.engine).events(candidate_id="C010") == []
    [cancelled] = InterviewCalendar(recruiting.engine).events(candidate_id="C010", status="cancelled")
    [message] = Outbox(recruiting.engine).drafts(session_id="rel1")
    assert message.status == "discarded" and cancelled.outbox_id == message.id
    reply = session.values()["reply"]
    assert "was released and no invitation was sent (a check refused it)" in reply
    assert "Interview: Kevin" not in reply
    assert "was released" in said(recruiting, "rel1")


def test_an_invitation_left_out_at_the_final_approval_releases_its_interview(turn, recruiting):
    _import_kevin(recruiting, "csv")
    session = _schedule(turn, recruiting, "rel2")
    answer(session, FINAL_APPROVAL, {"approved_ids": []})
    assert InterviewCalendar(recruiting.engine).events(candidate_id="C010") == []
    assert "The interview with Kevin Zhou on" in session.values()["reply"]
    assert "(you did not approve it)" in session.values()["reply"]
