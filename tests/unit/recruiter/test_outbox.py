"""The outbox: drafts sent through a real (local) SMTP server, kept unsent without one, the batch cap and the
daily limit held across processes, and failures given back."""

from __future__ import annotations

import multiprocessing
import socket
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest
from aiosmtpd.controller import Controller
from icalendar import Calendar

from pipelines.core.guardrails.action_limits import ActionLimiter
from pipelines.recruiter.calendar_events import InterviewCalendar, ics_filename, ics_for
from pipelines.recruiter.outbox import NO_SMTP, Outbox, SmtpSender, smtp_sender
from pipelines.recruiter.records import Candidate, Job
from pipelines.recruiter.settings import RecruiterSettings
from pipelines.recruiter.store import RecruitingStore

ICS = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n"


class Collector:
    """An aiosmtpd handler that keeps every message (or refuses them all with `reply`)."""

    def __init__(self, reply: str = "250 Message accepted for delivery") -> None:
        self.reply, self.messages = reply, []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        if self.reply.startswith("250"):
            self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content, policy=policy.default)))
        return self.reply


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _server(handler: Collector):
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    return controller


@pytest.fixture
def smtp():
    handler = Collector()
    controller = _server(handler)
    handler.port = controller.port
    yield handler
    controller.stop()


@pytest.fixture
def failing_smtp():
    handler = Collector("554 5.7.1 Rejected for this test")
    controller = _server(handler)
    handler.port = controller.port
    yield handler
    controller.stop()


@pytest.fixture
def store(tmp_path):
    store = RecruitingStore(f"sqlite:///{tmp_path}/r.db")
    yield store
    store.dispose()


def _limiter(store, per_day: int = 50, cap: int = 20) -> ActionLimiter:
    return ActionLimiter(store.engine, daily={"emails": per_day}, batch_caps={"emails": cap})


def _sender(port: int) -> SmtpSender:
    return SmtpSender("127.0.0.1", port, tls="none", from_address="recruiting@example.com", timeout=5)


def _draft(box: Outbox, n: int, batch: str = "b1", **extra) -> list[int]:
    return [box.draft(f"person{i}@example.com", f"Hello {i}", f"Dear person {i},\nwe would like to talk.", batch_id=batch,
                      candidate_id=f"C{i:03}", job_id="J001", **extra) for i in range(n)]


def test_drafts_are_sent_through_smtp_and_read_back(store, smtp):
    box = Outbox(store.engine)
    ids = _draft(box, 2)
    invite = box.draft("wang.lei@example.cn", "Interview: 王磊", "您好，面试邀请见附件。", batch_id="b1",
                       attachment_name="interview.ics", attachment_text=ICS)
    assert [m.status for m in box.drafts(batch_id="b1")] == ["draft"] * 3
    assert box.edit(ids[0], subject="Hello again", body="Edited body")
    limiter = _limiter(store)

    report = box.send([*ids, invite], _sender(smtp.port), limiter)

    assert report.sent == [*ids, invite] and report.ok
    assert limiter.used("emails") == 3
    assert [m.status for m in box.drafts(batch_id="b1")] == ["sent"] * 3
    assert all(m.sent_at is not None for m in box.drafts(status="sent"))
    received = {msg["Subject"]: (rcpt, msg) for rcpt, msg in smtp.messages}
    assert set(received) == {"Hello again", "Hello 1", "Interview: 王磊"}
    rcpt, edited = received["Hello again"]
    assert rcpt == ["person0@example.com"] and edited.get_content().strip() == "Edited body"
    assert edited["From"] == "recruiting@example.com"
    _, invitation = received["Interview: 王磊"]
    assert invitation.get_body(("plain",)).get_content().strip() == "您好，面试邀请见附件。"
    [attachment] = list(invitation.iter_attachments())
    assert attachment.get_content_type() == "text/calendar"
    assert attachment.get_filename() == "interview.ics"
    assert attachment.get_content().replace("\r\n", "\n") == ICS.replace("\r\n", "\n")

    again = box.send(ids, _sender(smtp.port), limiter)  # sent messages are not sent twice
    assert again.sent == [] and set(again.skipped) == set(ids)
    assert len(smtp.messages) == 3


def test_without_smtp_server_messages_stay_not_sent(store):
    box = Outbox(store.engine)
    ids = _draft(box, 2)
    limiter = _limiter(store)
    assert smtp_sender(RecruiterSettings()) is None

    report = box.send(ids, smtp_sender(RecruiterSettings()), limiter)

    assert report.not_sent == dict.fromkeys(ids, NO_SMTP) and not report.sent
    assert [(m.status, m.status_reason) for m in box.drafts()] == [("not_sent", NO_SMTP)] * 2
    assert limiter.used("emails") == 0


def test_smtp_sender_from_settings():
    sender = smtp_sender(RecruiterSettings(smtp_host="mail.example.com", smtp_port=465, smtp_tls="ssl",
                                           smtp_user="bot", smtp_from="hr@example.com"))
    assert (sender.host, sender.port, sender.tls, sender.user, sender.from_address) == (
        "mail.example.com", 465, "ssl", "bot", "hr@example.com")


def test_a_batch_over_the_cap_is_refused_whole(store, smtp):
    box = Outbox(store.engine)
    ids = _draft(box, 21)
    limiter = _limiter(store)

    report = box.send(ids, _sender(smtp.port), limiter)

    assert "over the cap of 20" in report.refused and not report.sent
    assert {m.status for m in box.drafts()} == {"draft"}
    assert limiter.used("emails") == 0 and smtp.messages == []
    assert box.send(ids[:20], _sender(smtp.port), limiter).sent == ids[:20]


