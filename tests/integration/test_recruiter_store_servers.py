"""The recruiting tables on MariaDB and PostgreSQL: long resumes and Chinese text round-trip, re-importing updates,
status history, the session's PII vault, paused workflows, the guardrail log, and action limits that hold when
two processes race for the last emails of the day."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

import pytest

from pipelines.core.guardrails.action_limits import ActionLimiter
from pipelines.core.guardrails.findings import Finding
from pipelines.core.guardrails.log import GuardrailLog
from pipelines.core.guardrails.pii import PiiVault
from pipelines.core.guardrails.tables import metadata as guardrail_metadata
from pipelines.core.storage.engine import make_engine
from pipelines.recruiter.records import Candidate, Job
from pipelines.recruiter.store import RecruitingStore
from pipelines.recruiter.tables import metadata
from tests.unit.recruiter.test_store import LockstepStore

pytestmark = pytest.mark.services

DAY = "2026-11-24"


@pytest.fixture(params=["mariadb", "postgres"])
def server_url(request) -> str:
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
def store(server_url):
    engine = make_engine(server_url)
    metadata.drop_all(engine)  # the shared `test` database: only these tables are dropped
    guardrail_metadata.drop_all(engine)
    engine.dispose()
    store = RecruitingStore(server_url)
    yield store
    store.dispose()


def test_jobs_and_candidates_round_trip_with_long_chinese_resumes_and_update_on_reimport(store):
    resume = "工作经历\n2018-2024 数据工程师，负责 Spark 与 Flink 实时数仓。\n" + "项目经验：离线与实时数据管道。" * 4000
    assert store.upsert_jobs([Job("J1", "数据工程师", "负责数据管道", "上海", ("Spark", "Flink"), 3)]) == (1, 0)
    assert store.upsert_candidates([Candidate("C1", "王磊", resume, "wang@example.cn", None, ("Spark",), 6, "上海")]) == (1, 0)
    assert store.candidate("C1").resume_text == resume and len(resume) > 60_000
    assert store.upsert_candidates([Candidate("C1", "王磊", "短简历", None, None, (), 7, "北京")]) == (0, 1)
    again = store.candidate("C1")
    assert (again.resume_text, again.location, again.years_experience) == ("短简历", "北京", 7)
    assert store.job("J1").skills == ("Spark", "Flink") and store.counts()["candidates"] == 1


def test_a_status_change_keeps_its_history_and_sessions_keep_messages_and_vault(store):
    store.upsert_jobs([Job("J1", "Nurse", "Ward care", "Remote")])
    store.upsert_candidates([Candidate("C1", "Ana Costa", "Registered nurse")])
    store.add_application("C1", "J1", "new")
    store.set_status("C1", "J1", "screening", actor="recruiter", note="phone screen booked")
    application = store.applications(candidate_id="C1")[0]
    assert application["status"] == "screening" and application["candidate_name"] == "Ana Costa"
    assert [h["to_status"] for h in store.history(application["id"])][-1] == "screening"
    store.ensure_session("s1", role="recruiter", user_id="u1")
    store.add_message("s1", "user", "<b>hi</b> 你好")
    store.add_message("s1", "assistant", "Hello")
    assert [m["content"] for m in store.recent_messages("s1")] == ["<b>hi</b> 你好", "Hello"]
    assert store.mask_pii("s1", "write to ana@example.com") == ["write to [EMAIL_1]"]
    assert store.vault_entries("s1") == {"[EMAIL_1]": "ana@example.com"}


def test_a_paused_workflow_is_found_by_its_session(store):
    workflow_id = store.start_workflow("s1", user_id="u1", workflow_type="status_change", graph_name="status_change",
                                       thread_id="thread-1", status="paused")
    assert [w["langgraph_thread_id"] for w in store.paused_workflows("s1")] == ["thread-1"]
    store.set_workflow_status(workflow_id, "completed", "moved C1 to interview")
    assert store.paused_workflows("s1") == [] and store.workflow(workflow_id)["status"] == "completed"


def test_the_guardrail_log_keeps_findings_without_their_text(store):
    log = GuardrailLog(store.engine)
    log.write([Finding("input_injection", "blocked", "An instruction to ignore the assistant's rules was found.")],
              workflow_id="t1", session_id="s1", user_id="u1", context={"node": "input_guard"})
    rows = log.entries(session_id="s1")
    assert rows[0]["check_name"] == "input_injection" and rows[0]["severity"] == "blocked"
    assert log.counts_by_check() == {("input_injection", "blocked"): 1}


def _take_emails(url: str, count: int, results) -> None:
    limiter = ActionLimiter(make_engine(url), daily={"emails": 50}, batch_caps={"emails": 20}, today=lambda: DAY)
    results.put(sum(1 for _ in range(count) if limiter.take("emails", 1).allowed))


def test_two_processes_never_send_more_than_the_daily_limit(store, server_url):
    ActionLimiter(store.engine, daily={"emails": 50}, batch_caps={"emails": 20}, today=lambda: DAY).take("emails", 20)
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [context.Process(target=_take_emails, args=(server_url, 30, results)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    granted = [results.get(timeout=5) for _ in workers]
    assert sum(granted) == 30  # 50 a day, 20 already used: the two processes together got exactly the 30 left
    limiter = ActionLimiter(store.engine, daily={"emails": 50}, batch_caps={"emails": 20}, today=lambda: DAY)
    assert limiter.used("emails") == 50 and not limiter.check("emails", 1).allowed


def test_a_paused_plan_resumes_from_the_chat_after_a_restart_on_server_checkpoints(server_url, postgres_url, tmp_path):
    """The plan's run waits on PostgreSQL checkpoints with its recruiting data on the server: a new studio (a
    restarted app) finds it through the workflows table and a chat "yes" approves it."""
    from pipelines.core.registry import get_spec
    from pipelines.core.runtime.studio import Studio
    from pipelines.core.settings import load_settings
    from pipelines.recruiter.services import forget_stores

    engine = make_engine(server_url)
    metadata.drop_all(engine)
    guardrail_metadata.drop_all(engine)
    engine.dispose()
    forget_stores()
    settings = load_settings(data_dir=str(tmp_path), checkpoint_url=postgres_url, db_url=server_url)
    recruiter = get_spec("recruiter")
    studio = Studio.from_settings(settings)
    first = studio.new_session(recruiter, {"message": "Clean up the pipeline", "session_id": "srv"}, settings)
    first.run("end")
    assert first.pending_interrupts()[0].kind == "plan_approval"
    studio.close()
    forget_stores()
    restarted = Studio.from_settings(settings)
    try:
        answer = restarted.new_session(recruiter, {"message": "yes", "session_id": "srv"}, settings)
        answer.run("end")
        assert answer.values()["intent"] == "resume"
        waiting = restarted.open_session(recruiter, first.thread_id, settings).pending_interrupts()
        assert not waiting or waiting[0].kind == "pipeline_cleanup_approval"
    finally:
        restarted.close()
        forget_stores()


def test_two_bookers_never_overlap_one_interviewer_on_the_server(store):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from pipelines.recruiter.calendar_events import InterviewCalendar, SlotTaken

    store.upsert_jobs([Job("J001", "Backend", "Java")])
    store.upsert_candidates([Candidate("C1", "A", "x"), Candidate("C2", "B", "y")])
    start = datetime(2026, 12, 1, 10, tzinfo=ZoneInfo("Asia/Shanghai"))

    def book(candidate: str) -> bool:
        try:
            InterviewCalendar(store.engine).book(candidate, "J001", "I01", start)
            return True
        except SlotTaken:
            return False

    with ThreadPoolExecutor(2) as pool:
        won = list(pool.map(book, ["C1", "C2"]))
    assert sorted(won) == [False, True]


def test_maskers_reading_the_same_vault_never_share_a_placeholder_on_the_server(store, server_url):
    """The Communication agent's fan-out on a shared database: four maskers read the vault before any writes."""
    racing = LockstepStore(server_url, parties=4)
    addresses = [f"person{i}@example.com" for i in range(4)]
    with ThreadPoolExecutor(4) as pool:
        masked = dict(zip(addresses, pool.map(lambda a: racing.mask_pii("s1", a)[0], addresses), strict=True))
    racing.first_reads = None
    vault = PiiVault.from_entries(store.vault_entries("s1"))
    assert len(set(masked.values())) == 4 and all(vault.restore(p) == a for a, p in masked.items())
    racing.dispose()
