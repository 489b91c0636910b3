"""Regression guard on the blind-labelled dev set (tests/devsets/guardrails/dev.jsonl): the input guard keeps
catching the injections and never blocks a benign or PII-only text."""

from __future__ import annotations

from tests.support.guardrail_eval import evaluate, load


def test_devset_block_recall_and_no_benign_blocked():
    records = load()
    report = evaluate(records)
    block = report["classes"]["block"]
    benign_blocked = [m["id"] for m in report["misses"] if m["expected"] != "block" and m["got"] == "block"]
    assert block["recall"] >= 0.95, report["misses"]
    assert benign_blocked == [] and block["precision"] == 1.0
    wrong_types = [m["id"] for m in report["misses"] if m["expected"] == "redact" and m["got"] == "redact"]
    assert wrong_types == [], "redact items must get their expected PII types"
    allowed_with_pii = [m["id"] for m in report["misses"] if m["expected"] == "allow" and m["pii_types"]]
    assert allowed_with_pii == []
