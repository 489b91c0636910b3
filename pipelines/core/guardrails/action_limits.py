"""Action limits (seed §6): daily quotas and batch caps, counted in the database so that they hold across
processes and restarts, and taken atomically so two runs cannot both squeeze under the limit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, UTC

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from pipelines.core.guardrails.tables import action_counts


@dataclass(frozen=True)
class LimitDecision:
    allowed: bool
    action: str
    requested: int
    used: int
    limit: int | None
    message: str = ""


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


class ActionLimiter:
    """Daily quotas per action (None: no quota) and caps per batch, for one scope (a deployment, a team)."""

    def __init__(self, engine: Engine, daily: Mapping[str, int | None], batch_caps: Mapping[str, int] | None = None,
                 scope: str = "deployment", today: Callable[[], str] = _today) -> None:
        self.engine, self.daily, self.batch_caps = engine, dict(daily), dict(batch_caps or {})
        self.scope, self.today = scope, today

    def used(self, action: str) -> int:
        with self.engine.connect() as conn:
            value = conn.execute(select(action_counts.c.count).where(*self._key(action))).scalar()
        return int(value or 0)

    def _key(self, action: str) -> tuple:
        return (action_counts.c.scope == self.scope, action_counts.c.action == action,
                action_counts.c.day == self.today())

    def check(self, action: str, n: int = 1) -> LimitDecision:
        """Would `n` more be allowed now? Nothing is counted."""
        return self._decide(action, n, self.used(action))

    def _decide(self, action: str, n: int, used: int) -> LimitDecision:
        cap = self.batch_caps.get(action)
        limit = self.daily.get(action)
        label = action.replace("_", " ")
        if cap is not None and n > cap:
            return LimitDecision(False, action, n, used, limit,
                                 f"A batch of {n} {label} is over the cap of {cap} per batch.")
        if limit is not None and used + n > limit:
            left = max(limit - used, 0)
            return LimitDecision(False, action, n, used, limit,
                                 f"The daily limit of {limit} {label} is reached: {used} used today, {left} left.")
        return LimitDecision(True, action, n, used, limit)

    def take(self, action: str, n: int = 1) -> LimitDecision:
        """Count `n` actions if the limits allow them all; otherwise count nothing and say why."""
        decision = self.check(action, n)
        if not decision.allowed or n <= 0:
            return decision
        limit = self.daily.get(action)
        for _ in range(3):
            with self.engine.begin() as conn:
                condition = [*self._key(action)]
                if limit is not None:
                    condition.append(action_counts.c.count + n <= limit)
                changed = conn.execute(update(action_counts).where(*condition)
                                       .values(count=action_counts.c.count + n)).rowcount
                if changed:
                    used = conn.execute(select(action_counts.c.count).where(*self._key(action))).scalar()
                    return LimitDecision(True, action, n, int(used) - n, limit)
                exists = conn.execute(select(action_counts.c.count).where(*self._key(action))).scalar()
            if exists is not None:  # the row is there and the update found no room: the limit is reached
                return self._decide(action, n, int(exists))
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(action_counts).values(scope=self.scope, action=action, day=self.today(),
                                                              count=n))
                return LimitDecision(True, action, n, 0, limit)
            except IntegrityError:
                continue  # another process created today's row first: update it instead
        return self.check(action, n)

    def give_back(self, action: str, n: int = 1) -> None:
        """Return counted actions that did not happen (a send that failed)."""
        with self.engine.begin() as conn:
            conn.execute(update(action_counts).where(*self._key(action), action_counts.c.count >= n)
                         .values(count=action_counts.c.count - n))
