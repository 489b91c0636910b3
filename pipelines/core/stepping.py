"""How a node that runs a subgraph lets the studio step into it, one inner node per step."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_config

# Set by Session on the runs it steps; a node that invokes a subgraph passes subgraph_step_options() to it.
STEP_INTO_SUBGRAPHS = "stepwise_step_into_subgraphs"


def subgraph_step_options() -> dict[str, Any]:
    """`interrupt_after="*"` for the subgraph when the studio is stepping (so each inner node is a step of
    its own), nothing otherwise: a plain invoke of the workflow runs the subgraph straight through."""
    try:
        configurable = get_config().get("configurable", {})
    except RuntimeError:  # called outside a running graph
        return {}
    return {"interrupt_after": "*"} if configurable.get(STEP_INTO_SUBGRAPHS) else {}
