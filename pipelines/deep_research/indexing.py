"""Adding files to a research collection as a job in a worker thread that pages poll: its stage and progress, Stop
between batches, and a result per file (added, skipped with the reason, or stopped with what was kept)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipelines.core.runtime.worker import Workers, WorkerState
from pipelines.deep_research.documents import DocumentError
from pipelines.deep_research.library import (INDEXING, READING, IndexingStopped, Progress, ResearchLibrary,
                                             check_collection_name)


@dataclass(frozen=True)
class FileResult:
    """One file of an add: added (or replacing its earlier copy) with its counts, skipped with the reason, or not
    added because the job was stopped."""
    name: str
    added: bool
    reason: str = ""                          # why it was skipped or not added
    chunks: int = 0
    pages: int = 0
    flagged: int = 0                          # passages the guardrails flagged
    flag_reasons: tuple[str, ...] = ()
    hidden: int = 0                           # passages of hidden HTML dropped before indexing
    replaced: bool = False                    # the same content was in the collection already
    doc_id: str = ""
    stopped: bool = False                     # Stop ended the job before this file was in


@dataclass
class IndexJob(WorkerState):
    """One add of several files to one collection, in a worker. The worker sets the progress fields and appends
    to `results`; pages only read them. Nothing here touches a UI."""

    collection: str
    names: tuple[str, ...]
    sizes: tuple[int, ...]
    job_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    file_number: int = 0                      # 0-based index of the file under way
    stage: str = READING
    done: int = 0                             # passages of the file under way stored so far
    total: int = 0
    results: list[FileResult] = field(default_factory=list)
    error: str | None = None                  # the store failed: the files before it stay added

    @property
    def fraction(self) -> float:
        """The share of the job done, weighing each file by its size."""
        whole = sum(self.sizes) or 1
        before = sum(self.sizes[:self.file_number])
        within = self.done / self.total if self.stage == INDEXING and self.total else 0.0
        current = self.sizes[self.file_number] if self.file_number < len(self.sizes) else 0
        return 1.0 if not self.running else min(1.0, (before + within * current) / whole)

    def describe(self) -> str:
        """What the worker is doing now, in words."""
        if not self.running:
            return self.summary()
        name = self.names[min(self.file_number, len(self.names) - 1)]
        where = f"file {self.file_number + 1} of {len(self.names)}, {name}"
        if self.stage == INDEXING and self.total:
            return f"{where}: {self.stage}, {self.done} of {self.total} passages"
        return f"{where}: {self.stage}"

    def summary(self) -> str:
        added = sum(r.added for r in self.results)
        text = f"{added} of {len(self.names)} file(s) added to {self.collection} in {self.elapsed_s:.1f} s"
        if self.error:
            return f"{text}; then the store failed: {self.error}"
        if self.stop_requested and any(r.stopped for r in self.results):
            return f"{text}; stopped by you: the files added before Stop are kept, the others were not added"
        return text + "."

    # the worker's side -------------------------------------------------------------------------------------------
    def _progress(self, stage: str, done: int, total: int) -> None:
        self.stage, self.done, self.total = stage, done, total

    def _work(self, library: ResearchLibrary, files: Sequence[tuple[str, bytes]]) -> None:
        try:
            known = {info.doc_id for info in library.documents(self.collection)}
            for number, (name, data) in enumerate(files):
                self.file_number, self.stage, self.done, self.total = number, READING, 0, 0
                if self._stop.is_set():
                    self.results.append(FileResult(name, False, f"{name}: stopped before it was read", stopped=True))
                    continue
                self.results.append(_add_one(library, self.collection, name, data, known, self._progress, self._stop))
        except Exception as exc:  # noqa: BLE001 - shown on the page instead of dying silently in a thread
            self.error = f"{type(exc).__name__}: {exc}"[:500]
        finally:
            self._finish()


def _add_one(library: ResearchLibrary, collection: str, name: str, data: bytes, known: set[str],
             progress: Progress | None, stop: threading.Event | None) -> FileResult:
    try:
        added = library.add(collection, name, data, progress=progress, stop=stop)
    except DocumentError as exc:
        return FileResult(name, False, reason=str(exc))
    except IndexingStopped as exc:
        return FileResult(name, False, reason=str(exc), stopped=True)
    info = added.document
    result = FileResult(name, True, chunks=info.chunks, pages=info.pages, flagged=info.flagged,
                        flag_reasons=added.flag_reasons, hidden=info.hidden, replaced=info.doc_id in known, doc_id=info.doc_id)
    known.add(info.doc_id)
    return result


def add_files(library: ResearchLibrary, collection: str, files: Sequence[tuple[str, bytes]]) -> list[FileResult]:
    """Each file read, scanned and indexed into the collection in the caller's thread (the CLI, a research run's
    input, tests); a file that cannot be used is skipped with the reason and the others are still added. A store
    that cannot be reached raises: the files before it stay added."""
    collection = check_collection_name(collection)
    known = {info.doc_id for info in library.documents(collection)}
    return [_add_one(library, collection, name, data, known, None, None) for name, data in files]


class IndexJobs:
    """The adds going on in this process, one per collection at most; every browser tab on the collection sees it."""

    def __init__(self, keep_finished: int = 50) -> None:
        self._jobs: Workers[IndexJob] = Workers(keep_finished)  # by store and collection

    def start(self, library: ResearchLibrary, collection: str, files: Sequence[tuple[str, bytes]]) -> IndexJob:
        """Start a worker adding the files; InvalidInput when the collection already has an add going on."""
        collection = check_collection_name(collection)
        job = IndexJob(collection, tuple(n for n, _ in files), tuple(len(d) for _, d in files))
        files = list(files)
        return self._jobs.start(_key(library, collection), job, lambda: job._work(library, files),  # noqa: SLF001
                                busy=f"files are being added to {collection} already; wait for them or stop them",
                                thread_name=f"stepwise-index-{collection[:16]}")

    def get(self, library: ResearchLibrary, collection: str) -> IndexJob | None:
        """The collection's latest add, running or finished."""
        return self._jobs.get(_key(library, collection))

    def active(self, library: ResearchLibrary, collection: str) -> IndexJob | None:
        return self._jobs.active(_key(library, collection))


def _key(library: ResearchLibrary, collection: str) -> tuple[str, str]:
    return f"{library.kb.location} {library.kb.model_name}", collection
