"""Every uploader states the limit that is enforced: each st.file_uploader in the dashboard passes max_upload_size
and names it in its label, and the server (.streamlit/config.toml) refuses exactly what is above the largest."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from pipelines.core.resume_files import MAX_RESUME_BYTES
from pipelines.deep_research.documents import MAX_DOCUMENT_MB
from pipelines.flink_diagnosis.intake import MAX_UPLOAD_MB
from pipelines.recruiter.importing import MAX_IMPORT_BYTES

ROOT = Path(__file__).resolve().parents[3]
LIMITS_MB = {"research": MAX_DOCUMENT_MB, "ican": MAX_RESUME_BYTES // 2**20, "flink": MAX_UPLOAD_MB,
             "recruiter": MAX_IMPORT_BYTES // 2**20}


def _uploaders() -> list[tuple[Path, ast.Call]]:
    calls = []
    for path in sorted((ROOT / "dashboard").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "file_uploader":
                calls.append((path, node))
    return calls


def test_every_uploader_passes_its_limit_and_names_it_in_its_label():
    uploaders = _uploaders()
    assert len(uploaders) >= 5
    for path, call in uploaders:
        keywords = {k.arg: k.value for k in call.keywords}
        where = f"{path.relative_to(ROOT)}:{call.lineno}"
        assert "max_upload_size" in keywords, f"{where} does not pass max_upload_size"
        label = ast.unparse(call.args[0] if call.args else keywords["label"])
        if label == "label":  # a helper's parameter: every call of the helper names the limit
            continue
        assert " MB" in label or "UPLOAD_LIMIT" in label, f"{where}: the label names no limit"


def test_resume_uploads_name_the_limit_at_every_call():
    source = (ROOT / "dashboard" / "workflows" / "ican" / "session.py").read_text(encoding="utf-8")
    calls = [node for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_resume_uploader"]
    assert len(calls) >= 2 and all("RESUME_MB" in ast.unparse(call.args[0]) for call in calls)


def test_the_server_refuses_what_is_over_the_largest_limit():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] == max(LIMITS_MB.values()) == 50
