"""Adding documents a batch at a time (real Chroma, the guardrails' scan): a new document is hidden until whole and
taken out again when Stop or a store failure ends the add, a replaced one keeps its earlier copy, and the background
job reports per file what was added, skipped or stopped. The worker is held at a batch by the embedding model, so
nothing depends on the machine's speed."""

from __future__ import annotations

import pytest

from pipelines.core.errors import InvalidInput
from pipelines.core.knowledge.store import KnowledgeStoreError
from pipelines.deep_research.documents import MAX_DOCUMENT_MB, DocumentError, check_size
from pipelines.deep_research.indexing import IndexJobs, add_files
from pipelines.deep_research.library import INDEX_BATCH, INDEXING, PREFIX, IndexingStopped, open_library
from tests.support.held_embedder import hold
from tests.unit.deep_research.test_linear_splitting import _long_line_markdown

SMALL = ("harbor.md", b"# Harbor\n\n## Traffic\nThroughput reached 2.4 million TEU in 2024.\n")
BIG_TEXT, _ = _long_line_markdown(420, seed=3)  # about 500 passages: two batches
BIG = ("big.md", BIG_TEXT.encode())


@pytest.fixture
def library(settings, research):
    return open_library(settings)


def stored(library, collection: str, doc_id: str) -> int:
    return len(library.kb.get(PREFIX + collection, where={"doc_id": doc_id}))


def stop_after_first_batch(stop, seen=None):
    def progress(stage: str, done: int, total: int) -> None:
        if seen is not None:
            seen.append((stage, done, total))
        if stage == INDEXING and done >= INDEX_BATCH:
            stop.set()
    return progress


def test_stop_takes_a_new_document_out_again_and_keeps_the_others(library):
    import threading

    small = library.add("notes", *SMALL).document
    stop, seen = threading.Event(), []
    with pytest.raises(IndexingStopped) as caught:
        library.add("notes", *BIG, progress=stop_after_first_batch(stop, seen), stop=stop)
    total = seen[-1][2]
    assert total > INDEX_BATCH and seen[-1] == (INDEXING, INDEX_BATCH, total)
    assert str(caught.value) == f"big.md: stopped after {INDEX_BATCH} of {total} passages; nothing of it was kept"
    assert [d.name for d in library.documents("notes")] == ["harbor.md"]
    assert library.kb.count(PREFIX + "notes") == small.chunks  # no passage of big.md left behind
    assert {p.document for p in library.search([{"name": "notes"}], "harbour throughput rail link", k=10)} == {"harbor.md"}


def test_a_new_document_is_hidden_until_its_last_batch_is_in(library):
    library.add("notes", *SMALL)
    during: list[tuple[int, list[str], set[str]]] = []

    def progress(stage: str, done: int, total: int) -> None:
        if stage == INDEXING and done < total:
            hits = library.search([{"name": "notes"}], "harbour rail link planned", k=10)
            during.append((done, [d.name for d in library.documents("notes")], {h.document for h in hits}))

    added = library.add("notes", *BIG, progress=progress).document
    assert during and all(names == ["harbor.md"] and documents <= {"harbor.md"} for _, names, documents in during)
    assert stored(library, "notes", added.doc_id) == added.chunks  # stored all along, listed only once whole
    assert sorted(d.name for d in library.documents("notes")) == ["big.md", "harbor.md"]
    assert "big.md" in {h.document for h in library.search([{"name": "notes"}], "harbour rail link planned", k=10)}


def test_stopping_a_replacement_keeps_the_earlier_copy_whole(library):
    import threading

    first = library.add("notes", *BIG).document
    stop = threading.Event()
    with pytest.raises(IndexingStopped, match="its earlier copy is kept"):
        library.add("notes", *BIG, progress=stop_after_first_batch(stop), stop=stop)
    assert [(d.name, d.chunks) for d in library.documents("notes")] == [("big.md", first.chunks)]
    assert stored(library, "notes", first.doc_id) == first.chunks


def test_a_store_failure_in_the_middle_leaves_nothing_half_added(library, monkeypatch):
    library.add("notes", *SMALL)
    real_upsert, calls = library.kb.upsert, []

    def failing_upsert(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KnowledgeStoreError("knowledge store test: cannot write: disk full")
        return real_upsert(*args, **kwargs)

    monkeypatch.setattr(library.kb, "upsert", failing_upsert)
    with pytest.raises(KnowledgeStoreError, match="disk full"):
        library.add("notes", *BIG)
    assert [d.name for d in library.documents("notes")] == ["harbor.md"]
    assert len(library.kb.get(PREFIX + "notes")) == library.documents("notes")[0].chunks


def test_a_job_reports_each_file_and_stops_between_batches(library):
    jobs = IndexJobs()
    held = hold(library)
    job = jobs.start(library, "notes", [SMALL, ("broken.pdf", b"%PDF-1.7 not really"), BIG, ("later.md", b"# Later\n\nText.")])
    assert held.wait_arrived(1)  # the only batch of harbor.md has reached the embedding model
    assert job.running and job.describe().startswith("file 1 of 4, harbor.md")
    with pytest.raises(InvalidInput, match="being added to notes already"):
        jobs.start(library, "notes", [SMALL])  # one add per collection at a time
    assert jobs.active(library, "other") is None
    held.allow(1)
    assert held.wait_arrived(2)  # broken.pdf was skipped; big.md's first batch is held
    assert job.file_number == 2 and job.describe().startswith("file 3 of 4, big.md: scanning and indexing, 0 of")
    job.request_stop()
    held.allow(1)  # the batch under way finishes; the next one is not started
    assert job.wait(120)
    names = [(r.name, r.added, r.stopped) for r in job.results]
    assert names[:2] == [("harbor.md", True, False), ("broken.pdf", False, False)]
    assert names[3] == ("later.md", False, True) and "stopped before it was read" in job.results[3].reason
    assert not job.results[2].added and job.results[2].stopped and "nothing of it was kept" in job.results[2].reason
    assert "readable PDF" in job.results[1].reason
    assert "stopped by you" in job.summary() and job.fraction == 1.0
    assert [d.name for d in library.documents("notes")] == ["harbor.md"]


def test_add_files_skips_what_cannot_be_read_and_marks_a_replacement(library):
    results = add_files(library, "notes", [SMALL, ("notes.docx", b"PK\x03\x04 not a package"), SMALL])
    assert [(r.added, r.replaced) for r in results] == [(True, False), (False, False), (True, True)]
    assert "is not a Word document" in results[1].reason


def test_a_file_over_the_limit_is_refused_with_the_limit():
    check_size("fine.md", MAX_DOCUMENT_MB * 1024 * 1024)
    with pytest.raises(DocumentError, match=f"huge.md is 50.0 MB; documents up to {MAX_DOCUMENT_MB} MB each"):
        check_size("huge.md", MAX_DOCUMENT_MB * 1024 * 1024 + 1)
