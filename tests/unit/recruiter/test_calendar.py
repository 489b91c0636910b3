"""Interviews: free slots in the interviewer's time zone, bookings that never overlap (also when bookers race),
and the invitation's .ics."""

from __future__ import annotations

import threading
from datetime import date, datetime, timedelta, UTC
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from pipelines.recruiter.calendar_events import (
    InterviewCalendar, Interviewer, SlotTaken, free_slots, ics_filename, ics_for, load_interviewers,
)
from pipelines.recruiter.records import Candidate, Job
from pipelines.recruiter.store import RecruitingStore

BERLIN, SHANGHAI = ZoneInfo("Europe/Berlin"), ZoneInfo("Asia/Shanghai")
FRIDAY = date(2026, 12, 4)
CANDIDATE = Candidate("C003", "王磊", "resume", "wang.lei@example.cn")
JOB = Job("J002", "数据工程师", "description")


def _person(zone: str = "Europe/Berlin", busy=()) -> Interviewer:
    tz = ZoneInfo(zone)
    spans = tuple((datetime.fromisoformat(s).replace(tzinfo=tz), datetime.fromisoformat(e).replace(tzinfo=tz))
                  for s, e in busy)
    return Interviewer("X01", "Katrin Lehmann", "katrin@example.com", zone, ("J001",), spans)


@pytest.fixture
def store(tmp_path):
    store = RecruitingStore(f"sqlite:///{tmp_path}/r.db")
    yield store
    store.dispose()


@pytest.fixture
def calendar(store):
    return InterviewCalendar(store.engine)


def test_free_slots_skip_busy_times_and_weekends():
    person = _person(busy=[("2026-12-04T09:30:00", "2026-12-04T11:00:00")])
    slots = free_slots(person, FRIDAY, days=2, limit=20, workday=(9, 13))

    starts = [slot.start for slot in slots]
    assert all(s.tzinfo == BERLIN and s.weekday() < 5 for s in starts)  # Saturday and Sunday skipped
    friday = [s.strftime("%H:%M") for s in starts if s.date() == FRIDAY]
    assert friday == ["11:00", "11:30", "12:00"]  # 9:00-10:00 and 10:00-11:00 clash with 9:30-11:00
    monday = [s for s in starts if s.date() == date(2026, 12, 7)]
    assert monday[0].hour == 9 and monday[-1].strftime("%H:%M") == "12:00"  # the last that ends by 13:00
    assert len(free_slots(person, FRIDAY, days=2, limit=4, workday=(9, 13))) == 4


def test_free_slots_are_in_the_interviewers_time_zone():
    berlin, shanghai = _person("Europe/Berlin"), _person("Asia/Shanghai")
    first_berlin = free_slots(berlin, FRIDAY, limit=1)[0]
    first_shanghai = free_slots(shanghai, FRIDAY, limit=1)[0]
    assert first_berlin.start == datetime(2026, 12, 4, 9, tzinfo=BERLIN)
    assert first_berlin.start_utc == datetime(2026, 12, 4, 8, tzinfo=UTC)
    assert first_shanghai.start_utc == datetime(2026, 12, 4, 1, tzinfo=UTC)
    # an interview booked in UTC blocks the matching local hour
    booked = [(datetime(2026, 12, 4, 1, tzinfo=UTC), datetime(2026, 12, 4, 2, tzinfo=UTC))]
    assert free_slots(shanghai, FRIDAY, limit=1, existing=booked)[0].start == datetime(2026, 12, 4, 10, tzinfo=SHANGHAI)


def test_the_shipped_interviewers_and_their_busy_slots():
    people = load_interviewers()
    assert {"I01", "I03"} <= set(people)
    katrin = people["I03"]
    assert katrin.timezone == "Europe/Berlin" and katrin.busy[0][0] == datetime(2026, 11, 30, 10, 30, tzinfo=BERLIN)
    for slot in free_slots(katrin, date(2026, 11, 30), days=5, limit=100):
        assert not any(slot.start < end and start < slot.end for start, end in katrin.busy)


def test_booking_an_overlapping_slot_is_refused(calendar):
    start = datetime(2026, 12, 1, 15, tzinfo=BERLIN)
    event = calendar.book(CANDIDATE, JOB, "I03", start)
    assert (event.start_utc, event.end_utc) == (datetime(2026, 12, 1, 14, tzinfo=UTC), datetime(2026, 12, 1, 15, tzinfo=UTC))

    with pytest.raises(SlotTaken):
        calendar.book("C001", "J001", "I03", start + timedelta(minutes=30))
    calendar.book("C001", "J001", "I03", start + timedelta(hours=1))  # back to back is fine
    calendar.book("C001", "J001", "I05", start)  # another interviewer is free then
    assert [e.candidate_id for e in calendar.events("I03")] == ["C003", "C001"]
    booked_slot = datetime(2026, 12, 1, 15, tzinfo=BERLIN)
    assert booked_slot not in [s.start for s in calendar.free_slots("I03", date(2026, 12, 1), days=1, limit=50)]

    assert calendar.cancel(event.id)
    calendar.book("C002", "J001", "I03", start)  # a cancelled interview frees its slot


def test_booking_a_busy_slot_is_refused(calendar):
    with pytest.raises(SlotTaken, match="busy"):
        calendar.book(CANDIDATE, JOB, "I03", datetime(2026, 11, 30, 10, tzinfo=BERLIN))  # busy 10:30-11:00


def test_concurrent_bookers_exactly_one_wins(store, calendar):
    start = datetime(2026, 12, 2, 9, tzinfo=SHANGHAI)
    barrier, results = threading.Barrier(8), []

    def book(i: int) -> None:
        mine = InterviewCalendar(store.engine, calendar.interviewers)
        barrier.wait()
        try:
            results.append(mine.book(f"C{i:03}", "J002", "I02", start + timedelta(minutes=10 * (i % 3))))
        except SlotTaken as exc:
            results.append(exc)

    threads = [threading.Thread(target=book, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert len(results) == 8
    assert sum(not isinstance(r, SlotTaken) for r in results) == 1
    assert len(calendar.events("I02")) == 1


def test_ics_parses_back_with_utc_times(calendar):
    event = calendar.book(CANDIDATE, JOB, "I03", datetime(2026, 12, 1, 15, tzinfo=BERLIN))
    person = calendar.interviewers["I03"]
    data = ics_for(event, CANDIDATE, JOB, person)
    assert isinstance(data, bytes)

    parsed = Calendar.from_ical(data)
    assert str(parsed["method"]) == "REQUEST"
    [vevent] = parsed.walk("VEVENT")
    assert str(vevent["uid"]).startswith(event.id)
    assert vevent.decoded("dtstart") == datetime(2026, 12, 1, 14, tzinfo=UTC)
    assert vevent.decoded("dtend") == datetime(2026, 12, 1, 15, tzinfo=UTC)
    assert b"DTSTART:20261201T140000Z" in data
    assert "王磊" in str(vevent["summary"]) and "数据工程师" in str(vevent["summary"])
    assert str(vevent["organizer"]) == f"mailto:{person.email}"
    assert str(vevent["attendee"]) == "mailto:wang.lei@example.cn"
    assert "15:00 Europe/Berlin" in str(vevent["description"])
    assert ics_filename(event) == "interview-20261201-1500-I03.ics"
