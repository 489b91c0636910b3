"""CareerNavigator's analysis nodes: coordinator, planner, supervisor, the three analysts and the reporter."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime

from pipelines.career_navigator import offline, offline_plan, prompts
from pipelines.career_navigator.schemas import (CareerAnalysis, FeedbackAdjustments, GoalAnalysis, IndustryResearch,
                                                IntegratedReport, PlanningStrategy, SelfInsight)
from pipelines.career_navigator.offline_text import SAY
from pipelines.career_navigator.state import AgentOutput, AgentStatus, AgentTask, CareerContext, WorkflowStage
from pipelines.career_navigator.tracking import integrity_errors, tracked
from pipelines.core.clock import now_iso
from pipelines.core.jsonable import as_prompt_json
from pipelines.core.text import LANGUAGE_NAMES, detect_language, join_items

ANALYSTS = ("user_profiler", "industry_researcher", "job_analyzer")


def request_text(state: Mapping[str, Any]) -> str:
    """The client's first message (the seed's initial HumanMessage)."""
    for message in state.get("messages") or []:
        if getattr(message, "type", None) == "human":
            return str(message.content)
    return ""


def language(state: Mapping[str, Any]) -> str:
    profile = state.get("user_profile") or {}
    return detect_language(str(profile.get("career_goals") or ""), str(profile.get("current_position") or ""),
                           request_text(state))


def prompt_vars(state: Mapping[str, Any]) -> dict[str, str]:
    return {"language": LANGUAGE_NAMES[language(state)], "profile": as_prompt_json(state.get("user_profile") or {})}


def target_name(state: Mapping[str, Any], ctx: CareerContext) -> str:
    """The role the analysis is about: named by the client, or the best fit the engine suggests."""
    facts = offline.read_profile(state.get("user_profile") or {}, ctx.market, request_text(state))
    return facts.target.name(facts.lang) if facts.target else "—"


def latest_task(state: Mapping[str, Any], agent: str) -> AgentTask | None:
    tasks = [t for t in state.get("agent_tasks") or [] if t["agent_name"] == agent]
    return tasks[-1] if tasks else None


def current_focus(state: Mapping[str, Any]) -> list[str]:
    task = latest_task(state, f"{ANALYSTS[0]}_node")
    return list(((task or {}).get("input_data") or {}).get("feedback_adjustments", {}).get("focus_areas", []))


def task_id(state: Mapping[str, Any], agent: str, iteration: int) -> str:
    """Deterministic, so the same input gives the same tasks."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{state.get('session_id', '')}/{agent}/{iteration}"))


