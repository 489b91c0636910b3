"""The guardrail log: every warning and block, with which check fired and why (never the attack's text)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime, UTC
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine

from pipelines.core.guardrails.tables import guardrail_logs


class GuardrailLog:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def write(self, findings: Iterable[Any], *, workflow_id: str | None = None, session_id: str | None = None,
              user_id: str | None = None, context: dict[str, Any] | None = None) -> list[str]:
        """One row per finding (an object with `check`, `severity`, `message`, `detail`); returns the row ids."""
        now = datetime.now(UTC)
        rows = [{"id": uuid.uuid4().hex, "workflow_id": workflow_id, "session_id": session_id, "user_id": user_id,
                 "check_name": f.check, "severity": f.severity, "message": f.message,
                 "context_json": {**(context or {}), **dict(getattr(f, "detail", None) or {})}, "created_at": now}
                for f in findings]
        if rows:
            with self.engine.begin() as conn:
                conn.execute(insert(guardrail_logs), rows)
        return [row["id"] for row in rows]

    def entries(self, *, session_id: str | None = None, severity: str | None = None, check: str | None = None,
                limit: int = 500) -> list[dict[str, Any]]:
        """The newest entries first, filtered."""
        query = select(guardrail_logs).order_by(guardrail_logs.c.created_at.desc(), guardrail_logs.c.id).limit(limit)
        if session_id:
            query = query.where(guardrail_logs.c.session_id == session_id)
        if severity:
            query = query.where(guardrail_logs.c.severity == severity)
        if check:
            query = query.where(guardrail_logs.c.check_name == check)
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    def counts_by_check(self) -> dict[tuple[str, str], int]:
        query = select(guardrail_logs.c.check_name, guardrail_logs.c.severity, func.count()).group_by(
            guardrail_logs.c.check_name, guardrail_logs.c.severity)
        with self.engine.connect() as conn:
            return {(check, severity): int(n) for check, severity, n in conn.execute(query)}
