"""Deep research benchmarks: retrieval recall@5 on the blind dev set (hybrid vs BM25 alone vs embeddings alone),
the dev set's fact coverage and citation precision, a session stepped through `Session` against plain
`graph.invoke`, and indexing time for 10 and 200 pages. Prints tables; asserts nothing about time.

Run with `make bench` or `python -m tests.bench.bench_research`."""

from __future__ import annotations

import io
import statistics
import tempfile
import time
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from pipelines.core.models.gateway import ModelGateway
from pipelines.core.registry import get_spec
from pipelines.core.runtime.studio import Studio
from pipelines.core.settings import load_settings
from pipelines.core.spec import RuntimeDeps
from pipelines.deep_research.library import UPLOADS, close_libraries, open_library
from tests.devsets.research.scoring import DOCS, _overlaps, questions, summarize

ROOT = Path(__file__).resolve().parents[2]


def recall_at_5(library, resources) -> dict[str, float]:
    """Share of needed facts whose source passage (one overlapping the fact's quote) is among the question's top 5."""
    out = {}
    for mode in ("hybrid", "bm25", "embedding"):
        found = total = 0
        for question in questions():
            hits = library.search(resources, question["question"], k=5, mode=mode)
            for fact in question["facts"]:
                total += 1
                found += any(h.document == fact["source"] and _overlaps(h.text, fact["quote"]) for h in hits)
        out[mode] = found / total
    return out


def run_devset(spec, settings, raw_docs) -> dict:
    context = spec.make_context(RuntimeDeps(settings=settings, gateway=ModelGateway(settings)))
    graph = spec.build().compile(checkpointer=InMemorySaver())
    results = []
    for question in questions():
        raw = spec.admit_input({"user_query": question["question"], "documents": raw_docs,
                                "auto_accepted_plan": True}, "bench", settings)
        config = {"configurable": {"thread_id": question["id"]}}
        graph.invoke(spec.make_input(raw, "bench"), config, context=context)
        while graph.get_state(config).next:
            graph.invoke(Command(resume={"skip": True}), config, context=context)
        values = graph.get_state(config).values
        results.append((question, values["final_report"], values["citations"]))
    return summarize(results)


def session_vs_invoke(spec, settings, raw_docs, repeats: int = 3) -> tuple[float, float]:
    question = questions()[0]["question"]
    raw = {"user_query": question, "documents": raw_docs, "auto_accepted_plan": True}
    context = spec.make_context(RuntimeDeps(settings=settings, gateway=ModelGateway(settings)))
    graph = spec.build().compile(checkpointer=InMemorySaver())
    admitted = spec.admit_input(raw, "bench", settings)
    plain, stepped = [], []
    studio = Studio.from_settings(settings)
    try:
        for n in range(repeats):
            t0 = time.perf_counter()
            config = {"configurable": {"thread_id": f"plain-{n}"}}
            graph.invoke(spec.make_input(admitted, "b"), config, context=context)
            while graph.get_state(config).next:
                graph.invoke(Command(resume={"skip": True}), config, context=context)
            plain.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            session = studio.new_session(spec, raw, settings)
            for _ in range(5):
                session.run(until="end")
                if session.status() != "waiting":
                    break
                session.resume({"skip": True})
            stepped.append(time.perf_counter() - t0)
    finally:
        studio.close()
    return statistics.median(plain), statistics.median(stepped)


def pdf_of(pages: int) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for page in range(1, pages + 1):
        y = 800
        for line in range(40):
            canvas.drawString(40, y, f"Page {page}, line {line}: the harbour handled {page * 1000 + line} containers "
                                     f"in week {line % 52 + 1}, and the quay crane moved {line * 7} boxes an hour.")
            y -= 19
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def indexing_time(settings, pages: int) -> float:
    library = open_library(settings)
    data = pdf_of(pages)
    t0 = time.perf_counter()
    library.add(f"bench-{pages}", f"bench_{pages}_pages.pdf", data)
    return time.perf_counter() - t0


def main() -> None:
    spec = get_spec("deep_research")
    raw_docs = sorted(str(p) for p in DOCS.glob("*.md"))
    with tempfile.TemporaryDirectory(prefix="stepwise-bench-research-") as tmp:
        settings = load_settings(data_dir=tmp)
        library = open_library(settings)
        ids = [library.add(UPLOADS, Path(p).name, Path(p).read_bytes()).document.doc_id for p in raw_docs]
        recall = recall_at_5(library, [{"type": "rag", "name": UPLOADS, "documents": ids}])
        print("== Retrieval on the dev set (55 needed facts, the question as the query)")
        print(f"{'retriever':<12}{'recall@5':>10}")
        for mode, value in recall.items():
            print(f"{mode:<12}{value:>10.3f}")
        summary = run_devset(spec, settings, raw_docs)
        print("\n== Reports on the dev set (offline engine, all ten documents)")
        print(f"fact coverage (micro) {summary['coverage']:.3f} ({summary['covered']}/{summary['facts']}), "
              f"macro {summary['macro_coverage']:.3f}; citation precision {summary['citation_precision']:.3f}; "
              f"stated but uncited {summary['stated_uncited']}")
        print("unanswerable passed: " + ", ".join(f"{q} {'yes' if ok else 'no'}" for q, ok in summary["unanswerable"]))
        for row in summary["questions"]:
            print(f"  {row['id']} ({row['lang']}): {row['covered']}/{row['facts']} covered, {row['correct']} correctly cited")
        plain, stepped = session_vs_invoke(spec, settings, raw_docs)
        print("\n== One session (Q01, plan auto-accepted), median of 3")
        print(f"graph.invoke {plain * 1000:8.0f} ms   Session {stepped * 1000:8.0f} ms   ratio {stepped / plain:5.2f}")
        print("\n== Indexing a PDF (load, chunk, scan, embed, store)")
        for pages in (10, 200):
            seconds = indexing_time(settings, pages)
            print(f"{pages:>4} pages {seconds:7.2f} s  ({seconds / pages * 1000:6.1f} ms a page)")
        close_libraries()


if __name__ == "__main__":
    main()
