"""Column types every SQL store shares: long text that fits Chinese on MySQL, and UTC timestamps on every backend."""

from __future__ import annotations

from datetime import datetime, UTC
from typing import Any

from sqlalchemy import DateTime, Text
from sqlalchemy.dialects import mysql
from sqlalchemy.types import TypeDecorator

# MySQL's TEXT holds 64 KB of bytes, and 65,000 characters of Chinese are three times that.
LongText = Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")


class UTCDateTime(TypeDecorator):
    """Aware UTC datetimes in Python, naive UTC in the database: MySQL and SQLite keep no time zone, so
    every backend stores the same thing and every read comes back aware."""

    impl = DateTime
    cache_ok = True

    def load_dialect_impl(self, dialect: Any) -> Any:
        # MySQL's DATETIME drops fractions by default, which would make a sub-second lease unmeasurable.
        if dialect.name in ("mysql", "mariadb"):
            return dialect.type_descriptor(mysql.DATETIME(fsp=6))
        return dialect.type_descriptor(DateTime())

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None else None
