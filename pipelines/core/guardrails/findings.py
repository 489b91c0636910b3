"""What a guardrail check reports: which check fired, how serious it is, and why (never the offending text)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["info", "warning", "blocked"]

# The checks the validators run; the guardrail log and the UI group findings by these names.
CHECKS = ("input_injection", "input_jailbreak", "indirect_injection", "input_pii", "input_length",
          "output_safety", "output_hallucination", "output_format", "output_canary_leak", "output_pii", "action_rate_limit",
          "action_role", "action_recipient", "action_personal_data")
# What each check means to the person who sees its banner or reads the log.
CHECK_LABELS = {
    "input_injection": "Prompt injection", "input_jailbreak": "Jailbreak attempt",
    "indirect_injection": "Instructions hidden in a document", "input_pii": "Personal data masked",
    "input_length": "Message too long", "output_safety": "Unsafe reply",
    "output_hallucination": "Invented name, id or address", "output_format": "Reply format",
    "output_canary_leak": "System prompt leak", "output_pii": "Personal data in the reply",
    "action_rate_limit": "Action limit", "action_role": "Not allowed for this role",
    "action_recipient": "Recipient outside the data", "action_personal_data": "Personal data not sent out",
}


def check_label(check: object) -> str:
    """The reader's words for a check (a check this list does not know, as it is named)."""
    return CHECK_LABELS.get(str(check or ""), str(check or "—"))


@dataclass(frozen=True)
class Finding:
    check: str
    severity: Severity
    message: str
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def blocked(self) -> bool:
        return self.severity == "blocked"


def worst(findings: tuple[Finding, ...] | list[Finding]) -> Severity | None:
    """The most serious severity among the findings (None when there are none)."""
    order = {"info": 0, "warning": 1, "blocked": 2}
    return max((f.severity for f in findings), key=order.__getitem__, default=None)
