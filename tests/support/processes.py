"""The processes a process started, read from /proc (Linux), and waiting for processes to end."""

from __future__ import annotations

import time
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()  # after "(command)": state, ppid, ...


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) and int(fields[1]) == pid:
            found.append(int(entry.name))
    return sorted(found)


def is_running(pid: int) -> bool:
    """Gone, or a zombie nobody has reaped yet (an orphan's new parent may be slow to reap it), is not running."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def wait_until_gone(pids: list[int], timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while running := [pid for pid in pids if is_running(pid)]:
        if time.monotonic() > end:
            raise AssertionError(f"processes {running} still run {timeout} s later")
        time.sleep(0.05)
