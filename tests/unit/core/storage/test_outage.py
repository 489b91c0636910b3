"""Riding out a database outage: which errors are an outage, retries with backoff and jitter within a budget, and
connections that wait only inside `riding_out`."""

import sqlite3

import psycopg
import pymysql
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from pipelines.core.storage.outage import DatabaseOutage, OutageBudget, is_outage, patiently, riding_out


class FakeClock:
    """Time that moves only when the budget sleeps, so the test runs at once and on any machine."""

    def __init__(self):
        self.now, self.sleeps = 1000.0, []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def failing(times, error):
    calls = []

    def call():
        calls.append(1)
        if len(calls) <= times:
            raise error
        return "answer"
    return call, calls


def wrapped(orig):
    return OperationalError("SELECT 1", {}, orig)


@pytest.mark.parametrize("error,outage", [
    (pymysql.err.OperationalError(2003, "Can't connect to MySQL server on '127.0.0.1'"), True),
    (pymysql.err.OperationalError(2013, "Lost connection to MySQL server during query"), True),
    (pymysql.err.OperationalError(1045, "Access denied for user 'root'"), False),
    (pymysql.err.OperationalError(1213, "Deadlock found when trying to get lock"), False),
    (psycopg.OperationalError("connection failed: Connection refused"), True),
    (psycopg.errors.AdminShutdown("terminating connection due to administrator command"), True),
    (psycopg.errors.InvalidPassword("password authentication failed"), False),
    (sqlite3.OperationalError("database is locked"), False),
])
def test_an_outage_is_a_server_out_of_reach_not_a_refused_login_or_a_deadlock(error, outage):
    assert is_outage(error) is outage
    assert is_outage(wrapped(error)) is outage  # as SQLAlchemy raises it
    try:
        raise RuntimeError("the run database failed") from wrapped(error)  # as a store re-raises it
    except RuntimeError as store_error:
        assert is_outage(store_error) is outage


def test_an_outage_is_retried_with_growing_jittered_waits_until_it_ends():
    clock = FakeClock()
    budget = OutageBudget(60, clock=clock, sleep=clock.sleep)
    call, calls = failing(8, wrapped(pymysql.err.OperationalError(2003, "Can't connect")))
    assert budget.call(call) == "answer"
    assert len(calls) == 9 and budget.retries == 8 and not budget.exhausted
    assert all(0 <= wait <= 5 for wait in clock.sleeps) and len(set(clock.sleeps)) > 1  # bounded, and jittered
    assert budget.down_since is None and budget.remaining() == 60  # the next outage gets the whole budget


def test_past_the_budget_the_last_error_is_raised_and_every_later_call_fails_at_once():
    clock = FakeClock()
    budget = OutageBudget(60, clock=clock, sleep=clock.sleep)
    call, calls = failing(10_000, wrapped(pymysql.err.OperationalError(2003, "Can't connect")))
    with pytest.raises(OperationalError):
        budget.call(call)
    assert budget.exhausted and sum(clock.sleeps) == pytest.approx(60)  # no wait beyond the budget
    assert "unreachable for more than 60 s (last error: (2003" in budget.describe()
    attempts = len(calls)
    with pytest.raises(DatabaseOutage):
        budget.call(call)
    assert len(calls) == attempts


def test_other_errors_are_raised_at_once():
    budget = OutageBudget(60)
    call, calls = failing(1, wrapped(pymysql.err.OperationalError(1045, "Access denied")))
    with pytest.raises(OperationalError):
        budget.call(call)
    assert len(calls) == 1 and not budget.exhausted


def test_connections_wait_only_inside_riding_out():
    engine = create_engine("mysql+pymysql://root@127.0.0.1:1/none", connect_args={"connect_timeout": 2})
    try:
        with pytest.raises(OperationalError):  # a page: fails at once, no retry
            engine.connect()
        with riding_out(OutageBudget(0.5)) as budget:
            with pytest.raises(OperationalError):
                with engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
            with pytest.raises(DatabaseOutage):  # spent: later calls do not wait again
                patiently(lambda: engine.connect())
        assert budget.retries >= 1 and budget.exhausted
    finally:
        engine.dispose()
    calls = []
    assert patiently(lambda: calls.append(1) or "done") == "done" and calls == [1]  # outside: a plain call
