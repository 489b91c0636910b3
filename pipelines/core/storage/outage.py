"""Riding out a database outage: a worker's connections and transactions are retried with exponential backoff and
jitter until a budget of seconds runs out, then every later call fails at once.

Only code running inside `riding_out(budget)` waits; everything else (a dashboard page) fails fast as before. The
connection retry is one SQLAlchemy `do_connect` listener on every engine, which does nothing outside that scope:
no statement has run on a connection that failed to open, so retrying it is always safe. A transaction is retried
only where its caller says it may be run again (`patiently`)."""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from tenacity import RetryCallState, Retrying, retry_if_exception, wait_random_exponential

from pipelines.core.storage.sqlerrors import first_line

log = logging.getLogger(__name__)
T = TypeVar("T")

# MySQL/MariaDB client and server codes that mean the server is gone or cannot be reached (not a refused login).
MYSQL_UNREACHABLE = {1053, 1927, 2002, 2003, 2006, 2013, 2055, 4031}
# PostgreSQL SQLSTATEs of a lost connection or a server shutting down or starting up.
POSTGRES_UNREACHABLE = ("08", "57P01", "57P02", "57P03")
FIRST_WAIT_S, LONGEST_WAIT_S = 0.1, 5.0


class DatabaseOutage(RuntimeError):
    """The database stayed unreachable longer than the outage budget; the worker stops using it."""


def _driver_error(error: BaseException) -> BaseException:
    return getattr(error, "orig", None) or error


def is_outage(exc: BaseException | None) -> bool:
    """Whether an error (or one it was raised from) says the database server cannot be reached right now, as
    opposed to a wrong query, a refused login or a deadlock. SQLite files never have outages."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, DatabaseOutage):
            return True
        if isinstance(exc, DBAPIError) and exc.connection_invalidated:
            return True
        error = _driver_error(exc)
        module = type(error).__module__
        if module.startswith("pymysql") and error.args and error.args[0] in MYSQL_UNREACHABLE:
            return True
        if module.startswith("psycopg") and any(c.__name__ == "OperationalError" for c in type(error).__mro__):
            state = getattr(error, "sqlstate", None)  # None: no server answered at all
            if state is None or state.startswith(POSTGRES_UNREACHABLE):
                return True
        exc = exc.__cause__ or exc.__context__
    return False


class OutageBudget:
    """How long one worker may wait for its database during an outage. The clock starts at the first failure and
    stops at the next success, so waits of one outage add up across calls; once spent, `exhausted` stays set."""

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if seconds < 0:
            raise ValueError("an outage budget is a number of seconds, 0 or more")
        self.seconds = seconds
        self.clock, self.sleep = clock, sleep
        self.down_since: float | None = None
        self.exhausted = False
        self.last_error = ""
        self.retries = 0

    def remaining(self) -> float:
        if self.down_since is None:
            return self.seconds
        return max(0.0, self.seconds - (self.clock() - self.down_since))

    def call(self, fn: Callable[[], T]) -> T:
        """fn(), called again while it fails with an outage and the budget lasts; the last error when it runs out.
        Once exhausted, fails at once with DatabaseOutage (the worker is stopping)."""
        if self.exhausted:
            raise DatabaseOutage(self.describe())
        retrying = Retrying(retry=retry_if_exception(is_outage), stop=self._spent, wait=self._wait, sleep=self.sleep,
                            before_sleep=self._note, after=self._start_clock, reraise=True)
        try:
            result = retrying(fn)
        except BaseException as exc:
            if is_outage(exc) and not isinstance(exc, DatabaseOutage):
                self._start_clock(None, exc)
                if self.remaining() <= 0:
                    self.exhausted = True
            raise
        self.down_since = None
        return result

    def describe(self) -> str:
        """`unreachable for more than 60 s (last error: …)`."""
        return (f"unreachable for more than {self.seconds:g} s"
                + (f" (last error: {self.last_error})" if self.last_error else ""))

    # tenacity hooks ------------------------------------------------------------------------------
    def _start_clock(self, state: RetryCallState | None, exc: BaseException | None = None) -> None:
        error = exc if exc is not None else (state.outcome.exception() if state and state.outcome else None)
        if error is not None and is_outage(error):
            if self.down_since is None:
                self.down_since = self.clock()
            self.last_error = first_line(error)[:300]

    def _spent(self, state: RetryCallState) -> bool:
        return self.remaining() <= 0

    def _wait(self, state: RetryCallState) -> float:
        # Full jitter: workers that lost the database together do not all knock again at the same moment.
        return min(wait_random_exponential(multiplier=FIRST_WAIT_S, max=LONGEST_WAIT_S)(state), self.remaining())

    def _note(self, state: RetryCallState) -> None:
        self.retries += 1
        log.warning("database unreachable (%s); retry %d in %.1f s, %.0f s of the outage budget left",
                    self.last_error, state.attempt_number, state.upcoming_sleep, self.remaining())


_current: contextvars.ContextVar[OutageBudget | None] = contextvars.ContextVar("stepwise_outage_budget",
                                                                               default=None)
_listening = threading.Lock()
_installed = False


def _connect(dialect: Any, record: Any, cargs: tuple, cparams: dict) -> Any:
    """Every engine's connect: retried while the calling code rides out an outage, the default otherwise."""
    budget = _current.get()
    if budget is None:
        return None  # SQLAlchemy connects as usual
    return budget.call(lambda: dialect.connect(*cargs, **cparams))


def _install() -> None:
    global _installed
    with _listening:
        if not _installed:
            event.listen(Engine, "do_connect", _connect)  # on the class: engines made before and after
            _installed = True


@contextmanager
def riding_out(budget: OutageBudget) -> Iterator[OutageBudget]:
    """Within this block (this thread, and the graph nodes it runs), connections wait out an outage."""
    _install()
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def current_budget() -> OutageBudget | None:
    return _current.get()


def patiently(fn: Callable[[], T]) -> T:
    """fn() (one transaction that may safely run again), retried through an outage when riding one out."""
    budget = _current.get()
    return fn() if budget is None else budget.call(fn)
