"""Deep research (seed 004): its PipelineSpec for the runtime, the CLI and the dashboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.core.errors import InvalidInput, validate_input
from pipelines.core.paths import input_path
from pipelines.core.runtime.state_edit import input_field_rules
from pipelines.core.settings import Settings
from pipelines.core.spec import Counter, InterruptSpec, PipelineSpec, RuntimeDeps, lazy
from pipelines.deep_research.offline.intake import locale_of
from pipelines.deep_research.schemas import DstAnswers, PlanReview, RunInput
from pipelines.deep_research.settings import ResearchSettings, research_settings, tavily_key
from pipelines.deep_research.state import DST_FORM, PLAN_REVIEW, ResearchContext

FIELD_ORDER = ("messages", "locale", "user_query", "original_query", "resources", "user_dst",
               "enable_background_investigation", "background_investigation_results", "auto_accepted_plan",
               "plan_iterations", "max_plan_iterations", "current_plan", "replan_result", "current_node",
               "agent_turns", "max_agent_turns", "memory_stack", "delegation_context", "observations",
               "data_collections", "final_report", "citations", "citation_check", "max_step_num")


def admit_input(raw: Mapping[str, Any], thread_id: str, settings: Settings) -> Mapping[str, Any]:
    """Documents named by path are read, scanned and indexed into the `uploads` collection before the run keeps its
    input (a file that cannot be read is refused with its reason); the input then names them by id."""
    from pipelines.deep_research.documents import DocumentError
    from pipelines.deep_research.library import UPLOADS, check_collection_name, open_library

    data = validate_input(RunInput, raw, "Deep research")
    resources = [r.model_dump() for r in data.resources]
    if data.documents:
        library = open_library(settings)
        ids = []
        for text in data.documents:
            path = input_path(text)
            try:
                ids.append(library.add(UPLOADS, path.name, path.read_bytes()).document.doc_id)
            except (FileNotFoundError, IsADirectoryError) as exc:
                raise InvalidInput(f"{path.name}: no such file") from exc
            except DocumentError as exc:
                raise InvalidInput(str(exc)) from exc
        resources.append({"type": "rag", "name": UPLOADS, "title": "Uploaded documents",
                          "documents": list(dict.fromkeys(ids))})
    for name in data.collections:
        try:
            resources.append({"type": "rag", "name": check_collection_name(name), "title": name, "documents": []})
        except DocumentError as exc:
            raise InvalidInput(str(exc)) from exc
    admitted = {k: v for k, v in raw.items() if k not in ("documents", "collections")}
    return {**admitted, "resources": resources}


def make_input(raw: Mapping[str, Any], thread_id: str) -> dict[str, Any]:
    """The run's first state from an admitted input (`admit_input` turned documents into resources)."""
    data = validate_input(RunInput, raw, "Deep research")
    return {"messages": [{"type": "human", "content": data.user_query}], "user_query": data.user_query,
            "locale": data.locale or locale_of(data.user_query),
            "resources": [r.model_dump() for r in data.resources], "auto_accepted_plan": data.auto_accepted_plan,
            "enable_background_investigation": data.enable_background_investigation}


def make_context(deps: RuntimeDeps) -> ResearchContext:
    from pipelines.deep_research.library import open_library
    from pipelines.deep_research.web_search import WebSearchSettings

    own = research_settings(deps.settings)
    web = None if own.web_search == "off" else WebSearchSettings(
        provider=own.web_search, searxng_url=own.searxng_url, tavily_api_key=tavily_key(), max_results=own.top_k)
    return ResearchContext(gateway=deps.gateway, library=open_library(deps.settings), settings=own, web=web)


def run_title(raw: Mapping[str, Any], limit: int = 60) -> str | None:
    text = " ".join(str(raw.get("user_query") or "").split())
    return (text if len(text) <= limit else text[: limit - 1] + "…") or None


SPEC = PipelineSpec(
    id="deep_research",
    build=lazy("pipelines.deep_research.graph", "build_graph"),
    make_context=make_context,
    make_input=make_input,
    report=lazy("pipelines.deep_research.exports", "research_markdown"),
    counters=(
        Counter("plan_iterations", "Planner passes", limit_field="max_plan_iterations", limit=3,
                loop_edge=("human_feedback", "planner")),
        Counter("agent_turns", "Central-agent turns", limit_field="max_agent_turns", limit=24,
                loop_edge=("central_agent", "central_agent")),
    ),
    interrupts=(
        InterruptSpec(DST_FORM, "Your research preferences", DstAnswers,
                      "Answer what matters (sources, language, depth, format) or tick skip: the answers are summed "
                      "up in user_dst and shape the plan and the report."),
        InterruptSpec(PLAN_REVIEW, "Review the research plan", PlanReview,
                      "Accept the plan, or edit it: the new list of steps, or an instruction such as 'remove step 2' "
                      "or 'add a step about costs'. DeerFlow's '[ACCEPTED]' and '[EDIT_PLAN] …' work too."),
    ),
    field_order=FIELD_ORDER,
    done_message="The research is complete: the Report tab has the cited report and its downloads.",
    pdf=lazy("pipelines.deep_research.pdf_report", "research_pdf"),
    run_title=run_title,
    field_rules=input_field_rules(RunInput, "user_query"),
    settings_model=ResearchSettings,
    admit_input=admit_input,
    personal_fields=("user_query", "messages"),
    cli=lazy("pipelines.deep_research.cli", "add_parser"),
)
