"""Schema, statuses and row checks of the Flink exception queue and knowledge cases (SQLite, MariaDB, PostgreSQL)."""

from __future__ import annotations

import hashlib
from datetime import datetime, UTC
from typing import Any

from sqlalchemy import JSON, Column, Float, Index, Integer, MetaData, String, Table

from pipelines.core.storage.columns import LongText, UTCDateTime
from pipelines.flink_diagnosis.schemas import MAX_CONFIG_CHARS, MAX_MESSAGE_CHARS, config_length, over_limit

# The queue's statuses, in the order an exception goes through them: defined here, imported elsewhere.
STATUSES = ("pending", "in_progress", "completed", "failed")
SOURCES = ("shipped", "accumulated")
MAX_TEXT_CHARS = 65_000  # what a LongText column keeps of text we write ourselves (errors, learnt cases)
SHORT_FIELDS = {"job_id": 128, "job_name": 256, "error_type": 128}

metadata = MetaData()

exceptions = Table(
    "flink_exceptions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("job_id", String(128), nullable=False),
    Column("job_name", String(256)),
    Column("error_type", String(128)),
    Column("error_message", LongText, nullable=False),
    Column("job_config", JSON),
    Column("status", String(16), nullable=False, default="pending"),
    Column("diagnosis", JSON),
    Column("error", LongText),
    Column("attempts", Integer, nullable=False, default=0),
    Column("claimed_by", String(128)),
    Column("claimed_at", UTCDateTime),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    # The claim walks (status, id) to the lowest pending row without a sort.
    Index("ix_flink_exceptions_status_id", "status", "id"),
    Index("ix_flink_exceptions_job_id", "job_id"),
    mysql_charset="utf8mb4",
)

cases = Table(
    "flink_knowledge_cases", metadata,
    Column("case_id", String(128), primary_key=True),
    Column("error_type", String(128)),
    Column("error_pattern", LongText, nullable=False),
    Column("pattern_hash", String(64), nullable=False),
    Column("root_cause", LongText),
    Column("solution", LongText),
    Column("category", String(64)),
    Column("source", String(16), nullable=False),
    Column("confidence", Float, nullable=False, default=0.0),
    Column("hit_count", Integer, nullable=False, default=0),
    Column("created_at", UTCDateTime, nullable=False),
    # MySQL cannot put a unique index on a TEXT column, so the pattern is unique through its hash.
    Index("ux_flink_knowledge_cases_pattern_hash", "pattern_hash", unique=True),
    mysql_charset="utf8mb4",
)


def utcnow() -> datetime:
    return datetime.now(UTC)


def pattern_hash(pattern: str) -> str:
    return hashlib.sha256(pattern.strip().encode("utf-8")).hexdigest()


def clip(text: str) -> str:
    """Text Stepwise writes itself (an error, a learnt case) is cut with a marker that says so; what an engineer
    hands in is refused instead (exception_row)."""
    text = text.replace("\x00", "")  # PostgreSQL refuses NUL in text
    if len(text) <= MAX_TEXT_CHARS:
        return text
    marker = f"\n... [truncated: {len(text):,} characters in total]"
    return text[:MAX_TEXT_CHARS - len(marker)] + marker


def check_statuses(status: str | None, statuses: list[str] | tuple[str, ...] | None) -> list[str]:
    wanted = [*([status] if status else []), *(statuses or [])]
    for name in wanted:
        if name not in STATUSES:
            raise ValueError(f"unknown status {name!r}; choose one of {', '.join(STATUSES)}")
    return wanted


def worker_name(worker_id: str) -> str:
    worker_id = str(worker_id or "").strip()
    if not worker_id or len(worker_id) > 128:
        raise ValueError("a worker id is a non-empty string of at most 128 characters")
    return worker_id


def exception_row(item: dict[str, Any], now: datetime) -> dict[str, Any]:
    job_id = str(item.get("job_id") or "").strip()
    if not job_id:
        raise ValueError("an exception needs a job_id")
    message = item.get("error_message")
    if not isinstance(message, str) or not message.strip():
        raise ValueError(f"the exception of job {job_id[:128]} has an empty error_message")
    if len(message) > MAX_MESSAGE_CHARS:
        raise ValueError(f"error_message of job {job_id[:40]}: {over_limit(len(message), MAX_MESSAGE_CHARS)}")
    config = item.get("job_config")
    if config is not None and not isinstance(config, dict):
        raise ValueError(f"job_config of job {job_id[:128]} must be a dict, not {type(config).__name__}")
    if config is not None and (length := config_length(config)) > MAX_CONFIG_CHARS:
        raise ValueError(f"job_config of job {job_id[:40]}: {over_limit(length, MAX_CONFIG_CHARS)}")
    row = {"job_id": job_id, "job_name": item.get("job_name"), "error_type": item.get("error_type")}
    for name, limit in SHORT_FIELDS.items():
        if row[name] is not None and len(str(row[name])) > limit:
            raise ValueError(f"{name} of job {job_id[:40]} is longer than {limit} characters")
    return {**row, "error_message": message.replace("\x00", ""), "job_config": config, "status": "pending",
            "attempts": 0, "created_at": now, "updated_at": now}


def case_row(case: dict[str, Any], now: datetime) -> dict[str, Any]:
    pattern = str(case.get("error_pattern") or "").strip()
    if not pattern:
        raise ValueError("a knowledge case needs an error_pattern")
    source = case.get("source") or "accumulated"
    if source not in SOURCES:
        raise ValueError(f"unknown case source {source!r}; choose one of {', '.join(SOURCES)}")
    digest = pattern_hash(pattern)  # of the whole pattern, so a clipped one is still found by its full text
    row = {"case_id": str(case.get("case_id") or f"case-{digest[:16]}"), "error_type": case.get("error_type"),
           "category": case.get("category")}
    for name, limit in {"case_id": 128, "error_type": 128, "category": 64}.items():
        if row[name] is not None and len(str(row[name])) > limit:
            raise ValueError(f"{name} of a knowledge case is longer than {limit} characters")
    texts = {name: clip(str(case[name])) if case.get(name) is not None else None for name in ("root_cause", "solution")}
    return {**row, **texts, "error_pattern": clip(pattern), "pattern_hash": digest, "source": source,
            "confidence": float(case.get("confidence") or 0.0),
            # A case accumulated from a diagnosis has been seen once; a shipped one not yet.
            "hit_count": int(case.get("hit_count", 1 if source == "accumulated" else 0)), "created_at": now}
