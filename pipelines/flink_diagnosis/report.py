"""The diagnosis report of one run, as markdown: the exception, the diagnosis card, the context used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.flink_diagnosis.categories import label
from pipelines.flink_diagnosis.patterns import headline


def build_report(state: Mapping[str, Any]) -> str:
    job = state.get("job_info") or {}
    if not job:
        if state.get("error"):
            return f"## Diagnosis failed\n\n{state['error']}"
        return "No exception was pending in the queue." if state.get("status") == "completed" else ""
    lines = [f"## Exception {job.get('exception_id', '?')} · job {job.get('job_name') or job.get('job_id', '')}",
             f"`{headline(job.get('error_message', ''), 300)}`", ""]
    result = state.get("diagnosis_result")
    if not result:
        if state.get("error"):
            lines += ["### Diagnosis failed", str(state["error"])]
        return "\n".join(lines)
    lines += [f"**Category:** {label(result.get('category', 'unknown'))} · **Priority:** {result['priority']} · "
              f"**Confidence:** {float(result['confidence']):.0%}", "",
              "### Root cause", result["root_cause"], "", "### Analysis", result["detailed_analysis"], "",
              "### Suggested fix", result["suggested_fix"], ""]
    if result.get("related_docs"):
        lines += ["### Related documentation", *[f"- {doc}" for doc in result["related_docs"]], ""]
    cases = (state.get("retrieved_context") or {}).get("cases") or []
    if cases:
        lines += ["### Similar cases", *[f"- {c['case_id']} ({label(c.get('category') or '')}, similarity "
                                         f"{c['similarity']:.2f}): {c['root_cause']}" for c in cases], ""]
    added = state.get("accumulated_case") or {}
    if added:
        lines.append(f"**Knowledge base:** {added.get('reason', '')}"
                     + (f" ({added['case_id']})" if added.get("case_id") else ""))
    return "\n".join(lines)
