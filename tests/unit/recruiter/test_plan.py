"""The planner's library: the Plan JSON, the plan decision, the diff, the guardrails on a plan, the offline plans
of seed §5.3 in English and Chinese, regeneration from an instruction, and the plans table."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pipelines.recruiter.plan import infer_workflow, offline_plan, validate_plan
from pipelines.recruiter.plan_edit import apply_decision, apply_instruction, diff_lines, plan_diff
from pipelines.recruiter.schemas import PLAN_WORKFLOW_TYPES, EstimatedActions, Plan, PlanDecision, PlanStep
from pipelines.recruiter.plan_store import PlanStore
from pipelines.recruiter.store import RecruitingStore

CHAIN_EN = "find candidates for this job, email them, then schedule interviews"
CHAIN_ZH = "帮我找到适合这个职位的候选人，发邮件，然后安排面试"
MESSAGES = {"en": CHAIN_EN, "zh": CHAIN_ZH}

# seed §5.3: (agent, mode) in order
EXPECTED = {
    "job_launch": [("jd", "sequential"), ("matching", "sequential"), ("communication", "parallel"),
                   ("supervisor", "interrupt"), ("communication", "sequential")],
    "bulk_outreach": [("matching", "sequential"), ("communication", "parallel"), ("supervisor", "sequential"),
                      ("supervisor", "interrupt"), ("communication", "sequential")],
    "candidate_review": [("resume", "sequential"), ("matching", "sequential"), ("supervisor", "interrupt"),
                         ("pipeline", "sequential")],
    "interview_scheduling": [("matching", "sequential"), ("scheduling", "sequential"), ("supervisor", "interrupt"),
                             ("communication", "sequential")],
    "pipeline_cleanup": [("pipeline", "sequential"), ("pipeline", "sequential"), ("supervisor", "interrupt"),
                         ("pipeline", "sequential")],
    "chain": [("jd", "sequential"), ("matching", "sequential"), ("supervisor", "interrupt"),
              ("communication", "parallel"), ("supervisor", "interrupt"), ("communication", "sequential"),
              ("scheduling", "sequential"), ("supervisor", "interrupt")],
}


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _plan(emails: int = 60, api_calls: int = 62, goal: str = "email the top candidates") -> Plan:
    return Plan(goal=goal, workflow_type="bulk_outreach", steps=[
        PlanStep(step=1, agent="matching", action=f"Search and rank the top {emails} candidates", mode="sequential"),
        PlanStep(step=2, agent="communication", action=f"Draft emails for the top {emails} candidates", mode="parallel"),
        PlanStep(step=3, agent="supervisor", action="Approve sending the emails", mode="interrupt"),
        PlanStep(step=4, agent="communication", action="Send the approved emails", mode="sequential"),
    ], estimated_actions=EstimatedActions(emails=emails, api_calls=api_calls)).renumbered()


# --- the models -----------------------------------------------------------------------------------------------
def test_plan_workflow_types_leave_out_status_change_and_add_the_chain():
    assert "status_change" not in PLAN_WORKFLOW_TYPES and "chain" in PLAN_WORKFLOW_TYPES
    with pytest.raises(ValidationError):
        Plan(goal="x", workflow_type="status_change", steps=[])


def test_plan_json_of_the_seed_parses_and_unknown_agents_are_refused():
    seed = {"goal": "为 Senior Engineer 职位找到候选人并发送外联邮件", "workflow_type": "job_launch",
            "agents_required": ["matching", "communication"],
            "steps": [{"step": 1, "agent": "matching", "action": "搜索匹配候选人", "mode": "sequential"},
                      {"step": 2, "agent": "matching", "action": "排名与筛选", "mode": "sequential"},
                      {"step": 3, "agent": "communication", "action": "生成个性化邮件", "mode": "parallel"},
                      {"step": 4, "agent": "supervisor", "action": "审批发送", "mode": "interrupt"}],
            "estimated_actions": {"emails": 10, "api_calls": 15}, "requires_approval": True}
    plan = Plan.model_validate(seed)
    assert plan.model_dump(mode="json") == seed
    bad = {**seed, "steps": [{"step": 1, "agent": "hacker", "action": "x", "mode": "sequential"}]}
    with pytest.raises(ValidationError):
        Plan.model_validate(bad)
    with pytest.raises(ValidationError):
        PlanStep(step=0, agent="jd", action="x", mode="sequential")
    with pytest.raises(ValidationError):
        PlanStep(step=1, agent="jd", action="x" * 301, mode="sequential")


def test_renumbered_numbers_in_order_and_recomputes_the_agents():
    plan = _plan()
    shuffled = plan.model_copy(update={"steps": [plan.steps[3], plan.steps[0]], "agents_required": []}).renumbered()
    assert [s.step for s in shuffled.steps] == [1, 2]
    assert shuffled.agents_required == ["communication", "matching"]


@pytest.mark.parametrize("value", [{"action": "approve"}, {"action": "cancel"}, "approve",
                                   {"action": "modify", "instruction": "only 5 candidates"},
                                   {"action": "modify", "steps": [{"step": 1, "agent": "jd", "action": "Parse the JD",
                                                                   "mode": "sequential"}]}])
def test_plan_decision_accepts_the_headless_forms(value):
    decision = PlanDecision.parse(value)
    assert decision.action in ("approve", "modify", "cancel")


@pytest.mark.parametrize("value", [{"action": "modify"}, {"action": "modify", "steps": []},
                                   {"action": "modify", "instruction": "  "}, {"action": "maybe"},
                                   {"action": "modify", "steps": [{"step": 1, "agent": "robot", "action": "x",
                                                                   "mode": "sequential"}]},
                                   {"action": "approve", "extra": 1}])
def test_plan_decision_refuses_bad_ones(value):
    with pytest.raises(ValidationError):
        PlanDecision.parse(value)


def test_apply_decision_with_edited_steps_renumbers_them():
    plan = offline_plan("bulk outreach", "bulk_outreach", "en", job_id=None, candidate_ids=[])
    steps = [s.model_dump() for s in reversed(plan.steps[:2])]
    new, notes = apply_decision(plan, PlanDecision.parse({"action": "modify", "steps": steps}))
    assert [(s.step, s.agent) for s in new.steps] == [(1, "communication"), (2, "matching")]
    assert notes == []


# --- offline plans -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", list(EXPECTED))
def test_offline_plan_follows_the_seed_orchestration(kind, lang):
    plan = offline_plan(MESSAGES[lang], kind, lang, job_id="J001", candidate_ids=["C001", "C002"], top=10)
    assert plan.workflow_type == kind
    assert [(s.agent, s.mode) for s in plan.steps] == EXPECTED[kind]
    assert [s.step for s in plan.steps] == list(range(1, len(plan.steps) + 1))
    assert plan.requires_approval
    assert all(_has_cjk(s.action) == (lang == "zh") for s in plan.steps)
    assert "supervisor" not in plan.agents_required
    assert plan.estimated_actions.api_calls > 0
    emails = any(s.agent == "communication" for s in plan.steps)
    if kind in ("job_launch", "bulk_outreach", "chain"):
        assert plan.estimated_actions.emails == 10
    else:
        assert (plan.estimated_actions.emails > 0) == emails


@pytest.mark.parametrize("message", [CHAIN_EN, CHAIN_ZH])
def test_the_chain_is_inferred_and_has_its_three_interrupts(message):
    plan = offline_plan(message, None, "zh" if _has_cjk(message) else "en", job_id="J001", candidate_ids=[])
    assert plan.workflow_type == "chain"
    interrupts = [s.step for s in plan.interrupts()]
    assert interrupts == [3, 5, 8]  # after matching (shortlist), after drafting (emails), after scheduling (time)
    assert plan.agents_required == ["jd", "matching", "communication", "scheduling"]


@pytest.mark.parametrize("message, kind", [
    ("Schedule interviews with Priya and Tom", "interview_scheduling"),
    ("安排面试：王磊", "interview_scheduling"),
    ("clean up the pipeline for J001", "pipeline_cleanup"),
    ("清理一下招聘管道", "pipeline_cleanup"),
    ("review candidates for the Java job", "candidate_review"),
    ("审查这几位候选人的简历", "candidate_review"),
    ("bulk email the top candidates about the role", "bulk_outreach"),
    ("批量发送邮件给前10名候选人", "bulk_outreach"),
    ("launch a new job and reach out to candidates", "job_launch"),
    ("发布新职位并联系候选人", "job_launch"),
])
def test_workflow_inferred_from_the_words(message, kind):
    assert infer_workflow(message) == kind


def test_estimated_emails_are_top_capped():
    assert offline_plan("bulk outreach", "bulk_outreach", "en", job_id=None, candidate_ids=[], top=60)\
        .estimated_actions.emails == 60
    assert offline_plan("bulk outreach", "bulk_outreach", "en", job_id=None, candidate_ids=[], top=60, cap=20)\
        .estimated_actions.emails == 20


# --- diff ----------------------------------------------------------------------------------------------------
def test_diff_shows_added_removed_moved_and_changed():
    old = offline_plan(CHAIN_EN, "job_launch", "en", job_id=None, candidate_ids=[])
    steps = list(old.steps)
    steps.remove(steps[0])  # removed: the jd step
    steps[0], steps[1] = steps[1], steps[0]  # moved: drafting before matching
    steps[2] = steps[2].model_copy(update={"action": "Approve every email one by one"})  # changed
    steps.append(PlanStep(step=9, agent="scheduling", action="Propose interview slots", mode="sequential"))  # added
    new = old.with_steps(steps)
    kinds = {d.kind for d in plan_diff(old, new)}
    assert kinds == {"added", "removed", "moved", "changed"}
    lines = diff_lines(old, new)
    assert "+ 5. Scheduling agent: Propose interview slots" in lines
    assert any(line.startswith("- 1. Job description agent: Parse the job description") for line in lines)
    assert any(line.startswith("~ 3. Supervisor: Approve sending the emails → Approve every email") for line in lines)
    assert any(line.startswith("↕") for line in lines)


def test_diff_of_a_removal_is_not_a_move_and_same_plan_has_no_diff():
    old = offline_plan(CHAIN_EN, "chain", "en", job_id=None, candidate_ids=[])
    assert plan_diff(old, old) == []
    new = old.with_steps(old.steps[1:])
    assert [d.kind for d in plan_diff(old, new)] == ["removed"]


def test_diff_of_a_mode_change():
    old = _plan()
    steps = list(old.steps)
    steps[1] = steps[1].model_copy(update={"mode": "sequential"})
    diff = plan_diff(old, old.with_steps(steps))
    assert [(d.kind, d.step) for d in diff] == [("changed", 2)]
    assert "in parallel → after the previous step" in diff[0].text


# --- validation ----------------------------------------------------------------------------------------------
def test_validate_cuts_sixty_emails_to_the_batch_cap():
    result = validate_plan(_plan(60), role="recruiter", emails_left_today=50, batch_cap=20, model_call_budget=100)
    assert result.ok
    assert result.plan.estimated_actions.emails == 20
    assert "top 20" in result.plan.steps[1].action
    assert any("over the cap of 20" in r for r in result.reasons)
    assert result.plan.estimated_actions.api_calls == 22  # 40 fewer drafts


def test_validate_cuts_to_what_is_left_today():
    result = validate_plan(_plan(60), role="recruiter", emails_left_today=7, batch_cap=20, model_call_budget=100)
    assert result.ok and result.plan.estimated_actions.emails == 7
    assert any("Only 7 of the daily 50 emails are left" in r for r in result.reasons)
    assert all(f.severity == "warning" for f in result.findings)


def test_validate_refuses_the_email_steps_when_none_is_left():
    result = validate_plan(_plan(10, 12), role="recruiter", emails_left_today=0, batch_cap=20, model_call_budget=50)
    assert not result.ok
    assert "The daily limit of 50 emails is reached: 50 used today, 0 left." in result.reasons
    assert [s.agent for s in result.plan.steps] == ["matching"]
    assert result.plan.estimated_actions.emails == 0
    assert any(f.blocked and f.check == "action_rate_limit" for f in result.findings)


def test_validate_reasons_in_chinese_for_a_chinese_goal():
    plan = offline_plan(CHAIN_ZH, "bulk_outreach", "zh", job_id=None, candidate_ids=[])
    result = validate_plan(plan, role="recruiter", emails_left_today=0, batch_cap=20, model_call_budget=50)
    assert not result.ok
    assert "The daily limit of 50 emails is reached" in result.reasons[0] and "每日上限 50 封" in result.reasons[0]


def test_validate_refuses_a_job_seekers_outreach_plan():
    plan = offline_plan("bulk outreach", "bulk_outreach", "en", job_id=None, candidate_ids=[])
    result = validate_plan(plan, role="job_seeker", emails_left_today=50, batch_cap=20, model_call_budget=50)
    assert not result.ok
    assert any(f.check == "action_role" and f.blocked for f in result.findings)
    assert "recruiters only" in result.reasons[0]
    seeker = Plan(goal="find jobs for me", workflow_type="chain", steps=[
        PlanStep(step=1, agent="resume", action="Parse my resume", mode="sequential"),
        PlanStep(step=2, agent="matching", action="Find matching jobs", mode="sequential")])
    assert validate_plan(seeker, role="job_seeker", emails_left_today=50, batch_cap=20, model_call_budget=50).ok


def test_validate_cuts_api_calls_to_the_budget_and_refuses_an_empty_plan():
    result = validate_plan(_plan(10, 80), role="recruiter", emails_left_today=50, batch_cap=20, model_call_budget=50)
    assert result.ok and result.plan.estimated_actions.api_calls == 50
    assert any("budget of 50" in r for r in result.reasons)
    empty = validate_plan(Plan(goal="x", workflow_type="chain"), role="recruiter", emails_left_today=50,
                          batch_cap=20, model_call_budget=50)
    assert not empty.ok and empty.reasons == ["The plan has no steps."]


def test_validate_leaves_a_plan_within_the_limits_alone():
    plan = offline_plan(CHAIN_EN, "chain", "en", job_id="J001", candidate_ids=[])
    result = validate_plan(plan, role="recruiter", emails_left_today=50, batch_cap=20, model_call_budget=50)
    assert result.ok and result.reasons == [] and result.plan == plan


# --- instructions --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, instruction, emails", [("en", "only 5 candidates", 5), ("zh", "只要3个", 3),
                                                      ("zh", "只要三个候选人", 3), ("en", "limit it to 4", 4)])
def test_instruction_sets_the_number_of_candidates(lang, instruction, emails):
    plan = offline_plan(MESSAGES[lang], "job_launch", lang, job_id=None, candidate_ids=[])
    new, notes = apply_instruction(plan, instruction, lang)
    assert new.estimated_actions.emails == emails
    assert any(str(emails) in s.action for s in new.steps)
    assert new.estimated_actions.api_calls < plan.estimated_actions.api_calls
    assert notes and _has_cjk(notes[0]) == (lang == "zh")


@pytest.mark.parametrize("lang, instruction", [("en", "don't send emails"), ("en", "skip the emails"),
                                               ("zh", "不要发邮件")])
def test_instruction_removes_the_emailing(lang, instruction):
    plan = offline_plan(MESSAGES[lang], "chain", lang, job_id=None, candidate_ids=[])
    new, notes = apply_instruction(plan, instruction, lang)
    assert "communication" not in new.agents_required
    assert new.estimated_actions.emails == 0
    assert [s.agent for s in new.steps] == ["jd", "matching", "supervisor", "scheduling", "supervisor"]
    assert all(d.kind == "removed" for d in plan_diff(plan, new))


@pytest.mark.parametrize("lang, instruction", [("en", "also schedule interviews"), ("zh", "再安排面试")])
def test_instruction_adds_interview_scheduling(lang, instruction):
    plan = offline_plan(MESSAGES[lang], "job_launch", lang, job_id=None, candidate_ids=[])
    new, notes = apply_instruction(plan, instruction, lang)
    assert [(s.agent, s.mode) for s in new.steps[-2:]] == [("scheduling", "sequential"), ("supervisor", "interrupt")]
    assert new.workflow_type == "chain"
    assert all(_has_cjk(s.action) == (lang == "zh") for s in new.steps)
    again, notes = apply_instruction(new, instruction, lang)
    assert again.steps == new.steps and notes


@pytest.mark.parametrize("lang, instruction", [("en", "remove step 2"), ("zh", "删除第2步")])
def test_instruction_removes_a_step_by_number(lang, instruction):
    plan = offline_plan(MESSAGES[lang], "job_launch", lang, job_id=None, candidate_ids=[])
    new, notes = apply_instruction(plan, instruction, lang)
    assert [s.agent for s in new.steps] == ["jd", "communication", "supervisor", "communication"]
    assert [s.step for s in new.steps] == [1, 2, 3, 4]
    assert [(d.kind, d.step) for d in plan_diff(plan, new)] == [("removed", 2)]


def test_instruction_combined_and_unknown():
    plan = offline_plan(CHAIN_EN, "job_launch", "en", job_id=None, candidate_ids=[])
    new, notes = apply_instruction(plan, "only 5 candidates and also schedule interviews", "en")
    assert new.estimated_actions.emails == 5 and new.steps[-2].agent == "scheduling" and len(notes) == 2
    same, notes = apply_instruction(plan, "make it sparkle", "en")
    assert same == plan and "unchanged" in notes[0]
    same, notes = apply_instruction(plan, "变得更好", "zh")
    assert same == plan and "不变" in notes[0]
    same, notes = apply_instruction(plan, "remove step 9", "en")
    assert same.steps == plan.steps and "no step 9" in notes[0]


# --- the plans table -------------------------------------------------------------------------------------------
def test_plan_store_round_trip(tmp_path):
    engine = RecruitingStore(f"sqlite:///{tmp_path}/r.db").engine
    store = PlanStore(engine)
    plan = offline_plan(CHAIN_ZH, None, "zh", job_id="J001", candidate_ids=[])
    plan_id = store.save(plan, "s1", "alice")
    row = store.get(plan_id)
    assert row["status"] == "pending" and row["goal"] == CHAIN_ZH and row["workflow_type"] == "chain"
    assert row["modifications_json"] == [] and Plan.model_validate(row["plan_json"]) == plan
    assert store.plan(plan_id) == plan

    new, _ = apply_instruction(plan, "只要3个", "zh")
    lines = diff_lines(plan, new)
    assert store.add_modification(plan_id, new, lines, by="alice", instruction="只要3个") == 1
    newer, _ = apply_instruction(new, "删除第1步", "zh")
    assert store.add_modification(plan_id, newer, diff_lines(new, newer), by="alice") == 2
    row = store.get(plan_id)
    assert store.plan(plan_id) == newer
    history = row["modifications_json"]
    assert [m["instruction"] for m in history] == ["只要3个", None]
    assert history[0]["diff"] == lines and history[0]["by"] == "alice"
    assert Plan.model_validate(history[0]["plan"]) == new

    for status in ("approved", "completed", "cancelled", "rejected"):
        store.set_status(plan_id, status)
        assert store.get(plan_id)["status"] == status
    with pytest.raises(ValueError):
        store.set_status(plan_id, "done")
    with pytest.raises(KeyError):
        store.set_status("nope", "approved")
    with pytest.raises(KeyError):
        store.add_modification("nope", new, [], by="x")

    other = store.save(offline_plan("clean up the pipeline", None, "en", job_id=None, candidate_ids=[]), "s2", "bob",
                       workflow_id="w1")
    assert [r["id"] for r in store.for_session("s1")] == [plan_id]
    assert store.get(other)["workflow_id"] == "w1"
    assert {r["id"] for r in store.recent(10)} == {plan_id, other}
    assert len(store.recent(1)) == 1
    assert store.get("missing") is None
