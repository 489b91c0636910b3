"""Action limits count in the database: they hold across limiter objects (processes) and engines (restarts)."""

from __future__ import annotations

import threading

from pipelines.core.guardrails.action_limits import ActionLimiter
from pipelines.core.guardrails.tables import metadata
from pipelines.core.storage.engine import create_tables, make_engine


def _limiter(url: str, **daily: int) -> ActionLimiter:
    engine = make_engine(url)
    create_tables(engine, metadata)
    return ActionLimiter(engine, daily=daily or {"emails": 50}, batch_caps={"emails": 20})


def test_the_daily_limit_holds_across_a_restart(tmp_path):
    url = f"sqlite:///{tmp_path / 'app.sqlite'}"
    first = _limiter(url, emails=50)
    for _ in range(3):
        assert first.take("emails", 15).allowed
    first.engine.dispose()
    again = _limiter(url, emails=50)  # a new process: only the database remembers
    assert again.used("emails") == 45
    refused = again.take("emails", 10)
    assert not refused.allowed and refused.used == 45
    assert "daily limit of 50 emails is reached: 45 used today, 5 left" in refused.message
    assert again.take("emails", 5).allowed and again.used("emails") == 50
    assert not again.take("emails", 1).allowed


def test_a_batch_over_the_cap_is_refused_and_counts_nothing(tmp_path):
    limiter = _limiter(f"sqlite:///{tmp_path / 'a.sqlite'}")
    decision = limiter.take("emails", 21)
    assert not decision.allowed and "cap of 20 per batch" in decision.message
    assert limiter.used("emails") == 0


def test_days_are_counted_apart_and_given_back(tmp_path):
    limiter = _limiter(f"sqlite:///{tmp_path / 'a.sqlite'}", emails=2)
    limiter.today = lambda: "2026-11-23"
    assert limiter.take("emails", 2).allowed and not limiter.take("emails", 1).allowed
    limiter.give_back("emails", 1)
    assert limiter.take("emails", 1).allowed
    limiter.today = lambda: "2026-11-24"
    assert limiter.used("emails") == 0 and limiter.take("emails", 2).allowed


def test_concurrent_takes_never_exceed_the_limit(tmp_path):
    url = f"sqlite:///{tmp_path / 'a.sqlite'}"
    limiters = [_limiter(url, emails=30) for _ in range(4)]
    granted: list[int] = []

    def work(limiter: ActionLimiter) -> None:
        for _ in range(20):
            if limiter.take("emails", 1).allowed:
                granted.append(1)

    threads = [threading.Thread(target=work, args=(limiter,)) for limiter in limiters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(granted) == 30 and limiters[0].used("emails") == 30
