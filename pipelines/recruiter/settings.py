"""The recruiter's own settings: the guardrail policy (seed §6 `policy.py`), per deployment."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pipelines.core.settings import Settings, workflow_settings

WORKFLOW_ID = "recruiter"


class RecruiterSettings(BaseModel):
    model_config = ConfigDict(title="Open Recruiter", frozen=True)

    max_input_chars: int = Field(
        64_000, ge=100, le=1_000_000, title="Longest message or document the guardrails accept (characters)",
        description="Longer input is refused with its length and this limit (seed §6: 64,000).",
        json_schema_extra={"env": "STEPWISE_RECRUITER_MAX_INPUT_CHARS"})
    emails_per_day: int = Field(
        50, ge=0, le=100_000, title="Emails per day",
        description="Outreach emails sent per day across every run and process (seed §6: 50).",
        json_schema_extra={"env": "STEPWISE_RECRUITER_EMAILS_PER_DAY"})
    batch_cap: int = Field(
        20, ge=1, le=10_000, title="Batch cap (items per batch)",
        description="The most emails or changes one request may do at once (seed §6: 20).",
        json_schema_extra={"env": "STEPWISE_RECRUITER_BATCH_CAP"})
    plan_revisions: int = Field(
        3, ge=0, le=20, title="Plan revisions",
        description="How many times a plan may be modified before it must be approved or cancelled as it stands.",
        json_schema_extra={"env": "STEPWISE_RECRUITER_PLAN_REVISIONS"})
    status_changes_per_day: int = Field(
        100, ge=0, le=100_000, title="Candidate status changes per day",
        description="Pipeline stage changes per day across every run and process (seed: 100).",
        json_schema_extra={"env": "STEPWISE_RECRUITER_STATUS_CHANGES_PER_DAY"})
    model_calls_per_operation: int = Field(
        50, ge=1, le=10_000, title="Model calls per operation",
        description="A request that would need more model calls stops and says so (seed: 50).",
        json_schema_extra={"env": "STEPWISE_RECRUITER_MODEL_CALLS_PER_OPERATION"})
    history_messages: int = Field(
        20, ge=0, le=200, title="Messages of history the chat reads",
        description="build_context loads this many of the session's last messages (seed §3: 20).",
        json_schema_extra={"env": "STEPWISE_RECRUITER_HISTORY_MESSAGES"})
    smtp_host: str = Field(
        "", max_length=255, title="SMTP server (host)",
        description="Where approved emails are sent; empty: they stay in the outbox, marked not sent.",
        json_schema_extra={"env": "STEPWISE_SMTP_HOST"})
    smtp_port: int = Field(
        587, ge=1, le=65_535, title="SMTP port",
        description="587 for STARTTLS, 465 for SSL, 25 for a plain relay.",
        json_schema_extra={"env": "STEPWISE_SMTP_PORT"})
    smtp_tls: str = Field(
        "starttls", pattern=r"^(none|starttls|ssl)$", title="SMTP encryption (none, starttls or ssl)",
        description="starttls upgrades a plain connection; ssl connects encrypted; none is for a local relay only.",
        json_schema_extra={"env": "STEPWISE_SMTP_TLS"})
    smtp_user: str = Field(
        "", max_length=320, title="SMTP user",
        description="The login, if the server asks for one; the password comes from STEPWISE_SMTP_PASSWORD only.",
        json_schema_extra={"env": "STEPWISE_SMTP_USER"})
    smtp_from: str = Field(
        "recruiting@example.com", min_length=3, max_length=320, pattern=r"^[^@\s]+@[^@\s]+$",
        title="Sender address (From)", description="The From address of the recruiter's emails.",
        json_schema_extra={"env": "STEPWISE_SMTP_FROM"})


def recruiter_settings(settings: Settings) -> RecruiterSettings:
    return workflow_settings(WORKFLOW_ID, RecruiterSettings, settings)
