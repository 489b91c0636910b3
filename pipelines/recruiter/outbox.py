"""The recruiter's outbox: emails are drafted into a table, edited or discarded there, and sent from it through
SMTP when a server is configured (else they stay, marked "not sent: no SMTP server"). Sending counts against the
daily email limit and the batch cap of the ActionLimiter, which live in the database and so hold across processes
and restarts: the allowance is taken before anything is sent, and what fails to send is given back."""

from __future__ import annotations

import os
import smtplib
import ssl
import tomllib
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, UTC
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import and_, insert, not_, select, update
from sqlalchemy.engine import Engine

from pipelines.core.guardrails.action_limits import ActionLimiter
from pipelines.core.settings import SECRETS_FILES
from pipelines.recruiter.tables import outbox

EMAIL_ACTION = "emails"
NO_SMTP = "not sent: no SMTP server"
SENDABLE = ("draft", "approved", "not_sent", "failed")
EDITABLE = ("draft", "approved", "not_sent", "failed")
PASSWORD_ENV = "STEPWISE_SMTP_PASSWORD"
SMTP_TIMEOUT_S = 20.0
CLAIM_LEASE = timedelta(minutes=10)
_CLAIM = "sending "  # status_reason of a message a send() call is working on


@dataclass(frozen=True)
class OutboxMessage:
    id: int
    to_address: str
    subject: str
    body: str
    status: str
    status_reason: str | None = None
    batch_id: str | None = None
    session_id: str | None = None
    candidate_id: str | None = None
    job_id: str | None = None
    attachment_name: str | None = None
    attachment_text: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    sent_at: datetime | None = None


@dataclass
class SendReport:
    """What one send() did, by message id: sent, failed (with the reason), not sent (with the reason), skipped
    (not sendable: already sent, discarded, unknown, or being sent by another run). `refused` is set when the
    whole request was refused (over the batch cap) and nothing was changed."""

    sent: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)
    not_sent: dict[int, str] = field(default_factory=dict)
    skipped: dict[int, str] = field(default_factory=dict)
    refused: str = ""

    @property
    def ok(self) -> bool:
        return not (self.refused or self.failed or self.not_sent)

    def summary(self, lang: str = "en") -> str:
        """One line: how many were sent, failed, not sent (with the first reason) and skipped."""
        if self.refused:
            return self.refused
        zh = lang == "zh"
        parts = [f"已发送 {len(self.sent)} 封" if zh else f"{len(self.sent)} sent"]
        if self.failed:
            why = next(iter(self.failed.values()))
            parts.append(f"失败 {len(self.failed)} 封（{why}）" if zh else f"{len(self.failed)} failed ({why})")
        if self.not_sent:
            why = next(iter(self.not_sent.values()))
            parts.append(f"未发送 {len(self.not_sent)} 封（{why}）" if zh else f"{len(self.not_sent)} not sent ({why})")
        if self.skipped:
            parts.append(f"跳过 {len(self.skipped)} 封" if zh else f"{len(self.skipped)} skipped")
        return ("，".join(parts) + "。") if zh else (", ".join(parts) + ".")


class SendError(Exception):
    """One message could not be sent; the text is one line for the outbox and the user (never a password)."""


class Sender(Protocol):
    def send(self, message: OutboxMessage) -> None: ...


def _message(row: Any) -> OutboxMessage:
    return OutboxMessage(**{name: getattr(row, name) for name in OutboxMessage.__dataclass_fields__})


