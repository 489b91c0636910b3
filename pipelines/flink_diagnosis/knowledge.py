"""The Flink knowledge base: similar cases and doc snippets in Chroma, cases mirrored in SQL, indexed on first use."""

from __future__ import annotations

import contextlib
import fcntl
import json
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pipelines.core.knowledge.store import KnowledgeBase, clean_metadata
from pipelines.core.paths import ASSETS_DIR
from pipelines.flink_diagnosis.patterns import extract_error_pattern, is_generic_wrapper, simple_name

CASES = "flink_cases"
DOCS = "flink_docs"
SHIPPED_DIR = ASSETS_DIR / "knowledge" / "flink"
DOCUMENT_CHARS = 3000

Progress = Callable[[str, int, int], None]  # (what, done, total)


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def shipped_cases() -> list[dict[str, Any]]:
    return load_jsonl(SHIPPED_DIR / "cases.jsonl")


def shipped_docs() -> list[dict[str, Any]]:
    return load_jsonl(SHIPPED_DIR / "docs.jsonl")


def case_document(error_type: str | None, error_message: str) -> str:
    return f"{error_type or ''}\n{error_message}".strip()[:DOCUMENT_CHARS]


def case_metadata(case: dict[str, Any]) -> dict[str, Any]:
    return clean_metadata({
        "category": case["category"], "error_type": simple_name(case.get("error_type")),
        "error_type_full": case.get("error_type") or "", "root_cause": case.get("root_cause", ""),
        "solution": case.get("solution", ""), "source": case.get("source", "shipped"),
        "confidence": float(case.get("confidence") or 0.0),
        "error_pattern": (case.get("error_pattern") or "")[:1000], "created_at": case.get("created_at") or "",
    })


class FlinkKnowledge:
    """Search and grow the knowledge base; `store` (the SQL ExceptionStore) mirrors every case."""

    def __init__(self, kb: KnowledgeBase, store: Any, lock_path: Path | None = None) -> None:
        self.kb = kb
        self.store = store
        self._lock_path = lock_path
        self._thread_lock = threading.Lock()
        self._indexed = False  # verified once: the retrieve node asks on every run

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Embedded Chroma is one directory shared by every worker process on this machine: writes take turns."""
        with self._thread_lock:
            if self._lock_path is None:
                yield
                return
            self._lock_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self._lock_path, "a+") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)

    def needs_index(self) -> bool:
        return self.kb.needs_index(CASES) or self.kb.needs_index(DOCS)

    def ensure_indexed(self, progress: Progress | None = None) -> bool:
        """Index the shipped cases and docs and the accumulated cases the first time; True if it indexed."""
        indexed_now = False
        if not self._indexed and self.needs_index():
            with self._writing():
                if self.needs_index():
                    self._index(progress)
                    indexed_now = True
        self._indexed = True
        return indexed_now

    def reindex(self, progress: Progress | None = None) -> None:
        """Drop both collections and index everything again (after a change of embedding model, say)."""
        with self._writing():
            self.kb.delete_collection(CASES)
            self.kb.delete_collection(DOCS)
            self._index(progress)
            self._indexed = True

    def _index(self, progress: Progress | None) -> None:
        cases = shipped_cases()
        if self.store.case_count(source="shipped") == 0:
            for case in cases:
                self.store.upsert_case({**case, "source": "shipped",
                                        "error_pattern": case.get("error_pattern") or
                                        extract_error_pattern(case["error_message"])}, count_hit=False)
        accumulated = self.store.list_cases(source="accumulated", limit=100_000)
        ids = [c["case_id"] for c in cases] + [c["case_id"] for c in accumulated]
        documents = ([case_document(c.get("error_type"), c["error_message"]) for c in cases]
                     + [case_document(c.get("error_type"), c.get("error_pattern") or "") for c in accumulated])
        metadatas = ([case_metadata({**c, "source": "shipped"}) for c in cases]
                     + [case_metadata(c) for c in accumulated])
        self.kb.upsert(CASES, ids, documents, metadatas,
                       progress=(lambda done, total: progress("cases", done, total)) if progress else None)
        docs = shipped_docs()
        self.kb.upsert(DOCS, [d["doc_id"] for d in docs], [f"{d['title']}\n{d['text']}" for d in docs],
                       [clean_metadata({"category": d["category"], "title": d["title"], "url": d["url"],
                                        "error_types": " ".join(d.get("error_types") or [])}) for d in docs],
                       progress=(lambda done, total: progress("docs", done, total)) if progress else None)

    def search_cases(self, query: str, error_type: str | None = None, k: int = 3) -> list[dict[str, Any]]:
        """Top k similar cases; filtered by error type when the type is specific, topped up unfiltered."""
        hits = []
        if not is_generic_wrapper(error_type):
            hits = self.kb.search(CASES, query, k=k, where={"error_type": simple_name(error_type)})
        if len(hits) < k:
            seen = {hit.id for hit in hits}
            hits += [hit for hit in self.kb.search(CASES, query, k=k + len(hits)) if hit.id not in seen]
        hits = sorted(hits, key=lambda hit: -hit.score)[:k]
        return [{"case_id": hit.id, "similarity": round(hit.score, 4), "category": hit.metadata.get("category"),
                 "error_type": hit.metadata.get("error_type_full") or hit.metadata.get("error_type"),
                 "root_cause": hit.metadata.get("root_cause", ""), "solution": hit.metadata.get("solution", ""),
                 "source": hit.metadata.get("source", ""), "excerpt": hit.document[:400]} for hit in hits]

    def search_docs(self, query: str, k: int = 3) -> list[dict[str, Any]]:
        return [{"doc_id": hit.id, "similarity": round(hit.score, 4), "category": hit.metadata.get("category"),
                 "title": hit.metadata.get("title", ""), "url": hit.metadata.get("url", ""),
                 "excerpt": hit.document.split("\n", 1)[-1][:600]}
                for hit in self.kb.search(DOCS, query, k=k)]

    def add_case(self, *, category: str, error_type: str | None, error_message: str, root_cause: str,
                 solution: str, confidence: float, created_at: str) -> tuple[dict[str, Any], bool]:
        """Accumulate a diagnosis as a case; an identical error pattern only gets its hit count raised."""
        pattern = extract_error_pattern(error_message)
        case = {"case_id": f"case_{uuid.uuid4().hex[:12]}", "category": category, "error_type": error_type or "",
                "error_pattern": pattern, "root_cause": root_cause, "solution": solution,
                "source": "accumulated", "confidence": round(float(confidence), 4), "created_at": created_at}
        with self._writing():
            if not self.store.upsert_case(case):
                existing = self.store.find_case_by_pattern(pattern) or case
                return existing, False
            self.kb.upsert(CASES, [case["case_id"]], [case_document(error_type, pattern)], [case_metadata(case)])
        return case, True
