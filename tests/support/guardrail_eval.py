"""Scores the input guard on a labelled JSONL set (expected_verdict: block | redact | allow): per-class precision
and recall and the list of misses. `python -m tests.support.guardrail_eval [path]` prints the table."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pipelines.core.guardrails.input_validator import guard_record

DEV_SET = Path(__file__).resolve().parents[1] / "devsets" / "guardrails" / "dev.jsonl"
CLASSES = ("block", "redact", "allow")


def load(path: Path = DEV_SET) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """{"classes": {cls: {"precision", "recall", "support", "predicted"}}, "accuracy", "misses": [...]}."""
    pairs, misses = [], []
    for record in records:
        got = guard_record(record)
        expected = record["expected_verdict"]
        pairs.append((expected, got["verdict"]))
        wanted_types = set(record.get("pii_types") or [])
        if got["verdict"] != expected or (expected == "redact" and wanted_types - set(got["pii_types"])):
            misses.append({"id": record.get("id"), "expected": expected, "got": got["verdict"], "checks": got["checks"],
                           "pii_types": got["pii_types"], "expected_pii_types": sorted(wanted_types),
                           "note": record.get("note", ""), "source": record.get("source", "user")})
    classes = {}
    for cls in CLASSES:
        tp = sum(1 for e, g in pairs if e == cls and g == cls)
        predicted = sum(1 for _, g in pairs if g == cls)
        support = sum(1 for e, _ in pairs if e == cls)
        classes[cls] = {"precision": tp / predicted if predicted else 1.0, "recall": tp / support if support else 1.0,
                        "support": support, "predicted": predicted}
    accuracy = sum(1 for e, g in pairs if e == g) / len(pairs) if pairs else 1.0
    return {"classes": classes, "accuracy": accuracy, "total": len(pairs), "misses": misses}


def main(argv: list[str] | None = None) -> int:
    path = Path((argv or sys.argv[1:] or [str(DEV_SET)])[0])
    report = evaluate(load(path))
    print(f"{path}  ({report['total']} items, accuracy {report['accuracy']:.1%})")
    print(f"{'class':<8}{'precision':>11}{'recall':>9}{'support':>9}{'predicted':>11}")
    for cls, row in report["classes"].items():
        print(f"{cls:<8}{row['precision']:>11.1%}{row['recall']:>9.1%}{row['support']:>9}{row['predicted']:>11}")
    for miss in report["misses"]:
        print(f"  miss {miss['id']}: expected {miss['expected']}, got {miss['got']} {miss['checks']} "
              f"pii={miss['pii_types']} want={miss['expected_pii_types']} ({miss['source']}: {miss['note']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
