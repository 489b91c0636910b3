"""The run store's schema: threads (one per run), their step records and task records, and a thread's row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Column, Double, Integer, MetaData, String, Table, Text, text

from pipelines.core.storage.vault import vault_table

metadata = MetaData()

threads = Table(
    "stepwise_threads", metadata,
    Column("thread_id", String(64), primary_key=True),
    Column("pipeline", String(64), nullable=False, index=True),
    Column("scenario", String(128)),
    Column("title", String(256)),
    Column("provider", String(128)),
    Column("status", String(32), nullable=False, default="new"),
    Column("cursor_checkpoint_id", String(64)),
    Column("input", JSON),  # the raw input the run started from, so it can be reset or repeated
    Column("created_at", Double, nullable=False),
    Column("updated_at", Double, nullable=False),
    # Who may move the run now (see run_claims): bumped by every step, answer, rewind and fork, and compared when a
    # claim is taken; the claim itself, with its holder and the end of its lease.
    Column("version", Integer, nullable=False, default=0, server_default=text("0")),
    Column("claim_token", String(64)),
    Column("claim_holder", String(200)),
    Column("claim_expires_at", Double),
)

# The values behind the placeholders of a run's personal data (scope: its thread id), never in a step record.
pii_vault = vault_table("stepwise_pii_vault", metadata, "scope")

steps = Table(
    "stepwise_steps", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("step_key", String(64), nullable=False, unique=True),
    Column("thread_id", String(64), nullable=False, index=True),
    Column("step", Integer, nullable=False),
    Column("status", String(32), nullable=False),
    Column("started_at", Double, nullable=False),
    Column("duration_ms", Double, nullable=False),
    Column("parent_checkpoint_id", String(64)),
    Column("checkpoint_id", String(64), index=True),
    Column("changes", JSON, nullable=False),
    Column("counters", JSON, nullable=False),
    Column("error", Text),
)

tasks = Table(
    "stepwise_tasks", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("step_key", String(64), nullable=False, index=True),
    Column("thread_id", String(64), nullable=False, index=True),
    Column("task_id", String(64), nullable=False),
    Column("node", String(128), nullable=False),
    Column("namespace", String(256), nullable=False, default=""),
    Column("status", String(32), nullable=False),
    Column("started_at", Double, nullable=False),
    Column("duration_ms", Double, nullable=False),
    Column("model_calls", JSON, nullable=False),
    Column("calls", Integer, nullable=False, default=0),
    Column("input_tokens", Integer, nullable=False, default=0),
    Column("output_tokens", Integer, nullable=False, default=0),
    Column("update", JSON),
    Column("error", Text),
)


@dataclass
class ThreadInfo:
    thread_id: str
    pipeline: str
    scenario: str | None
    title: str | None
    provider: str | None
    status: str
    cursor_checkpoint_id: str | None
    input: dict[str, Any] | None
    created_at: float
    updated_at: float
    version: int = 0
    claim_token: str | None = None
    claim_holder: str | None = None
    claim_expires_at: float | None = None

    def claimed_by(self, now: float) -> str | None:
        """Who holds the run now (their description), or None when nobody's claim is alive."""
        if self.claim_token and (self.claim_expires_at or 0) > now:
            return self.claim_holder or "another session"
        return None
