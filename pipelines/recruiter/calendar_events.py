"""Interviews: the interviewers (assets/recruiter/interviewers.jsonl: time zone, jobs, busy slots), their free
slots in their own time zone, bookings in the recruiter_interviews table that never overlap for one interviewer
(even with bookers racing in several threads or processes), and the invitation's .ics (icalendar)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, UTC
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from icalendar import Calendar as ICalendar, Event as IEvent, vCalAddress, vText
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from pipelines.core.paths import ASSETS_DIR
from pipelines.recruiter.tables import interviewer_locks, interviews

INTERVIEWERS_FILE = ASSETS_DIR / "recruiter" / "interviewers.jsonl"
BOOK_ATTEMPTS = 5
PRODID = "-//Stepwise//Open Recruiter//EN"
ICS_MIME = "text/calendar; charset=utf-8"  # names the charset: the names in an invitation are often Chinese

Span = tuple[datetime, datetime]


@dataclass(frozen=True)
class Interviewer:
    id: str
    name: str
    email: str
    timezone: str
    jobs: tuple[str, ...] = ()
    busy: tuple[Span, ...] = ()  # aware datetimes in the interviewer's time zone

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


@dataclass(frozen=True)
class Slot:
    start: datetime  # aware, in the interviewer's time zone
    end: datetime

    @property
    def start_utc(self) -> datetime:
        return self.start.astimezone(UTC)

    @property
    def end_utc(self) -> datetime:
        return self.end.astimezone(UTC)


@dataclass(frozen=True)
class InterviewEvent:
    id: str
    candidate_id: str
    job_id: str
    interviewer_id: str
    start_utc: datetime
    end_utc: datetime
    timezone: str
    status: str = "scheduled"
    outbox_id: int | None = None
    created_at: datetime | None = None

    @property
    def local_start(self) -> datetime:
        return self.start_utc.astimezone(ZoneInfo(self.timezone))


class SlotTaken(Exception):
    """The interviewer already has an interview (or is busy) at that time."""


def _interviewer(data: dict[str, Any]) -> Interviewer:
    zone = ZoneInfo(data["timezone"])

    def local(text: str) -> datetime:
        moment = datetime.fromisoformat(text)
        return moment.astimezone(zone) if moment.tzinfo else moment.replace(tzinfo=zone)

    busy = tuple(sorted((local(b["start"]), local(b["end"])) for b in data.get("busy", ())))
    return Interviewer(str(data["id"]), str(data["name"]), str(data.get("email") or ""), data["timezone"],
                       tuple(data.get("jobs", ())), busy)


def load_interviewers(path: Path | str | None = None) -> dict[str, Interviewer]:
    """The interviewers of a JSON-lines file (by default the shipped assets), by id."""
    return dict(_load(str(path or INTERVIEWERS_FILE)))


@lru_cache(maxsize=8)
def _load(path: str) -> tuple[tuple[str, Interviewer], ...]:
    people = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            person = _interviewer(json.loads(line))
            people.append((person.id, person))
    return tuple(people)


def interviewers_for_job(job_id: str, interviewers: dict[str, Interviewer] | None = None) -> list[Interviewer]:
    return [p for p in (interviewers or load_interviewers()).values() if job_id in p.jobs]


def _overlaps(start: datetime, end: datetime, spans: Iterable[Span]) -> bool:
    return any(start < other_end and other_start < end for other_start, other_end in spans)


def free_slots(interviewer: Interviewer, start_date: date, days: int = 5, duration_min: int = 60,
               workday: tuple[int, int] = (9, 18), limit: int = 6, existing: Iterable[Span] = (),
               step_min: int = 30, not_before: datetime | None = None) -> list[Slot]:
    """Up to `limit` free slots of `duration_min` minutes, in the interviewer's time zone, on the first `days`
    working days (Monday to Friday) from `start_date`, between the workday's hours (local), starting every
    `step_min` minutes: none overlaps a busy slot or an already booked interview (`existing`, aware datetimes)
    nor starts before `not_before`."""
    zone, length, step = interviewer.zone, timedelta(minutes=duration_min), timedelta(minutes=step_min)
    taken = [*interviewer.busy, *((s.astimezone(zone), e.astimezone(zone)) for s, e in existing)]
    slots: list[Slot] = []
    day, working_days = start_date, 0
    while working_days < days and len(slots) < limit:
        if day.weekday() < 5:
            working_days += 1
            start = datetime.combine(day, time(workday[0]), zone)
            closing = datetime.combine(day, time(0), zone) + timedelta(hours=workday[1])
            while start + length <= closing and len(slots) < limit:
                end = start + length
                if not _overlaps(start, end, taken) and (not_before is None or start >= not_before):
                    slots.append(Slot(start, end))
                start += step
        day += timedelta(days=1)
    return slots


def _event(row: Any) -> InterviewEvent:
    return InterviewEvent(**{name: getattr(row, name) for name in InterviewEvent.__dataclass_fields__})


def _id_of(item: Any) -> str:
    return item if isinstance(item, str) else item.id


class InterviewCalendar:
    """The interviews of one database, with the interviewers they are booked with."""

    def __init__(self, engine: Engine, interviewers: dict[str, Interviewer] | None = None) -> None:
        self.engine = engine
        self.interviewers = interviewers if interviewers is not None else load_interviewers()

    def events(self, interviewer_id: str | None = None, *, candidate_id: str | None = None,
               status: str | None = "scheduled") -> list[InterviewEvent]:
        query = select(interviews).order_by(interviews.c.start_utc)
        for column, value in ((interviews.c.interviewer_id, interviewer_id), (interviews.c.candidate_id, candidate_id),
                              (interviews.c.status, status)):
            if value is not None:
                query = query.where(column == value)
        with self.engine.connect() as conn:
            return [_event(row) for row in conn.execute(query)]

    def booked(self, interviewer_id: str) -> list[Span]:
        return [(e.start_utc, e.end_utc) for e in self.events(interviewer_id)]

    def free_slots(self, interviewer_id: str, start_date: date, **options: Any) -> list[Slot]:
        """free_slots of an interviewer, less the interviews booked in this database."""
        return free_slots(self.interviewers[interviewer_id], start_date, existing=self.booked(interviewer_id), **options)

    def book(self, candidate: Any, job: Any, interviewer_id: str, start: datetime, duration_min: int = 60,
             outbox_id: int | None = None) -> InterviewEvent:
        """Book an interview (a candidate and a job, as records or ids); SlotTaken if the interviewer is busy then
        or already has an interview that overlaps. The check and the insert are one transaction that first
        writes the interviewer's lock row: concurrent bookers of one interviewer run one after the other
        (SQLite: the first write takes the database's write lock; MariaDB/PostgreSQL: the row lock)."""
        if start.tzinfo is None:
            raise ValueError("the interview's start must be timezone-aware")
        interviewer = self.interviewers.get(interviewer_id)
        if interviewer is None:
            raise KeyError(f"unknown interviewer {interviewer_id!r}")
        start_utc = start.astimezone(UTC)
        end_utc = start_utc + timedelta(minutes=duration_min)
        if duration_min <= 0:
            raise ValueError("an interview lasts at least a minute")
        if _overlaps(start_utc, end_utc, ((s.astimezone(UTC), e.astimezone(UTC)) for s, e in interviewer.busy)):
            raise SlotTaken(f"{interviewer.name} is busy at {start_utc.astimezone(interviewer.zone):%Y-%m-%d %H:%M} "
                            f"({interviewer.timezone})")
        for attempt in range(BOOK_ATTEMPTS):
            try:
                return self._book_once(_id_of(candidate), _id_of(job), interviewer, start_utc, end_utc, outbox_id)
            except IntegrityError:  # two first bookers created the interviewer's lock row together: once more
                if attempt == BOOK_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _book_once(self, candidate_id: str, job_id: str, interviewer: Interviewer, start_utc: datetime,
                   end_utc: datetime, outbox_id: int | None) -> InterviewEvent:
        with self.engine.begin() as conn:
            locked = conn.execute(update(interviewer_locks).where(interviewer_locks.c.interviewer_id == interviewer.id)
                                  .values(bookings=interviewer_locks.c.bookings + 1)).rowcount
            if not locked:
                conn.execute(insert(interviewer_locks).values(interviewer_id=interviewer.id, bookings=1))
            clash = conn.execute(select(interviews.c.id, interviews.c.start_utc).where(
                interviews.c.interviewer_id == interviewer.id, interviews.c.status == "scheduled",
                interviews.c.start_utc < end_utc, interviews.c.end_utc > start_utc).limit(1)).first()
            if clash is not None:
                raise SlotTaken(f"{interviewer.name} already has an interview at "
                                f"{clash.start_utc.astimezone(interviewer.zone):%Y-%m-%d %H:%M} ({interviewer.timezone})")
            event = InterviewEvent(uuid.uuid4().hex, candidate_id, job_id, interviewer.id, start_utc, end_utc,
                                   interviewer.timezone, "scheduled", outbox_id, datetime.now(UTC))
            conn.execute(insert(interviews).values(**event.__dict__))
        return event

    def attach_outbox(self, event_id: str, outbox_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(interviews).where(interviews.c.id == event_id).values(outbox_id=outbox_id))

    def cancel(self, event_id: str) -> bool:
        with self.engine.begin() as conn:
            return bool(conn.execute(update(interviews).where(interviews.c.id == event_id,
                                                              interviews.c.status == "scheduled")
                                     .values(status="cancelled")).rowcount)


def _address(email: str, name: str, role: str | None = None) -> vCalAddress:
    address = vCalAddress(f"mailto:{email}")
    address.params["cn"] = vText(name)
    if role:
        address.params["role"] = vText(role)
        address.params["partstat"] = vText("NEEDS-ACTION")
        address.params["rsvp"] = vText("TRUE")
    return address


def ics_for(event: InterviewEvent, candidate: Any, job: Any, interviewer: Interviewer) -> bytes:
    """The invitation as an iCalendar file (METHOD:REQUEST, one VEVENT, times in UTC)."""
    calendar = ICalendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("method", "REQUEST")
    vevent = IEvent()
    job_title = getattr(job, "title", None) or _id_of(job)
    candidate_name = getattr(candidate, "name", None) or _id_of(candidate)
    vevent.add("uid", f"{event.id}@stepwise-recruiter")
    vevent.add("dtstamp", event.created_at or datetime.now(UTC))
    vevent.add("dtstart", event.start_utc.astimezone(UTC))
    vevent.add("dtend", event.end_utc.astimezone(UTC))
    vevent.add("summary", f"Interview: {candidate_name} – {job_title}")
    local = event.start_utc.astimezone(interviewer.zone)
    vevent.add("description", f"Interview for {job_title} ({_id_of(job)}) with {interviewer.name}.\n"
                              f"{local:%A %d %B %Y, %H:%M} {interviewer.timezone} time.")
    vevent.add("status", "CONFIRMED")
    vevent.add("sequence", 0)
    if interviewer.email:
        vevent.add("organizer", _address(interviewer.email, interviewer.name))
    email = getattr(candidate, "email", None)
    if email:
        vevent.add("attendee", _address(email, candidate_name, "REQ-PARTICIPANT"))
    calendar.add_component(vevent)
    return calendar.to_ical()


def ics_filename(event: InterviewEvent) -> str:
    return f"interview-{event.local_start:%Y%m%d-%H%M}-{event.interviewer_id}.ics"

