"""The offline engine on exception text it was not built from: two labelled sets written apart from the
knowledge base and the signatures (log prefixes, truncated traces, other versions' wording, typos, Chinese)."""

import pytest

from pipelines.flink_diagnosis.offline import classify, diagnose_offline
from tests.unit.flink_diagnosis.conftest import load_fixture


def evaluate(knowledge, rows):
    correct = confident = confident_correct = 0
    for row in rows:
        query = f"{row.get('error_type') or ''} {row['error_message']}"
        context = {"cases": knowledge.search_cases(query, row.get("error_type")), "docs": knowledge.search_docs(query)}
        result = diagnose_offline(row, context)
        correct += result.category == row["category"]
        if result.confidence >= 0.8:
            confident += 1
            confident_correct += result.category == row["category"]
    return correct / len(rows), confident, confident_correct


@pytest.mark.parametrize("name, floor", [("dev_exceptions.jsonl", 0.9), ("holdout_exceptions.jsonl", 0.85)])
def test_category_accuracy_and_confident_precision(knowledge, name, floor):
    rows = load_fixture(name)
    accuracy, confident, confident_correct = evaluate(knowledge, rows)
    print(f"\n{name}: accuracy {accuracy:.3f} over {len(rows)}; {confident} confident, {confident_correct} correct")
    assert accuracy >= floor
    # What accumulate would learn from (confidence >= 0.8) must be right, or the knowledge base learns mistakes.
    assert confident_correct >= 0.95 * confident and confident >= len(rows) // 4


def test_unknown_items_are_never_confident(knowledge):
    for row in [r for r in load_fixture("holdout_exceptions.jsonl") if r["category"] == "unknown"]:
        query = f"{row.get('error_type') or ''} {row['error_message']}"
        result = diagnose_offline(row, {"cases": knowledge.search_cases(query, row.get("error_type"))})
        assert result.confidence < 0.8, row["id"]


def test_signatures_alone_without_retrieval_still_work():
    rows = load_fixture("holdout_exceptions.jsonl")
    accuracy = sum(classify(r.get("error_type"), r["error_message"]).category == r["category"] for r in rows) / len(rows)
    assert accuracy >= 0.8