@tracked("coordinator")
def coordinator(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    ctx, profile, request = runtime.context, state.get("user_profile") or {}, request_text(state)
    analysis = ctx.gateway.structured(
        "coordinator.goal_analysis", GoalAnalysis,
        prompts.GOAL_ANALYSIS.format_messages(**prompt_vars(state), request=request),
        offline=lambda: offline.analyse_goal(profile, request, ctx.market))
    clear = analysis.clarity_score > 70
    return {"current_stage": WorkflowStage.GOAL_DECOMPOSITION.value if clear else WorkflowStage.PLANNING.value,
            "next_node": "goal_decomposer" if clear else "planner",
            "cached_data": {**(state.get("cached_data") or {}), "goal_analysis": analysis.model_dump()}}


def route_after_coordinator(state: Mapping[str, Any]) -> str:
    analysis = (state.get("cached_data") or {}).get("goal_analysis") or {}
    return "goal_decomposer" if int(analysis.get("clarity_score", 0)) > 70 else "planner"


@tracked("planner")
def planner(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    ctx, profile = runtime.context, state.get("user_profile") or {}
    goal = (state.get("cached_data") or {}).get("goal_analysis") or {}
    strategy = ctx.gateway.structured(
        "planner.strategy", PlanningStrategy,
        prompts.PLANNING_STRATEGY.format_messages(**prompt_vars(state), goal_analysis=as_prompt_json(goal),
                                                  feedback=as_prompt_json(state.get("user_feedback_history") or [])),
        offline=lambda: offline.plan_strategy(profile, goal, ctx.market))
    return {"current_stage": WorkflowStage.PLANNING.value, "planning_strategy": strategy.strategy,
            "cached_data": {**(state.get("cached_data") or {}), "planning": strategy.model_dump()}}


def feedback_adjustments(state: Mapping[str, Any], ctx: CareerContext, feedback_text: str, task: str) -> FeedbackAdjustments:
    profile = state.get("user_profile") or {}
    target = target_name(state, ctx)
    return ctx.gateway.structured(
        task, FeedbackAdjustments,
        prompts.FEEDBACK_ADJUSTMENTS.format_messages(**prompt_vars(state), feedback=feedback_text, target_role=target),
        offline=lambda: offline.feedback_adjustments(feedback_text, profile, ctx.market))


@tracked("supervisor")
def supervisor(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    iteration = int(state.get("iteration_count") or 0)
    history = [f for f in state.get("user_feedback_history") or [] if f["stage"] == WorkflowStage.USER_FEEDBACK.value]
    adjustments: dict[str, Any] = {}
    if iteration > 0 and history:
        adjustments = feedback_adjustments(state, runtime.context, history[-1]["feedback_text"],
                                           "supervisor.feedback_adjustments").model_dump()
    lang = language(state)
    target = target_name(state, runtime.context)
    focus = adjustments.get("focus_areas") or []
    focus_text = SAY("task.focus", lang, focus=join_items(focus, lang)) if focus else ""
    tasks = [AgentTask(task_id=task_id(state, agent, iteration), agent_name=f"{agent}_node",
                       task_type=SAY(f"task.{agent}", lang), priority=1,
                       description=SAY("task.desc", lang, iteration=iteration + 1,
                                               kind=SAY(f"task.{agent}", lang), role=target, focus=focus_text),
                       input_data={"user_profile": state.get("user_profile") or {}, "feedback_adjustments": adjustments,
                                   "iteration_count": iteration},
                       status=AgentStatus.IDLE.value, created_at=now_iso()) for agent in ANALYSTS]
    return {"current_stage": WorkflowStage.PARALLEL_ANALYSIS.value, "agent_tasks": tasks}


def _analyst(agent: str, result_field: str, data_field: str | None, run) -> Any:
    """One parallel analyst: find its task, run its analysis, write its result and its AgentOutput."""

    @tracked(agent)
    def node(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
        errors = integrity_errors(state, agent, WorkflowStage.PARALLEL_ANALYSIS.value, ["planning_strategy", "agent_tasks"])
        task = latest_task(state, f"{agent}_node") or {}
        data = task.get("input_data") or {}
        focus = list((data.get("feedback_adjustments") or {}).get("focus_areas", []))
        started = now_iso()
        result, market_data = run(state, runtime.context, focus)
        iteration = int(data.get("iteration_count", state.get("iteration_count", 0)))
        payload = {**result.model_dump(), "iteration_info": {
            "iteration_count": iteration, "adjustments_applied": data.get("feedback_adjustments") or {},
            "analysis_timestamp": started}}
        if data_field:
            payload[data_field] = market_data
        output = AgentOutput(task_id=task.get("task_id", ""), agent_name=f"{agent}_node",
                             status=AgentStatus.COMPLETED.value, summary=result.summary, iteration_count=iteration,
                             execution_time_ms=0.0, provider=runtime.context.gateway.provider, created_at=now_iso())
        update = {result_field: payload, "agent_outputs": [output],
                  "system_metrics": {"market_calls": {"ok": 0 if market_data is None else 1, "failed": 0}}}
        if errors:
            update["error_log"] = errors
        return update

    node.__name__ = agent
    return node


def _run_profiler(state, ctx: CareerContext, focus):
    role = target_name(state, ctx)
    result = ctx.gateway.structured(
        "user_profiler.self_insight", SelfInsight,
        prompts.SELF_INSIGHT.format_messages(**prompt_vars(state), target_role=role, focus_areas=", ".join(focus),
                                             requirements=as_prompt_json(_role_data(state, ctx)),
                                             iteration=state.get("iteration_count", 0)),
        offline=lambda: offline.profile_insight(state.get("user_profile") or {}, focus, ctx.market))
    return result, None


def _role_data(state: Mapping[str, Any], ctx: CareerContext) -> dict[str, Any]:
    facts = offline.read_profile(state.get("user_profile") or {}, ctx.market, request_text(state))
    role = facts.target or facts.current
    if role is None:
        return {}
    return {"role": role.name(facts.lang), "summary": role.summary(facts.lang), "demand_index": role.demand_index,
            "salary": role.salary[facts.region],
            "required_skills": offline.skill_names(role.required_skills, ctx.market, facts.lang),
            "specializations": [s.name(facts.lang) for s in role.specializations]}


def _industry_data(state: Mapping[str, Any], ctx: CareerContext) -> dict[str, Any]:
    facts = offline.read_profile(state.get("user_profile") or {}, ctx.market, request_text(state))
    industry = ctx.market.industry(facts.target.industry) if facts.target else None
    if industry is None:
        return {"source": ctx.market.source}
    return {"source": ctx.market.source, "industry": industry.name(facts.lang), "demand_index": industry.demand_index,
            "growth_rate_pct": industry.growth_rate_pct, "outlook": industry.outlook,
            "segments": [{"name": s.name(facts.lang), "demand_index": s.demand_index} for s in industry.segments]}


def _run_researcher(state, ctx: CareerContext, focus):
    market_data = _industry_data(state, ctx)
    role = target_name(state, ctx)
    result = ctx.gateway.structured(
        "industry_researcher.research", IndustryResearch,
        prompts.INDUSTRY_RESEARCH.format_messages(**prompt_vars(state), target_role=role, source=ctx.market.source,
                                                  market_data=as_prompt_json(market_data), focus_areas=", ".join(focus)),
        offline=lambda: offline.research_industry(state.get("user_profile") or {}, focus, ctx.market))
    return result, market_data


def _run_job_analyzer(state, ctx: CareerContext, focus):
    role_data = _role_data(state, ctx)
    result = ctx.gateway.structured(
        "job_analyzer.career_analysis", CareerAnalysis,
        prompts.CAREER_ANALYSIS.format_messages(**prompt_vars(state), source=ctx.market.source,
                                                role_data=as_prompt_json(role_data), focus_areas=", ".join(focus)),
        offline=lambda: offline.analyse_career(state.get("user_profile") or {}, focus, ctx.market))
    return result, {"source": ctx.market.source, **role_data}


user_profiler = _analyst("user_profiler", "self_insight_result", None, _run_profiler)
industry_researcher = _analyst("industry_researcher", "industry_research_result", "market_data", _run_researcher)
job_analyzer = _analyst("job_analyzer", "career_analysis_result", "job_market_data", _run_job_analyzer)


@tracked("reporter")
def reporter(state: dict[str, Any], runtime: Runtime[CareerContext]) -> dict[str, Any]:
    ctx, lang, iteration = runtime.context, language(state), int(state.get("iteration_count") or 0)
    fields = ["self_insight_result", "industry_research_result", "career_analysis_result"]
    errors = integrity_errors(state, "reporter", WorkflowStage.RESULT_INTEGRATION.value, fields)
    insight, industry, career = (state.get(f) or {} for f in fields)
    history = [f for f in state.get("user_feedback_history") or [] if f["stage"] == WorkflowStage.USER_FEEDBACK.value]
    feedback_text = history[-1]["feedback_text"] if history and iteration > 0 else ""
    focus = current_focus(state)
    report = ctx.gateway.structured(
        "reporter.integrated_report", IntegratedReport,
        prompts.INTEGRATED_REPORT.format_messages(
            **prompt_vars(state), self_insight=as_prompt_json(insight), industry=as_prompt_json(industry),
            career=as_prompt_json(career), iteration=iteration, feedback=as_prompt_json(history)),
        offline=lambda: offline_plan.integrate_report(state.get("user_profile") or {}, insight, industry, career,
                                                      iteration, feedback_text, focus, state.get("integrated_report"),
                                                      ctx.market))
    integrated = {**report.model_dump(), "detailed_analysis": {
        "self_insight": insight.get("summary"), "industry_research": industry.get("summary"),
        "career_analysis": career.get("summary")}, "iteration_count": iteration, "focus_areas": focus}
    update = {"current_stage": WorkflowStage.USER_FEEDBACK.value, "integrated_report": integrated,
              "requires_user_input": True, "pending_questions": [prompts.REPORT_QUESTION[lang]]}
    if errors:
        update["error_log"] = errors
    return update
