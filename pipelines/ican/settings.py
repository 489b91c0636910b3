"""iCan's own settings: how many times the guide may dig deeper in one session."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pipelines.core.settings import Settings, workflow_settings

WORKFLOW_ID = "ican"


class ICanSettings(BaseModel):
    model_config = ConfigDict(title="iCan career guidance", frozen=True)

    # seed 003: the comment says 2, the code 8
    guide_max_loops: int = Field(
        8, ge=1, le=50, title="Guide loop limit (dig_deeper passes per session)",
        description="The guide hands off to the analysis when it has dug this many times (seed 003: 8).",
        json_schema_extra={"env": "STEPWISE_GUIDE_MAX_LOOPS"})


def ican_settings(settings: Settings) -> ICanSettings:
    return workflow_settings(WORKFLOW_ID, ICanSettings, settings)
