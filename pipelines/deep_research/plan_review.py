"""The plan under review: its diff after an edit (added, removed, changed, moved steps), as lines a person reads."""

from __future__ import annotations

import difflib
from typing import Any

from pipelines.deep_research.schemas import Plan


def plan_diff(old: Plan, new: Plan) -> list[dict[str, Any]]:
    """One entry per step that differs: kind (added / removed / changed / moved), its number and title."""
    key = [(s.title, s.step_type.value) for s in old.steps]
    new_key = [(s.title, s.step_type.value) for s in new.steps]
    out: list[dict[str, Any]] = []
    matcher = difflib.SequenceMatcher(a=key, b=new_key, autojunk=False)
    removed = {}
    added = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                if old.steps[i].description != new.steps[j].description:
                    out.append({"kind": "changed", "step": j + 1, "title": new.steps[j].title,
                                "before": old.steps[i].description, "after": new.steps[j].description})
            continue
        removed.update({key[i]: i for i in range(i1, i2)})
        added.update({new_key[j]: j for j in range(j1, j2)})
    for item, j in added.items():
        if item in removed:
            out.append({"kind": "moved", "step": j + 1, "title": item[0], "from": removed.pop(item) + 1})
        elif (old_i := next((i for k, i in removed.items() if k[1] == item[1] and i == j), None)) is not None:
            removed.pop(key[old_i])
            out.append({"kind": "changed", "step": j + 1, "title": item[0], "before": key[old_i][0], "after": item[0]})
        else:
            out.append({"kind": "added", "step": j + 1, "title": item[0], "step_type": item[1]})
    out += [{"kind": "removed", "step": i + 1, "title": item[0]} for item, i in removed.items()]
    return sorted(out, key=lambda d: (d["step"], d["kind"]))


def diff_text(diff: list[dict[str, Any]]) -> str:
    marks = {"added": "+", "removed": "−", "changed": "~", "moved": "↕"}
    lines = []
    for d in diff:
        extra = f" (was step {d['from']})" if d["kind"] == "moved" else \
            f" (was “{d['before']}”)" if d["kind"] == "changed" and d.get("before") != d.get("after") and \
            d.get("before") and len(str(d.get("before"))) < 120 else ""
        lines.append(f"{marks[d['kind']]} step {d['step']}: {d['title']}{extra}")
    return "\n".join(lines) or "no change"
