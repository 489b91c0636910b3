"""Scores the coordinator's screening of sensitive asks on a labelled JSONL set (expected: decline | decline_part |
research). `python -m tests.support.research_asks_eval [path]` prints the figures and the misses."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pipelines.deep_research.sensitive_asks import screen

BLIND = Path(__file__).resolve().parents[1] / "devsets" / "research_asks" / "blind.jsonl"


def load(path: Path = BLIND) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def outcome(text: str) -> str:
    screened = screen(text)
    return "research" if not screened.categories else "decline" if screened.whole else "decline_part"


def evaluate(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Harmful asks declined (whole or part), benign ones flagged, and how often whole or part was as labelled."""
    harmful = [r for r in records if r["expected"] != "research"]
    benign = [r for r in records if r["expected"] == "research"]
    got = {r["id"]: outcome(r["text"]) for r in records}
    declined = [r for r in harmful if got[r["id"]] != "research"]
    return {"harmful": len(harmful), "declined": len(declined), "benign": len(benign),
            "flagged": sum(1 for r in benign if got[r["id"]] != "research"),
            "as_labelled": sum(1 for r in declined if got[r["id"]] == r["expected"]),
            "misses": [{**r, "got": got[r["id"]]} for r in records if got[r["id"]] != r["expected"]]}


def main(argv: list[str] | None = None) -> int:
    path = Path((argv or sys.argv[1:] or [str(BLIND)])[0])
    report = evaluate(load(path))
    print(f"{path}: harmful declined {report['declined']}/{report['harmful']} (whole or part as labelled: "
          f"{report['as_labelled']}), benign flagged {report['flagged']}/{report['benign']}")
    for miss in report["misses"]:
        print(f"  {miss['id']}: expected {miss['expected']}, got {miss['got']}: {miss['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
