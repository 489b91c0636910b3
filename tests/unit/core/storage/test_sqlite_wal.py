"""SQLite files shared by processes: the switch to WAL is retried when another process holds the lock."""

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipelines.core.storage import sqlite_wal
from pipelines.core.storage.sqlite_wal import shared_file_pragmas


class LockedAtFirst:
    """A DB-API connection whose first `failures` switches to WAL meet another process's lock."""

    def __init__(self, failures: int, message: str = "database is locked") -> None:
        self.failures, self.message, self.executed = failures, message, []

    def cursor(self):
        return self

    def execute(self, sql: str):
        if "journal_mode" in sql and self.failures:
            self.failures -= 1
            raise sqlite3.OperationalError(self.message)
        self.executed.append(sql)

    def close(self) -> None:
        pass


def test_a_locked_switch_to_wal_is_tried_again(monkeypatch):
    monkeypatch.setattr(sqlite_wal, "WAL_PAUSE_S", 0)
    conn = LockedAtFirst(failures=3)
    shared_file_pragmas(conn)
    assert conn.executed == ["PRAGMA busy_timeout=30000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"]


def test_other_errors_and_a_lock_that_never_ends_are_raised(monkeypatch):
    monkeypatch.setattr(sqlite_wal, "WAL_PAUSE_S", 0)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        shared_file_pragmas(LockedAtFirst(failures=1, message="disk I/O error"))
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        shared_file_pragmas(LockedAtFirst(failures=sqlite_wal.WAL_ATTEMPTS))


def test_processes_opening_a_fresh_file_together_all_succeed(tmp_path):
    script = textwrap.dedent("""
        import os, sqlite3, sys, time
        from pipelines.core.storage.sqlite_wal import shared_file_pragmas
        path, go = sys.argv[1], sys.argv[2]
        while not os.path.exists(go):
            time.sleep(0.001)
        conn = sqlite3.connect(path)
        shared_file_pragmas(conn)
        conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
        print(conn.execute("PRAGMA journal_mode").fetchone()[0])
    """)
    for round_ in range(3):
        folder = tmp_path / str(round_)
        folder.mkdir()
        procs = [subprocess.Popen([sys.executable, "-c", script, str(folder / "db.sqlite"), str(folder / "go")],
                                  cwd=Path(__file__).resolve().parents[4], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(6)]
        (folder / "go").touch()
        results = [p.communicate(timeout=60) for p in procs]
        assert all(p.returncode == 0 for p in procs), [err for _, err in results]
        assert {out.strip() for out, _ in results} == {"wal"}
