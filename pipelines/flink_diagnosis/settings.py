"""The Flink diagnosis's own settings: the queue's claim lease, how long workers wait out a database outage, and
the knowledge base's accumulate threshold."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from pipelines.core.settings import Settings, workflow_settings

WORKFLOW_ID = "flink_diagnosis"


class FlinkSettings(BaseModel):
    model_config = ConfigDict(title="Flink job diagnosis", frozen=True)

    accumulate_threshold: float = Field(
        0.8, ge=0, le=1, title="Accumulate at confidence ≥",
        description="A diagnosis at least this confident becomes a new case of the knowledge base.",
        json_schema_extra={"env": "STEPWISE_ACCUMULATE_THRESHOLD", "step": 0.05})
    claim_lease_s: float = Field(
        600.0, gt=0, title="Claim lease (s)",
        description="A claimed exception not finished in this time goes back to pending.",
        json_schema_extra={"env": "STEPWISE_CLAIM_LEASE"})
    outage_budget_s: float = Field(
        60.0, ge=0, title="Wait out a database outage for (s)",
        description="Batch workers retry an unreachable queue database this long (with backoff and jitter); past "
                    "it they hand their claimed exceptions back to pending and stop.",
        json_schema_extra={"env": "STEPWISE_OUTAGE_BUDGET"})


def flink_settings(settings: Settings) -> FlinkSettings:
    return workflow_settings(WORKFLOW_ID, FlinkSettings, settings)
