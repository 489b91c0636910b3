"""The project's module import graph from the sources: every import statement, at the top, in a function or under
TYPE_CHECKING, as edges between the project's own modules."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("pipelines", "dashboard")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


def imported_names(path: Path, module: str) -> list[str]:
    """Every module name this file imports (`from a import b` gives a.b when that is a module, else a)."""
    names = []
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph = {}
    for module, path in modules.items():
        targets = {name for name in imported_names(path, module) if name in modules}
        # `from pkg import sub` names both pkg and pkg.sub: the submodule is the dependency
        graph[module] = {t for t in targets if not any(o.startswith(t + ".") for o in targets)} - {module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