def test_the_daily_limit_is_taken_before_sending(store, smtp):
    box = Outbox(store.engine)
    limiter = _limiter(store, per_day=3)
    first = box.send(_draft(box, 2, "b1"), _sender(smtp.port), limiter)
    second = box.send(_draft(box, 2, "b2"), _sender(smtp.port), limiter)  # 2 more do not fit in the 1 left

    assert len(first.sent) == 2 and not second.sent
    assert all("daily limit of 3" in reason for reason in second.not_sent.values())
    assert len(smtp.messages) == 2 and limiter.used("emails") == 2


def test_a_failing_server_marks_failed_and_gives_the_allowance_back(store, failing_smtp):
    box = Outbox(store.engine)
    ids = _draft(box, 2)
    limiter = _limiter(store)

    report = box.send(ids, _sender(failing_smtp.port), limiter)

    assert set(report.failed) == set(ids) and not report.sent
    for message in box.drafts():
        assert message.status == "failed"
        assert "554" in message.status_reason and "\n" not in message.status_reason
    assert limiter.used("emails") == 0


def test_an_unreachable_server_is_one_line_without_the_password(store, monkeypatch):
    monkeypatch.setenv("STEPWISE_SMTP_PASSWORD", "hunter2-secret")
    box = Outbox(store.engine)
    ids = _draft(box, 1)
    sender = SmtpSender("127.0.0.1", _free_port(), tls="starttls", user="bot", timeout=2)

    report = box.send(ids, sender, _limiter(store))

    reason = report.failed[ids[0]]
    assert reason.startswith("failed: SMTP 127.0.0.1:") and "hunter2" not in reason and "\n" not in reason
    assert "hunter2" not in repr(sender)


def test_discarded_and_edited_messages(store, smtp):
    box = Outbox(store.engine)
    ids = _draft(box, 3)
    assert box.discard([ids[0]]) == 1
    assert box.approve([ids[1]]) == 1
    assert box.send(ids[:2], _sender(smtp.port), _limiter(store)).sent == [ids[1]]
    assert not box.edit(ids[1], body="too late")  # sent
    assert not box.edit(ids[0], body="too late")  # discarded
    assert box.discard(ids) == 1  # only the draft left
    assert [m.status for m in box.drafts()] == ["discarded", "sent", "discarded"]
    with pytest.raises(ValueError):
        box.draft("a@example.com, b@example.com", "s", "b")


def test_build_attaches_the_calendar():
    sender = SmtpSender("localhost", 25, tls="none")
    from pipelines.recruiter.outbox import OutboxMessage

    email = sender.build(OutboxMessage(7, "x@example.com", "Invite", "Body", "draft", attachment_name="a.ics",
                                       attachment_text=ICS))
    assert isinstance(email, EmailMessage) and email.is_multipart()
    assert [part.get_content_type() for part in email.iter_attachments()] == ["text/calendar"]


def test_an_invitation_with_a_chinese_organiser_reads_back_in_chinese(store, smtp):
    """The .ics goes out as text with its charset: a mail client (here Python's email parser) decodes the
    organiser's and the candidate's names instead of replacement characters."""
    calendar = InterviewCalendar(store.engine)
    candidate, job = Candidate("C003", "王磊", "resume", "wang.lei@example.cn"), Job("J001", "数据工程师", "jd")
    event = calendar.book(candidate, job, "I01", datetime(2026, 12, 1, 10, tzinfo=ZoneInfo("Asia/Shanghai")))
    organiser = calendar.interviewers["I01"]
    box = Outbox(store.engine)
    invite = box.draft(candidate.email, "面试邀请", "您好，面试邀请见附件。", attachment_name=ics_filename(event),
                       attachment_text=ics_for(event, candidate, job, organiser))

    assert box.send([invite], _sender(smtp.port), _limiter(store)).sent == [invite]

    [(_, received)] = smtp.messages
    [attachment] = list(received.iter_attachments())
    assert attachment.get_content_type() == "text/calendar" and attachment.get_content_charset() == "utf-8"
    text = attachment.get_content()
    assert "\ufffd" not in text
    [vevent] = Calendar.from_ical(text).walk("VEVENT")
    assert organiser.name == "周慧" and vevent["organizer"].params["cn"] == "周慧"
    assert vevent["attendee"].params["cn"] == "王磊" and "数据工程师" in str(vevent["summary"])


def _send_one_at_a_time(db_url: str, port: int, n: int, per_day: int, queue) -> None:
    """A separate process: draft n emails and send them one by one against the shared daily limit."""
    store = RecruitingStore(db_url)
    box = Outbox(store.engine)
    limiter = ActionLimiter(store.engine, daily={"emails": per_day}, batch_caps={"emails": 20})
    sent = 0
    for message_id in _draft(box, n, batch=f"p{multiprocessing.current_process().pid}"):
        sent += len(box.send([message_id], _sender(port), limiter).sent)
    store.dispose()
    queue.put(sent)


def test_the_daily_limit_holds_across_processes(tmp_path, smtp):
    url = f"sqlite:///{tmp_path}/r.db"
    RecruitingStore(url).dispose()  # the tables, before the processes race
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_send_one_at_a_time, args=(url, smtp.port, 6, 7, queue)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    sent = [queue.get(timeout=5) for _ in workers]

    assert sum(sent) == 7 and len(smtp.messages) == 7  # 12 tried, the limit of 7 never exceeded
    store = RecruitingStore(url)
    assert _limiter(store, per_day=7).used("emails") == 7
    statuses = [m.status for m in Outbox(store.engine).drafts()]
    assert statuses.count("sent") == 7 and statuses.count("not_sent") == 5
    store.dispose()
