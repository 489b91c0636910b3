"""Principle 3: nothing under pipelines/ imports streamlit, by source and at run time."""

import ast
import subprocess
import sys
from pathlib import Path

PIPELINES = Path(__file__).resolve().parents[2] / "pipelines"


def test_no_module_under_pipelines_imports_streamlit_in_its_source():
    offenders = []
    for path in PIPELINES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.relative_to(PIPELINES)}: {n}" for n in names if n.split(".")[0] == "streamlit"]
    assert offenders == []


def test_importing_every_pipeline_module_loads_no_streamlit():
    modules = sorted(".".join(p.relative_to(PIPELINES.parent).with_suffix("").parts)
                     for p in PIPELINES.rglob("*.py") if p.name != "__main__.py")
    code = f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\nprint('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PIPELINES.parent)
    assert out.stdout.strip() == "False"
