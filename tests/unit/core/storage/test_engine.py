"""The engine factory's handling of a pre-ping that fails on a psycopg connection whose socket was reset."""

from __future__ import annotations

from types import SimpleNamespace

import psycopg
import pytest

from pipelines.core.storage.engine import _failed_ping_is_a_disconnect, make_engine


def _ping_error() -> BaseException:
    """The error SQLAlchemy's psycopg ping raises when the socket was reset: putting autocommit back fails while
    the SELECT 1's OperationalError is being raised."""
    try:
        try:
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        finally:
            raise psycopg.ProgrammingError("can't change 'autocommit' now: connection in transaction status ACTIVE")
    except psycopg.ProgrammingError as exc:
        return exc


@pytest.mark.parametrize("is_pre_ping, expected", [(True, True), (False, False)])
def test_a_ping_that_failed_on_a_reset_socket_makes_the_pool_reconnect(is_pre_ping, expected):
    context = SimpleNamespace(is_pre_ping=is_pre_ping, original_exception=_ping_error(), is_disconnect=False)
    _failed_ping_is_a_disconnect(context)
    assert context.is_disconnect is expected  # a statement's own error is left to the dialect


def test_a_wrong_query_during_a_ping_is_not_taken_for_a_disconnect():
    context = SimpleNamespace(is_pre_ping=True, original_exception=psycopg.ProgrammingError("syntax error"),
                              is_disconnect=False)
    _failed_ping_is_a_disconnect(context)
    assert context.is_disconnect is False


def test_only_postgresql_engines_carry_the_listener(tmp_path):
    from sqlalchemy import event

    sqlite = make_engine(f"sqlite:///{tmp_path / 'a.sqlite'}")
    postgres = make_engine("postgresql://nobody@127.0.0.1:1/none")  # not connected: engines connect lazily
    assert not event.contains(sqlite, "handle_error", _failed_ping_is_a_disconnect)
    assert event.contains(postgres, "handle_error", _failed_ping_is_a_disconnect)
