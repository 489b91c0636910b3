"""The coder subgraph's nodes: write a program for the step's computation, run it in the sandbox (bubblewrap and an
audit hook: time and memory limits, no network, only its folder and the interpreter's files, allowed imports only),
and record its output as an observation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from pipelines.core.models.failures import answer_or, offline_instead
from pipelines.core.text import clip
from pipelines.deep_research import prompts
from pipelines.deep_research.nodes.common import collection_items, language_name, next_ref, plan_of, with_result
from pipelines.deep_research.offline.code import offline_program
from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.sandbox import DEFAULT_ALLOWED_IMPORTS, SandboxLimits, run_python
from pipelines.deep_research.schemas import CodeDraft
from pipelines.deep_research.state import AgentState, ResearchContext


def write_code(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    context = state.get("delegation_context") or {}
    task = str(context.get("task_description") or "")
    tables = ctx.library.tables(state.get("resources") or [])
    if not tables:
        return {"code": "", "run_result": {"ok": False, "kind": "no_tables", "stdout": "", "error": ""}}
    offline = CodeDraft(code=offline_program(task, [name for name, _ in tables]))
    draft = answer_or(lambda: ctx.gateway.structured("coder", CodeDraft, prompts.CODER.format_messages(
        language=language_name(state), task=task, tables=ctx.library.table_previews(tables),
        allowed=", ".join(sorted(DEFAULT_ALLOWED_IMPORTS))), offline=lambda: offline), offline_instead(lambda: offline))
    return {"code": draft.code, "tables": {name: str(path) for name, path in tables}}


def run_code(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    if not state.get("code"):
        return {}
    tables = {name: Path(path) for name, path in (state.get("tables") or {}).items()}
    result = run_python(state["code"], files=tables, limits=SandboxLimits(
        timeout_s=ctx.settings.coder_timeout_s, memory_mb=ctx.settings.coder_memory_mb),
        allow_hook_only=ctx.settings.coder_allow_without_bwrap)
    return {"run_result": {"ok": result.ok, "kind": result.kind, "stdout": result.stdout, "error": result.error,
                           "duration_ms": round(result.duration_ms, 1), "files": sorted(tables),
                           "isolation": result.isolation}}


def interpret(state: AgentState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
    ctx = runtime.context
    context = state.get("delegation_context") or {}
    index = int(context.get("step_index") or 0)
    plan, _ = plan_of(state, ctx)
    zh = is_zh(str(state.get("locale") or ""))
    run = state.get("run_result") or {}
    items = collection_items(state)
    if run.get("kind") == "no_tables":
        result = ("没有可计算的表格：资料中没有 CSV 或 Excel 数据。" if zh else
                  "Nothing to compute: the resources hold no CSV or Excel table.")
    elif run.get("ok"):
        ref = f"C{next_ref(items, 'C')}"
        files = run.get("files") or []
        items.append({"ref": ref, "kind": "computation", "step": index, "code": state.get("code", ""),
                      "output": run.get("stdout", ""), "summary": ", ".join(files), "document": ", ".join(files),
                      "title": "computation"})
        result = (f"计算完成（{', '.join(files)}）：" if zh else f"Computed over {', '.join(files)}: ") + \
            clip(run.get("stdout", ""), 600) + f" [[{ref}]]"
    else:
        result = ("计算被停止：" if zh else "The computation was stopped: ") + str(run.get("error") or run.get("kind"))
    observation = f"[Step {index + 1}] {context.get('step_title', '')} — {result}"
    return {"data_collections": items, "observations": [*(state.get("observations") or []), observation],
            "current_plan": with_result(plan, index, result)}
