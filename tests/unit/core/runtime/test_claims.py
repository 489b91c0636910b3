"""One writer per thread: two sessions on one run never run the same step twice or split it into branches."""

import threading
import time

import pytest
from sqlalchemy import update

from pipelines.core.errors import RunBusy, RunMovedOn
from pipelines.core.runtime.background import BackgroundRuns
from pipelines.core.runtime.claims import claim_thread
from pipelines.core.storage.run_tables import threads
from tests.support.toy_pipeline import ToyContext, make_toy_spec


def _wait_for(condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)


@pytest.fixture
def held_toy(studio, settings):
    """A run of the toy workflow and a second session on it (another tab), the model held by the test."""
    context = ToyContext(deps=None)
    spec = make_toy_spec(context)
    first = studio.new_session(spec, {"topic": "kites"}, settings)
    second = studio.open_session(spec, first.thread_id, settings)
    context.hold()
    return first, second, context


def _checkpoint_parents(session) -> list[str | None]:
    return [info.parent_id for info in session.history()]


def test_a_step_while_another_is_under_way_runs_nothing_and_says_so(held_toy):
    first, second, context = held_toy
    outcome: dict = {}
    worker = threading.Thread(target=lambda: outcome.update(first=first.step()))
    worker.start()
    context.wait_entered()  # the first tab's step is inside its node
    with pytest.raises(RunBusy, match="another step of this run is under way"):
        second.step()
    context.let_through()
    worker.join(30)
    assert outcome["first"].record.nodes == ["draft"]
    assert context.runs == ["draft"]  # the second click ran nothing
    parents = _checkpoint_parents(second)
    assert len(parents) == len(set(parents))  # no two checkpoints share a parent: the thread did not split


def test_a_step_from_a_position_the_run_has_left_runs_nothing(held_toy):
    first, second, context = held_toy
    context.gate = None  # nothing held: the first tab's step ends before the second tab clicks
    first.step()
    with pytest.raises(RunMovedOn, match="moved on"):
        second.step()  # it still shows the run before that step
    assert context.runs == ["draft"]
    assert len(first.records()) == 2
    fresh = first.studio.open_session(first.spec, first.thread_id, first.settings)
    assert fresh.step().record.nodes == ["fast", "slow"]  # a tab that shows the run as it is steps on


def test_answers_rewinds_and_forks_also_move_the_run(held_toy):
    first, second, context = held_toy
    context.gate = None
    first.run("end")
    assert first.status() == "waiting"
    stale = first.studio.open_session(first.spec, first.thread_id, first.settings)
    first.resume({"decision": "approve"})
    with pytest.raises(RunMovedOn):
        stale.resume({"decision": "revise"})
    target = first.history()[-2].checkpoint_id
    again = first.studio.open_session(first.spec, first.thread_id, first.settings)
    first.rewind(target)
    with pytest.raises(RunMovedOn):
        again.fork(target, {"topic": "boats"}, as_node=None)
    assert first.values()["decision"] != "revise"


def test_a_background_run_holds_the_run_until_it_ends(held_toy, settings):
    first, second, context = held_toy
    runs = BackgroundRuns()
    claim = first.claim("a background run")
    run = runs.start(first.thread_id, "end", lambda: first.studio.open_session(first.spec, first.thread_id, settings),
                     claim=claim)
    context.wait_entered()
    with pytest.raises(RunBusy, match="background run"):
        second.run("interrupt")
    context.let_through(10)
    assert run.wait(30) and run.error is None and run.final_status == "waiting"
    assert claim.released
    later = first.studio.open_session(first.spec, first.thread_id, settings)
    later.resume({"decision": "approve"})  # the run is free again once the worker gave it back
    assert later.status() in ("ready", "completed")


def test_a_claim_is_kept_alive_while_its_holder_works(held_toy, settings):
    first, second, context = held_toy
    first.settings = settings.with_overrides(run_lease_s=0.3)
    worker = threading.Thread(target=first.step)
    worker.start()
    context.wait_entered()
    runs = first.studio.runs
    seen = {runs.get_thread(first.thread_id).claim_expires_at}
    _wait_for(lambda: seen.add(runs.get_thread(first.thread_id).claim_expires_at) or len(seen) >= 3)  # renewed twice
    with pytest.raises(RunBusy):
        second.step()  # many leases later the step is still its holder's
    context.let_through()
    worker.join(30)
    assert runs.get_thread(first.thread_id).claim_token is None  # given back


def test_the_claim_of_a_process_that_died_lapses_with_its_lease(held_toy):
    first, second, context = held_toy
    context.gate = None
    runs = first.studio.runs
    # A process that claimed the run and was killed: nobody renews or releases its claim.
    grant = runs.claim(first.thread_id, first.version, "a step, process 4242 on elsewhere", lease_s=60)
    with pytest.raises(RunBusy, match="process 4242 on elsewhere"):
        second.step()
    with runs.engine.begin() as conn:  # its lease runs out (as a minute passing would)
        conn.execute(update(threads).where(threads.c.claim_token == grant.token)
                     .values(claim_expires_at=time.time() - 1))
    assert second.step().record.nodes == ["draft"]
    assert runs.get_thread(first.thread_id).claim_token is None


def test_a_claim_taken_over_reads_the_run_afresh(held_toy):
    first, second, context = held_toy
    context.gate = None
    second.snapshot()  # read before the run moves
    first.step()  # a holder that moved the run and died before it could count the move
    runs = first.studio.runs
    with runs.engine.begin() as conn:
        conn.execute(update(threads).where(threads.c.thread_id == first.thread_id).values(
            version=second.version, claim_token="dead", claim_holder="dead", claim_expires_at=time.time() - 1))
    assert second.step().record.nodes == ["fast", "slow"]  # from where the run stands, not from its old read
    parents = _checkpoint_parents(second)
    assert len(parents) == len(set(parents))


def race_for_claim(runs, thread_id: str, version: int, racers: int) -> list[str]:
    """`racers` threads claim one run from one version at the same moment: what each got."""
    results: list[str] = []
    barrier = threading.Barrier(racers)

    def race():
        barrier.wait()
        try:
            claim_thread(runs, thread_id, version, "a race")
            results.append("won")
        except RunBusy:
            results.append("busy")

    threads_ = [threading.Thread(target=race) for _ in range(racers)]
    for racer in threads_:
        racer.start()
    for racer in threads_:
        racer.join(60)
    return sorted(results)


def test_two_claims_from_one_version_only_one_wins(held_toy):
    first, _, _ = held_toy
    assert race_for_claim(first.studio.runs, first.thread_id, first.version, 8) == ["busy"] * 7 + ["won"]


def test_a_run_being_moved_cannot_be_deleted_under_its_holder(held_toy):
    first, second, context = held_toy
    worker = threading.Thread(target=first.step)
    worker.start()
    context.wait_entered()
    with pytest.raises(RunBusy, match="cannot be deleted while it is being moved"):
        first.studio.delete_run(first.thread_id)
    context.let_through()
    worker.join(30)
    assert first.studio.delete_run(first.thread_id).thread_id == first.thread_id
