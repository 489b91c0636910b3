"""The diagnosis report of one run, as markdown: the exception, the diagnosis card, the context used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.core.markup import escape_markdown
from pipelines.flink_diagnosis.categories import label
from pipelines.flink_diagnosis.display import confidence_text, text_markdown, unique
from pipelines.flink_diagnosis.patterns import headline


def build_report(state: Mapping[str, Any]) -> str:
    """Project headings and labels around outside text (the exception, the job, the model's or engine's
    diagnosis), which is escaped so that it shows as written: no links, images or HTML from it."""
    job = state.get("job_info") or {}
    if not job:
        if state.get("error"):
            return f"## Diagnosis failed\n\n{escape_markdown(state['error'])}"
        return "No exception was pending in the queue." if state.get("status") == "completed" else ""
    who = escape_markdown(job.get("job_name") or job.get("job_id") or "", line_breaks=False)
    lines = [f"## Exception {job.get('exception_id', '?')} · job {who}",
             escape_markdown(headline(job.get("error_message", ""), 300)), ""]
    result = state.get("diagnosis_result")
    if not result:
        if state.get("error"):
            lines += ["### Diagnosis failed", escape_markdown(state["error"])]
        return "\n".join(lines)
    lines += [f"**Category:** {label(result.get('category', 'unknown'))} · "
              f"**Priority:** {escape_markdown(result.get('priority') or '—')} · "
              f"**Confidence:** {confidence_text(result.get('confidence'))}", "",
              "### Root cause", text_markdown(result.get("root_cause")), "",
              "### Analysis", text_markdown(result.get("detailed_analysis")), "",
              "### Suggested fix", text_markdown(result.get("suggested_fix")), ""]
    if docs := unique(result.get("related_docs") or []):
        lines += ["### Related documentation", *[f"- {escape_markdown(doc, line_breaks=False)}" for doc in docs], ""]
    cases = (state.get("retrieved_context") or {}).get("cases") or []
    if cases:
        lines += ["### Similar cases", *[f"- {escape_markdown(c['case_id'])} ({label(c.get('category') or '')}, "
                                         f"similarity {c['similarity']:.2f}): "
                                         f"{escape_markdown(c.get('root_cause'), line_breaks=False)}"
                                         for c in cases], ""]
    added = state.get("accumulated_case") or {}
    if added:
        lines.append(f"**Knowledge base:** {escape_markdown(added.get('reason', ''))}"
                     + (f" ({escape_markdown(added['case_id'])})" if added.get("case_id") else ""))
    return "\n".join(lines)
