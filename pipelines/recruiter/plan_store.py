"""The planner's plans (seed §9 `plans`): each plan as the user saw it, its approval status, and the history of
its modifications (who changed it, how, and the diff), over SQLAlchemy like the recruiting store."""

from __future__ import annotations

import uuid
from datetime import datetime, UTC
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine

from pipelines.core.storage.engine import create_tables
from pipelines.recruiter.schemas import Plan
from pipelines.recruiter.tables import metadata, plans

PLAN_STATUSES = ("pending", "approved", "rejected", "completed", "cancelled")


def _row(row: Any) -> dict[str, Any]:
    return dict(row._mapping)


class PlanStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(self.engine, metadata)

    def save(self, plan: Plan, session_id: str, user_id: str, workflow_id: str = "") -> str:
        """A new pending plan; its id."""
        plan_id, now = uuid.uuid4().hex, datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(insert(plans).values(
                id=plan_id, workflow_id=workflow_id, session_id=session_id, user_id=user_id, goal=plan.goal,
                workflow_type=plan.workflow_type, plan_json=plan.model_dump(mode="json"), status="pending",
                modifications_json=[], created_at=now, updated_at=now))
        return plan_id

    def get(self, plan_id: str) -> dict[str, Any] | None:
        """The row (plan_json and modifications_json as plain dicts and lists), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(plans).where(plans.c.id == plan_id)).first()
        return _row(row) if row else None

    def plan(self, plan_id: str) -> Plan | None:
        """The current plan as a model, or None."""
        row = self.get(plan_id)
        return Plan.model_validate(row["plan_json"]) if row else None

    def set_status(self, plan_id: str, status: str) -> None:
        if status not in PLAN_STATUSES:
            raise ValueError(f"unknown plan status {status!r}: one of {', '.join(PLAN_STATUSES)}")
        with self.engine.begin() as conn:
            changed = conn.execute(update(plans).where(plans.c.id == plan_id)
                                   .values(status=status, updated_at=datetime.now(UTC))).rowcount
        if not changed:
            raise KeyError(plan_id)

    def set_workflow(self, plan_id: str, workflow_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(plans).where(plans.c.id == plan_id)
                         .values(workflow_id=workflow_id, updated_at=datetime.now(UTC)))

    def add_modification(self, plan_id: str, new_plan: Plan, diff_lines: list[str], by: str,
                         instruction: str | None = None) -> int:
        """Record a modification and make new_plan the plan; the number of modifications so far."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            row = conn.execute(select(plans.c.modifications_json).where(plans.c.id == plan_id)).first()
            if row is None:
                raise KeyError(plan_id)
            history = list(row.modifications_json or [])
            history.append({"at": now.isoformat(), "by": by, "instruction": instruction, "diff": list(diff_lines),
                            "plan": new_plan.model_dump(mode="json")})
            conn.execute(update(plans).where(plans.c.id == plan_id).values(
                plan_json=new_plan.model_dump(mode="json"), goal=new_plan.goal, workflow_type=new_plan.workflow_type,
                modifications_json=history, updated_at=now))
        return len(history)

    def for_session(self, session_id: str) -> list[dict[str, Any]]:
        """The session's plans, oldest first."""
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(
                select(plans).where(plans.c.session_id == session_id).order_by(plans.c.created_at, plans.c.id))]

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest plans of every session, newest first."""
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(
                select(plans).order_by(plans.c.created_at.desc(), plans.c.id).limit(limit))]
