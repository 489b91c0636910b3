"""The guardrails layer (seed §6) shared by the workflows: input and output validators, PII masking, action limits
and the guardrail log."""

from pipelines.core.guardrails.findings import CHECKS, Finding, worst
from pipelines.core.guardrails.injection import detect_injection
from pipelines.core.guardrails.input_validator import InputVerdict, guard_record, validate_input_text
from pipelines.core.guardrails.output_validator import OutputVerdict, make_canary, validate_output_text
from pipelines.core.guardrails.pii import PII_TYPES, PiiMatch, PiiVault, find_pii

__all__ = ["CHECKS", "PII_TYPES", "Finding", "InputVerdict", "OutputVerdict", "PiiMatch", "PiiVault", "detect_injection",
           "find_pii", "guard_record", "make_canary", "validate_input_text", "validate_output_text", "worst"]
