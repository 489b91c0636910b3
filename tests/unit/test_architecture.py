"""The layering the README promises: generic code names no workflow, and no module imports itself in a circle."""

from __future__ import annotations

from pipelines.core.registry import workflows
from tests.support.import_graph import ROOT, import_graph, imported_names, module_name, cycles

# What must work for every workflow without knowing any of them.
GENERIC = ["pipelines/core", "pipelines/cli.py", "pipelines/__main__.py", "dashboard/app.py",
           "dashboard/services.py", "dashboard/navigation.py", "dashboard/state_keys.py", "dashboard/studio",
           "dashboard/app_pages"]


def _generic_files():
    for place in GENERIC:
        path = ROOT / place
        yield from (sorted(path.rglob("*.py")) if path.is_dir() else [path])


def _workflow_packages() -> set[str]:
    """Every package under pipelines/ but the core, and every folder of dashboard/workflows/, plus what the
    registry names (a workflow may live elsewhere)."""
    found = {f"pipelines.{p.name}" for p in (ROOT / "pipelines").iterdir()
             if p.is_dir() and p.name not in ("core", "__pycache__")}
    found |= {"dashboard.workflows"}
    for entry in workflows():
        found |= {name for name in (entry.package, entry.dashboard) if name}
    return found


def test_generic_code_imports_no_workflow():
    packages = _workflow_packages()
    assert {"pipelines.career_navigator", "pipelines.flink_diagnosis", "pipelines.ican"} <= packages
    offenders = []
    for path in _generic_files():
        for name in imported_names(path, module_name(path)):
            if any(name == p or name.startswith(p + ".") for p in packages):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_no_import_cycles_under_pipelines_or_dashboard():
    graph = import_graph()
    assert "pipelines.core.runtime.session" in graph and "dashboard.studio.workflow_page" in graph
    assert cycles(graph) == []


def test_storage_does_not_depend_on_the_model_gateway():
    graph = import_graph()
    seen, todo = set(), [m for m in graph if m.startswith("pipelines.core.storage")]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    assert not any(m.startswith("pipelines.core.models") for m in seen), sorted(seen)


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
