"""Timestamps as the stores and traces write them: UTC, ISO 8601."""

from datetime import datetime, UTC


def now_iso(timespec: str = "seconds") -> str:
    return datetime.now(UTC).isoformat(timespec=timespec)
