"""The recruiting tables in the app database (SQLite, MariaDB, PostgreSQL): jobs, candidates, applications and
their history, chat sessions and messages, the PII vault, and the seed's §9 `plans` and `workflows`."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Float, Index, Integer, MetaData, String, Table, UniqueConstraint

from pipelines.core.storage.columns import LongText, UTCDateTime
from pipelines.core.storage.vault import vault_table

WORKFLOW_STATUSES = ("running", "paused", "completed", "cancelled", "failed")
PLAN_STATUSES = ("pending", "approved", "rejected", "completed")
ID_CHARS = 64

metadata = MetaData()

jobs = Table(
    "recruiter_jobs", metadata,
    Column("id", String(ID_CHARS), primary_key=True),
    Column("title", String(300), nullable=False),
    Column("description", LongText, nullable=False),
    Column("location", String(200)),
    Column("skills", JSON),
    Column("min_years", Float),
    Column("source", String(300)),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    mysql_charset="utf8mb4",
)

candidates = Table(
    "recruiter_candidates", metadata,
    Column("id", String(ID_CHARS), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("email", String(320)),
    Column("phone", String(64)),
    Column("resume_text", LongText, nullable=False),
    Column("source_file", String(500)),
    Column("skills", JSON),
    Column("years_experience", Float),
    Column("location", String(200)),
    Column("source", String(300)),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Index("ix_recruiter_candidates_name", "name"),
    mysql_charset="utf8mb4",
)

applications = Table(
    "recruiter_applications", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("candidate_id", String(ID_CHARS), nullable=False),
    Column("job_id", String(ID_CHARS), nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    UniqueConstraint("candidate_id", "job_id", name="uq_recruiter_application"),
    Index("ix_recruiter_applications_job_status", "job_id", "status"),
    mysql_charset="utf8mb4",
)

application_history = Table(
    "recruiter_application_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("application_id", Integer, nullable=False),
    Column("from_status", String(16)),
    Column("to_status", String(16), nullable=False),
    Column("actor", String(120)),
    Column("note", LongText),
    Column("at", UTCDateTime, nullable=False),
    Index("ix_recruiter_history_application", "application_id", "id"),
    mysql_charset="utf8mb4",
)

chat_sessions = Table(
    "recruiter_chat_sessions", metadata,
    Column("id", String(ID_CHARS), primary_key=True),
    Column("user_id", String(120), nullable=False),
    Column("role", String(16), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    mysql_charset="utf8mb4",
)

chat_messages = Table(
    "recruiter_chat_messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", String(ID_CHARS), nullable=False),
    Column("role", String(16), nullable=False),
    # the text as the user wrote or was shown it (this table is the record; the trace keeps masked text)
    Column("content", LongText, nullable=False),
    Column("run_id", String(ID_CHARS)),
    Column("created_at", UTCDateTime, nullable=False),
    Index("ix_recruiter_messages_session", "session_id", "id"),
    mysql_charset="utf8mb4",
)

pii_vault = vault_table("recruiter_pii_vault", metadata, "session_id", ID_CHARS)

plans = Table(
    "plans", metadata,
    Column("id", String(ID_CHARS), primary_key=True),
    Column("workflow_id", String(ID_CHARS)),
    Column("session_id", String(ID_CHARS), nullable=False),
    Column("user_id", String(120), nullable=False),
    Column("goal", LongText, nullable=False),
    Column("workflow_type", String(64), nullable=False),
    Column("plan_json", JSON, nullable=False),
    Column("status", String(16), nullable=False, default="pending"),
    Column("modifications_json", JSON, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    mysql_charset="utf8mb4",
)

workflows = Table(
    "workflows", metadata,
    Column("id", String(ID_CHARS), primary_key=True),
    Column("session_id", String(ID_CHARS), nullable=False),
    Column("user_id", String(120), nullable=False),
    Column("workflow_type", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("summary", LongText),
    Column("plan_id", String(ID_CHARS), nullable=False, default=""),
    Column("graph_name", String(120), nullable=False, default=""),
    Column("langgraph_thread_id", String(ID_CHARS), nullable=False, default=""),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Index("ix_workflows_session_status", "session_id", "status"),
    mysql_charset="utf8mb4",
)

meta = Table(
    "recruiter_meta", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", String(500), nullable=False),
    mysql_charset="utf8mb4",
)

OUTBOX_STATUSES = ("draft", "approved", "sent", "not_sent", "failed", "discarded")
INTERVIEW_STATUSES = ("scheduled", "cancelled")

# Emails the recruiter drafted: approved and sent from here (SMTP), or kept with the reason they were not sent.
outbox = Table(
    "recruiter_outbox", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("batch_id", String(ID_CHARS)),
    Column("session_id", String(ID_CHARS)),
    Column("candidate_id", String(ID_CHARS)),
    Column("job_id", String(ID_CHARS)),
    Column("to_address", String(320), nullable=False),
    Column("subject", String(500), nullable=False),
    Column("body", LongText, nullable=False),
    Column("attachment_name", String(200)),
    Column("attachment_text", LongText),  # the invitation's .ics (text/calendar)
    Column("status", String(16), nullable=False, default="draft"),
    Column("status_reason", String(500)),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("sent_at", UTCDateTime),
    Index("ix_recruiter_outbox_batch", "batch_id", "id"),
    Index("ix_recruiter_outbox_status", "status", "id"),
    Index("ix_recruiter_outbox_candidate", "candidate_id"),
    mysql_charset="utf8mb4",
)

# Booked interviews: one interviewer's scheduled interviews never overlap (calendar_events.book checks it in the
# transaction that inserts, after locking the interviewer's row in interviewer_locks).
interviews = Table(
    "recruiter_interviews", metadata,
    Column("id", String(ID_CHARS), primary_key=True),
    Column("candidate_id", String(ID_CHARS), nullable=False),
    Column("job_id", String(ID_CHARS), nullable=False),
    Column("interviewer_id", String(ID_CHARS), nullable=False),
    Column("start_utc", UTCDateTime, nullable=False),
    Column("end_utc", UTCDateTime, nullable=False),
    Column("timezone", String(64), nullable=False),
    Column("status", String(16), nullable=False, default="scheduled"),
    Column("outbox_id", Integer),
    Column("created_at", UTCDateTime, nullable=False),
    Index("ix_recruiter_interviews_interviewer_start", "interviewer_id", "status", "start_utc"),
    Index("ix_recruiter_interviews_candidate", "candidate_id", "job_id"),
    mysql_charset="utf8mb4",
)

# One row per interviewer, updated at the start of a booking: the row lock serialises bookers of the same
# interviewer on MariaDB and PostgreSQL (SQLite serialises every writer anyway).
interviewer_locks = Table(
    "recruiter_interviewer_locks", metadata,
    Column("interviewer_id", String(ID_CHARS), primary_key=True),
    Column("bookings", Integer, nullable=False, default=0),
    mysql_charset="utf8mb4",
)