class Outbox:
    """The outbox table of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- drafting and editing ----------------------------------------------------------------------------------
    def draft(self, to_address: str, subject: str, body: str, *, batch_id: str | None = None,
              session_id: str | None = None, candidate_id: str | None = None, job_id: str | None = None,
              attachment_name: str | None = None, attachment_text: str | bytes | None = None) -> int:
        """A new draft; its id."""
        to_address = (to_address or "").strip()
        if "@" not in to_address or any(ch in to_address for ch in "\r\n,;"):
            raise ValueError(f"not one email address: {to_address!r}")
        if isinstance(attachment_text, bytes):
            attachment_text = attachment_text.decode("utf-8")
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            return int(conn.execute(insert(outbox).values(
                batch_id=batch_id, session_id=session_id, candidate_id=candidate_id, job_id=job_id,
                to_address=to_address, subject=_one_line(subject)[:500], body=body, attachment_name=attachment_name,
                attachment_text=attachment_text, status="draft", created_at=now, updated_at=now,
            )).inserted_primary_key[0])

    def get(self, message_id: int) -> OutboxMessage | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(outbox).where(outbox.c.id == message_id)).first()
        return _message(row) if row else None

    def drafts(self, batch_id: str | None = None, status: str | Sequence[str] | None = None,
               session_id: str | None = None) -> list[OutboxMessage]:
        """The outbox's messages (oldest first), of a batch, a session and/or a status (or several)."""
        query = select(outbox).order_by(outbox.c.id)
        if batch_id is not None:
            query = query.where(outbox.c.batch_id == batch_id)
        if session_id is not None:
            query = query.where(outbox.c.session_id == session_id)
        if status is not None:
            query = query.where(outbox.c.status.in_([status] if isinstance(status, str) else list(status)))
        with self.engine.connect() as conn:
            return [_message(row) for row in conn.execute(query)]

    def edit(self, message_id: int, subject: str | None = None, body: str | None = None) -> bool:
        """Change a message not yet sent (it goes back to draft); False if it is sent, discarded or unknown."""
        values: dict[str, Any] = {"status": "draft", "status_reason": None, "updated_at": datetime.now(UTC)}
        if subject is not None:
            values["subject"] = _one_line(subject)[:500]
        if body is not None:
            values["body"] = body
        with self.engine.begin() as conn:
            return bool(conn.execute(update(outbox).where(
                outbox.c.id == message_id, outbox.c.status.in_(EDITABLE), _not_claimed()).values(**values)).rowcount)

    def approve(self, ids: Iterable[int]) -> int:
        """Mark drafts approved (what a human reviewed); how many."""
        return self._set(ids, ("draft",), status="approved")

    def discard(self, ids: Iterable[int]) -> int:
        """Discard messages not yet sent; how many were discarded."""
        return self._set(ids, EDITABLE, status="discarded")

    def _set(self, ids: Iterable[int], allowed: Sequence[str], **values: Any) -> int:
        ids = [int(i) for i in ids]
        if not ids:
            return 0
        with self.engine.begin() as conn:
            return int(conn.execute(update(outbox).where(
                outbox.c.id.in_(ids), outbox.c.status.in_(allowed), _not_claimed())
                .values(**values, status_reason=None, updated_at=datetime.now(UTC))).rowcount)

    # --- sending -----------------------------------------------------------------------------------------------
    def send(self, ids: Iterable[int], sender: Sender | None, limiter: ActionLimiter) -> SendReport:
        """Send messages: a batch over the cap is refused whole; without a sender they are marked not sent; else
        the daily allowance for all of them is taken at once before anything is sent (none is sent if it does
        not fit), each message is marked sent or failed, and the allowance of the failed ones is given back."""
        report = SendReport()
        ids = list(dict.fromkeys(int(i) for i in ids))
        with self.engine.connect() as conn:
            rows = {row.id: row for row in conn.execute(select(outbox.c.id, outbox.c.status, outbox.c.status_reason)
                                                        .where(outbox.c.id.in_(ids)))} if ids else {}
        candidates = []
        for message_id in ids:
            row = rows.get(message_id)
            if row is None:
                report.skipped[message_id] = "no such message"
            elif row.status not in SENDABLE:
                report.skipped[message_id] = f"already {row.status}"
            else:
                candidates.append(message_id)
        cap = limiter.batch_caps.get(EMAIL_ACTION)
        if cap is not None and len(candidates) > cap:
            report.refused = (f"A batch of {len(candidates)} emails is over the cap of {cap} per batch: "
                              f"send at most {cap} at once.")
            return report
        claimed = self._claim(candidates)
        for message_id in candidates:
            if message_id not in claimed:
                report.skipped[message_id] = "being sent by another run"
        if not claimed:
            return report
        if sender is None:
            self._mark(claimed, "not_sent", NO_SMTP)
            report.not_sent.update(dict.fromkeys(claimed, NO_SMTP))
            return report
        decision = limiter.take(EMAIL_ACTION, len(claimed))
        if not decision.allowed:
            reason = f"not sent: {decision.message}"
            self._mark(claimed, "not_sent", reason)
            report.not_sent.update(dict.fromkeys(claimed, reason))
            return report
        pending = list(claimed)
        try:
            for message_id in list(pending):
                message = self.get(message_id)
                try:
                    if message is None:
                        raise SendError("the message disappeared")
                    sender.send(message)
                except SendError as exc:
                    reason = _one_line(str(exc))[:500] or "send failed"
                    self._mark([message_id], "failed", reason)
                    limiter.give_back(EMAIL_ACTION, 1)
                    report.failed[message_id] = reason
                else:
                    self._mark([message_id], "sent", None, sent=True)
                    report.sent.append(message_id)
                pending.remove(message_id)
        finally:
            if pending:  # an unexpected error: what was not tried goes back, unsent
                reason = "failed: sending stopped by an error"
                self._mark(pending, "failed", reason)
                limiter.give_back(EMAIL_ACTION, len(pending))
                report.failed.update(dict.fromkeys(pending, reason))
        return report

    def _claim(self, ids: Sequence[int]) -> list[int]:
        """Mark the sendable messages as being sent by this call (a second run sending the same ids skips them)."""
        if not ids:
            return []
        token = _CLAIM + uuid.uuid4().hex
        with self.engine.begin() as conn:
            conn.execute(update(outbox).where(outbox.c.id.in_(list(ids)), outbox.c.status.in_(SENDABLE), _not_claimed())
                         .values(status="approved", status_reason=token, updated_at=datetime.now(UTC)))
            return list(conn.execute(select(outbox.c.id).where(outbox.c.status_reason == token)
                                     .order_by(outbox.c.id)).scalars())

    def _mark(self, ids: Sequence[int], status: str, reason: str | None, *, sent: bool = False) -> None:
        now = datetime.now(UTC)
        values: dict[str, Any] = {"status": status, "status_reason": reason, "updated_at": now}
        if sent:
            values["sent_at"] = now
        with self.engine.begin() as conn:
            conn.execute(update(outbox).where(outbox.c.id.in_(list(ids))).values(**values))


