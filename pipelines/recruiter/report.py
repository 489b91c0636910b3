"""The recruiter's report of one turn: what was asked, where the router sent it, the reply, the guardrail
findings and the action taken. Outside text is escaped: the studio renders this as Markdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipelines.core.markup import escape_markdown

_ROUTES = {"chat": "the chat graph", "plan": "the planner (part 2)", "workflow": "a direct workflow",
           "resume": "a paused workflow, resumed"}


def build_report(state: Mapping[str, Any]) -> str:
    lines = ["## The turn", "", f"**Message** ({escape_markdown(state.get('role') or 'recruiter')}): "
             f"{escape_markdown(state.get('message') or '')}", ""]
    intent = state.get("intent")
    if intent:
        route = _ROUTES.get(intent, intent)
        kind = state.get("workflow_type")
        lines.append(f"**Route:** {route}{f' ({escape_markdown(kind)})' if kind else ''}, by "
                     f"{escape_markdown(state.get('intent_source') or 'the router')}: "
                     f"{escape_markdown(state.get('intent_reasoning') or '')}")
        lines.append("")
    lines += ["## Reply", "", escape_markdown(state.get("reply") or "(none yet)"), ""]
    findings = state.get("guardrail_findings") or []
    lines += ["## Guardrails", ""]
    lines += [f"- **{escape_markdown(f.get('severity'))}** {escape_markdown(f.get('check'))}: "
              f"{escape_markdown(f.get('message'))}" for f in findings] or ["No check fired."]
    action = state.get("action")
    lines += ["", "## Action", ""]
    if action:
        lines.append(f"**{escape_markdown(action.get('type'))}**: {escape_markdown(action.get('status') or '')}")
        args = {k: v for k, v in action.items() if k not in ("type", "status", "result")}
        if args:
            lines.append("")
            lines += [f"- {escape_markdown(k)}: {escape_markdown(v)}" for k, v in args.items()]
    else:
        lines.append("None.")
    return "\n".join(lines)
