"""The offline diagnosis engine: signatures of the exception text plus votes of the retrieved cases."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipelines.core.text import clip
from pipelines.flink_diagnosis.categories import CATEGORIES, UNKNOWN, label
from pipelines.flink_diagnosis.patterns import deepest_cause, headline, root_exception, simple_name
from pipelines.flink_diagnosis.schemas import DiagnosisOutput
from pipelines.flink_diagnosis.signatures import signature_scores

VOTE_WEIGHT = 3.0
MIN_SIGNATURE = 2.0  # below this the text itself names no category
MIN_RETRIEVAL_ONLY = 0.6  # similarity a case needs to carry a diagnosis on its own
TERMINAL_FAILURE_RE = re.compile(
    r"recovery is suppressed|switched from (?:running|restarting|created) to failed|job (?:has )?failed|"
    r"jobexecutionexception|restart(?:ing|ed)?|作业失败|一直重启", re.IGNORECASE)
CONFIG_KEY_RE = re.compile(r"`([a-z][\w-]*(?:\.[\w-]+)+)`")


@dataclass
class Classification:
    category: str
    confidence: float
    evidence: list[str] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)
    agreeing_cases: list[str] = field(default_factory=list)
    top_similarity: float = 0.0


def classify(error_type: str | None, error_message: str, cases: Sequence[Mapping[str, Any]] = ()) -> Classification:
    """Category and confidence: the text's signatures, the retrieved cases' votes, and how well they agree."""
    text = f"{error_type or ''}\n{error_message or ''}"
    signatures = signature_scores(text, deepest_cause(error_message or ""))
    scores = {category: score for category, (score, _) in signatures.items()}
    top_similarity = max((float(c.get("similarity") or 0.0) for c in cases), default=0.0)
    for case in cases:
        if case.get("category") in CATEGORIES:
            scores[case["category"]] = scores.get(case["category"], 0.0) + \
                VOTE_WEIGHT * max(0.0, float(case.get("similarity") or 0.0))
    if not scores:
        return Classification(UNKNOWN, 0.1, top_similarity=top_similarity)
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    best, best_score = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    signature = signatures.get(best, (0.0, []))
    agreeing = [str(c.get("case_id")) for c in cases if c.get("category") == best]
    if signature[0] < MIN_SIGNATURE and top_similarity < MIN_RETRIEVAL_ONLY:
        return Classification(UNKNOWN, round(0.1 + 0.2 * top_similarity, 3), scores=scores,
                              top_similarity=top_similarity)
    margin = (best_score - second) / best_score
    if signature[0] < MIN_SIGNATURE:  # the cases alone carry it: never high confidence
        confidence = min(0.55, 0.2 + 0.5 * top_similarity)
    else:
        strength = min(1.0, signature[0] / 8.0)
        agreement = len(agreeing) / max(1, len(cases)) if cases else 0.0
        confidence = 0.35 + 0.25 * margin + 0.2 * strength + 0.15 * agreement
    return Classification(best, round(min(0.95, confidence), 3), evidence=signature[1], scores=scores,
                          agreeing_cases=agreeing, top_similarity=top_similarity)


def _priority(category: str, text: str) -> str:
    if category == UNKNOWN:
        return "medium"
    default = CATEGORIES[category].priority
    if default == "medium" and TERMINAL_FAILURE_RE.search(text):
        return "high"
    return default


def _config_notes(fix: str, job_config: Mapping[str, Any] | None) -> list[str]:
    """The keys the fix names that the job's own configuration already sets, with their values."""
    if not job_config:
        return []
    flat = {str(k).lower(): v for k, v in job_config.items()}
    return [f"`{key}` is currently {flat[key]!r}" for key in dict.fromkeys(CONFIG_KEY_RE.findall(fix))
            if key in flat]


def diagnose_offline(job_info: Mapping[str, Any], context: Mapping[str, Any] | None) -> DiagnosisOutput:
    """A DiagnosisOutput without a model: says `unknown` with low confidence rather than guess."""
    context = context or {}
    cases, docs = list(context.get("cases") or []), list(context.get("docs") or [])
    message = str(job_info.get("error_message") or "")
    error_type = job_info.get("error_type")
    result = classify(error_type, message, cases)
    root = root_exception(message, error_type) or "the exception"
    first_line = headline(deepest_cause(message) or message).rstrip(". ")
    if result.category == UNKNOWN:
        return DiagnosisOutput(
            root_cause=f"Not enough evidence to name a root cause for {root}.",
            detailed_analysis=(f"The text ({first_line or 'empty'}) matches none of the known failure signatures, "
                               f"and the closest known case is only {result.top_similarity:.0%} similar. "
                               "More of the log (the full `Caused by` chain and the TaskManager log around the "
                               "failure) is needed."),
            suggested_fix="Collect the complete stack trace from the JobManager and the failing TaskManager, "
                          "then diagnose again.",
            priority="medium", confidence=result.confidence, related_docs=_doc_refs(docs, None),
            category=UNKNOWN)
    category = CATEGORIES[result.category]
    matching = [c for c in cases if c.get("category") == result.category]
    evidence = "; ".join(f"“{clip(e, 100)}”" for e in _distinct(result.evidence)[:3]) or "the retrieved cases"
    analysis = [_cause_sentence(root, first_line),
                f"It matches the {category.label.lower()} signature ({evidence}).",
                category.cause]
    if cases:
        analysis.append(f"{len(matching)} of the {len(cases)} most similar known cases are "
                        f"{category.label.lower()} (best similarity {result.top_similarity:.2f}).")
    analysis += _config_notes(category.fix, job_info.get("job_config"))
    fix = category.fix
    if matching and matching[0].get("solution"):
        fix += f"\n\nIn the similar case {matching[0]['case_id']}: {matching[0]['solution']}"
    summary = category.cause.split(":")[0].split(", usually")[0].rstrip(".")
    seen_as = f" Seen here as “{first_line[:160]}”." if first_line else ""
    return DiagnosisOutput(
        root_cause=f"{label(result.category)}: {summary}.{seen_as}",
        detailed_analysis=" ".join(analysis), suggested_fix=fix,
        priority=_priority(result.category, message), confidence=result.confidence,
        related_docs=_doc_refs(docs, result.category), category=result.category)


def _cause_sentence(root: str, first_line: str) -> str:
    """The deepest cause, naming its class once: the line itself when it already names the class."""
    if not first_line:
        return f"The error is {root}."
    if root and (root in first_line or simple_name(root) in first_line.split(":")[0]):
        return f"The deepest cause is {first_line}."
    return f"The deepest cause is {root}: {first_line}."


def _distinct(phrases: Sequence[str]) -> list[str]:
    """Matched phrases without those another, longer one already contains."""
    kept: list[str] = []
    for phrase in sorted(dict.fromkeys(phrases), key=len, reverse=True):
        if not any(phrase.lower() in other.lower() for other in kept):
            kept.append(phrase)
    return kept


def _doc_refs(docs: Sequence[Mapping[str, Any]], category: str | None) -> list[str]:
    ordered = sorted(docs, key=lambda d: (d.get("category") != category, -float(d.get("similarity") or 0.0)))
    # DiagnosisOutput lists each document once (two snippets of one page name it twice here).
    return [f"{d.get('title') or ''} — {d.get('url') or ''}".strip(" —") for d in ordered]