def _not_claimed() -> Any:
    """Not being sent right now (a claim older than the lease is a run that died and is ignored)."""
    fresh = datetime.now(UTC) - CLAIM_LEASE
    return not_(and_(outbox.c.status_reason.is_not(None), outbox.c.status_reason.like(_CLAIM + "%"),
                     outbox.c.updated_at > fresh))


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


# --- SMTP ------------------------------------------------------------------------------------------------------
def smtp_password(env_var: str = PASSWORD_ENV) -> str:
    """The SMTP password: the environment variable, else a secrets file (`STEPWISE_SMTP_PASSWORD = "..."` at the
    top, or `[smtp] password`). Never stored in settings."""
    if os.environ.get(env_var):
        return os.environ[env_var]
    for shown in SECRETS_FILES:
        path = Path(shown).expanduser()
        try:
            secrets = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        except (OSError, tomllib.TOMLDecodeError):
            continue
        section = secrets.get("smtp") if isinstance(secrets.get("smtp"), dict) else {}
        value = secrets.get(env_var) or section.get("password")
        if value:
            return str(value)
    return ""


class SmtpSender:
    """Sends outbox messages through one SMTP server (stdlib smtplib), one connection per message."""

    def __init__(self, host: str, port: int = 587, tls: str = "starttls", user: str = "",
                 password_env: str = PASSWORD_ENV, from_address: str = "recruiting@example.com",
                 timeout: float = SMTP_TIMEOUT_S) -> None:
        if tls not in ("none", "starttls", "ssl"):
            raise ValueError(f"tls must be none, starttls or ssl, not {tls!r}")
        if not host:
            raise ValueError("an SMTP sender needs a host")
        self.host, self.port, self.tls, self.user = host, int(port), tls, user
        self.password_env, self.from_address, self.timeout = password_env, from_address, timeout

    def __repr__(self) -> str:
        return f"SmtpSender({self.host}:{self.port}, tls={self.tls}, user={self.user or '-'})"

    def build(self, message: OutboxMessage) -> EmailMessage:
        """The email: plain text, with the invitation's .ics as a text/calendar attachment when there is one."""
        email = EmailMessage()
        email["From"] = self.from_address
        email["To"] = message.to_address
        email["Subject"] = message.subject
        email["Date"] = formatdate(localtime=False)
        email["Message-ID"] = make_msgid(idstring=f"outbox-{message.id}")
        email.set_content(message.body)
        if message.attachment_text:  # as text with its charset: bytes would go out without one, and a reader
            # would decode a Chinese organiser's name as ASCII
            email.add_attachment(message.attachment_text, subtype="calendar", charset="utf-8",
                                 filename=message.attachment_name or "invite.ics", params={"method": "REQUEST"})
        return email

    def send(self, message: OutboxMessage) -> None:
        password = smtp_password(self.password_env) if self.user else ""
        if self.user and not password:
            raise SendError(f"failed: SMTP user {self.user} is set but {self.password_env} is empty")
        try:
            context = ssl.create_default_context()
            if self.tls == "ssl":
                client: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            with client:
                if self.tls == "starttls":
                    client.starttls(context=context)
                if self.user:
                    client.login(self.user, password)
                client.send_message(self.build(message))
        except (smtplib.SMTPException, OSError, ValueError) as exc:  # OSError: refused, timeouts, TLS errors
            text = _one_line(f"{type(exc).__name__}: {exc}")
            if password:
                text = text.replace(password, "***")
            raise SendError(f"failed: SMTP {self.host}:{self.port}: {text}"[:500]) from None


def smtp_sender(policy: Any) -> SmtpSender | None:
    """The sender the recruiter's settings configure, or None when no SMTP host is set (messages stay unsent)."""
    host = (getattr(policy, "smtp_host", "") or "").strip()
    if not host:
        return None
    return SmtpSender(host, policy.smtp_port, policy.smtp_tls, policy.smtp_user, from_address=policy.smtp_from)


def new_batch_id() -> str:
    return uuid.uuid4().hex
