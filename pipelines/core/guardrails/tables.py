"""The guardrails' own tables in the app database: the log of every warning and block (the seed's
`guardrail_logs`) and the action counters that make limits hold across processes and restarts."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Index, Integer, MetaData, PrimaryKeyConstraint, String, Table

from pipelines.core.storage.columns import LongText, UTCDateTime

SEVERITIES = ("info", "warning", "blocked")

metadata = MetaData()

guardrail_logs = Table(
    "guardrail_logs", metadata,
    Column("id", String(64), primary_key=True),
    Column("workflow_id", String(64)),
    Column("session_id", String(64)),
    Column("user_id", String(120)),
    Column("check_name", String(64), nullable=False),
    Column("severity", String(16), nullable=False),
    Column("message", LongText, nullable=False),
    Column("context_json", JSON),
    Column("created_at", UTCDateTime, nullable=False),
    Index("ix_guardrail_logs_created", "created_at"),
    Index("ix_guardrail_logs_session", "session_id"),
    mysql_charset="utf8mb4",
)

action_counts = Table(
    "guardrail_action_counts", metadata,
    Column("scope", String(120), nullable=False),
    Column("action", String(64), nullable=False),
    Column("day", String(10), nullable=False),
    Column("count", Integer, nullable=False),
    PrimaryKeyConstraint("scope", "action", "day"),
    mysql_charset="utf8mb4",
)
