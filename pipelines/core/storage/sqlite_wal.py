"""SQLite files shared by processes: WAL, a busy timeout, and a retried switch to WAL."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

WAL_ATTEMPTS, WAL_PAUSE_S = 100, 0.05


def shared_file_pragmas(conn: Any, busy_timeout_s: float = 30.0) -> None:
    """On a DB-API connection: wait on locks (30 s unless told), write-ahead log, normal sync.

    Switching a new file to WAL takes an exclusive lock and ignores the busy timeout, so processes that open
    a fresh file together may be told "database is locked": they try again instead of failing."""
    cursor = conn.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
        for attempt in range(WAL_ATTEMPTS):
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == WAL_ATTEMPTS - 1:
                    raise
                time.sleep(WAL_PAUSE_S)
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def waiting_on_connect(busy_timeout_s: float):
    """The same, as a SQLAlchemy "connect" event listener waiting `busy_timeout_s` seconds on a lock."""
    return lambda dbapi_conn, _record: shared_file_pragmas(dbapi_conn, busy_timeout_s)
