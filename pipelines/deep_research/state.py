"""Deep research's states (seed 004): the workflow's State(MessagesState), the agents' subgraph states, the Context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from langgraph.graph import MessagesState
from langgraph.managed import RemainingSteps

if TYPE_CHECKING:
    from pipelines.core.models.gateway import ModelGateway
    from pipelines.deep_research.library import ResearchLibrary
    from pipelines.deep_research.settings import ResearchSettings
    from pipelines.deep_research.web_search import WebResult, WebSearchSettings

DST_FORM = "dst_form"          # the perception stage's questions about the user's constraints
PLAN_REVIEW = "plan_review"    # human_feedback: accept or edit the plan
DEFAULT_LOCALE = "zh-CN"       # the seed's default
MEMORY_LIMIT = 50              # entries the central agent's memory stack keeps


class Resource(TypedDict, total=False):
    """A collection the session may search (the seed's `{"type": "rag", "name": ...}`), narrowed to some
    documents when the session named them."""

    type: str
    name: str
    title: str
    documents: list[str]  # document ids; empty: the whole collection


class ResearchInput(TypedDict, total=False):
    messages: list[Any]
    user_query: str
    locale: str
    resources: list[Resource]
    auto_accepted_plan: bool
    enable_background_investigation: bool
    max_plan_iterations: int
    max_step_num: int
    max_agent_turns: int


class ResearchState(MessagesState, total=False):
    """The seed's State, field for field, plus what Stepwise adds to show and bound the run (the last block)."""

    locale: str
    observations: list[str]
    data_collections: list[Any]
    resources: list[Resource]
    plan_iterations: int
    current_plan: dict[str, Any] | str | None
    user_query: str
    original_query: str
    final_report: str
    replan_result: str
    auto_accepted_plan: bool
    enable_background_investigation: bool
    background_investigation_results: str | None
    user_dst: str | None
    delegation_context: dict[str, Any] | None
    current_node: str | None
    memory_stack: str | None
    # Stepwise's additions: the limits the counters show, the turn count, the checked citations.
    max_plan_iterations: int
    max_step_num: int
    agent_turns: int
    max_agent_turns: int
    citations: list[dict[str, Any]]
    citation_check: dict[str, Any]
    remaining_steps: RemainingSteps


class ResearchOutput(TypedDict, total=False):
    messages: list[Any]
    final_report: str
    citations: list[dict[str, Any]]
    citation_check: dict[str, Any]
    observations: list[str]
    data_collections: list[Any]
    current_plan: dict[str, Any] | str | None


class AgentInput(TypedDict, total=False):
    """What a delegated agent (researcher, coder, analyst) reads from the workflow."""

    delegation_context: dict[str, Any] | None
    current_plan: dict[str, Any] | str | None
    resources: list[Resource]
    observations: list[str]
    data_collections: list[Any]
    locale: str
    user_dst: str | None
    user_query: str
    max_step_num: int


class AgentOutput(TypedDict, total=False):
    """What it hands back: its findings, and the step's execution_res in the plan."""

    observations: list[str]
    data_collections: list[Any]
    current_plan: dict[str, Any] | str | None


class AgentState(AgentInput, AgentOutput, total=False):
    """An agent's working state: the inner fields never reach the workflow's state."""

    queries: list[str]
    hits: list[dict[str, Any]]
    findings: list[dict[str, Any]]
    code: str
    tables: dict[str, str]  # file name → path of the tables the coder computes over
    run_result: dict[str, Any]
    comparisons: list[dict[str, Any]]
    conclusion: str


@dataclass(frozen=True)
class ResearchContext:
    """Run-time dependencies of the nodes (LangGraph's context_schema)."""

    gateway: ModelGateway
    library: ResearchLibrary
    settings: ResearchSettings
    web: WebSearchSettings | None = None  # None: web search is off

    def web_results(self, query: str) -> list[WebResult]:
        """Web results when a provider is set; a failing provider costs its results, never the run."""
        if self.web is None:
            return []
        from pipelines.deep_research.web_search import WebSearchError, web_search

        try:
            return web_search(query, self.web)
        except WebSearchError:
            return []
