"""Deep research's own settings: the limits of a session, the coder's sandbox, retrieval and optional web search."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pipelines.core.settings import Settings, find_secret, workflow_settings

WORKFLOW_ID = "deep_research"
TAVILY_KEY_ENV = ("TAVILY_API_KEY", "STEPWISE_TAVILY_API_KEY")


class ResearchSettings(BaseModel):
    model_config = ConfigDict(title="Deep research", frozen=True)

    max_plan_iterations: int = Field(
        3, ge=1, le=10, title="Plan iterations (planner passes, edits included)",
        description="After this many plans the last one is carried out as it stands.",
        json_schema_extra={"env": "STEPWISE_RESEARCH_MAX_PLAN_ITERATIONS"})
    max_step_num: int = Field(
        5, ge=1, le=12, title="Steps per plan", description="The planner never plans more steps than this.",
        json_schema_extra={"env": "STEPWISE_RESEARCH_MAX_STEPS"})
    max_agent_turns: int = Field(
        24, ge=2, le=200, title="Central-agent turns",
        description="At this many decisions the report is written from what was found, marked partial.",
        json_schema_extra={"env": "STEPWISE_RESEARCH_MAX_TURNS"})
    top_k: int = Field(8, ge=1, le=20, title="Passages per search", json_schema_extra={"env": "STEPWISE_RESEARCH_TOP_K"})
    coder_timeout_s: float = Field(10.0, gt=0, le=120, title="Coder time limit (s)",
                                   json_schema_extra={"env": "STEPWISE_CODER_TIMEOUT_S"})
    coder_memory_mb: int = Field(512, ge=64, le=8192, title="Coder memory limit (MB)",
                                 json_schema_extra={"env": "STEPWISE_CODER_MEMORY_MB"})
    coder_allow_without_bwrap: bool = Field(
        False, title="Run code without bubblewrap (development only)",
        description="The coder runs programs inside bubblewrap (bwrap). Where it is missing or cannot start, the "
                    "coder refuses to run code; on, it runs them under the in-process audit hook alone, which is "
                    "weaker: a program that gets past the hook can read whatever the app's user can.",
        json_schema_extra={"env": "STEPWISE_CODER_ALLOW_WITHOUT_BWRAP"})
    web_search: Literal["off", "searxng", "tavily"] = Field(
        "off", title="Web search", description="Off by default: research runs over your documents only.",
        json_schema_extra={"env": "STEPWISE_WEB_SEARCH"})
    searxng_url: str = Field("", title="SearxNG URL", json_schema_extra={"env": "STEPWISE_SEARXNG_URL"})


def research_settings(settings: Settings) -> ResearchSettings:
    return workflow_settings(WORKFLOW_ID, ResearchSettings, settings)


def tavily_key() -> str:
    """Tavily's key from the environment or the secrets file: never a setting that is saved or shown."""
    return find_secret(TAVILY_KEY_ENV, "tavily")[0]
