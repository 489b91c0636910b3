"""Upload benchmarks: seconds per MB to add a Markdown file to a research collection (read, split, scan, embed and
store), at 1, 10 and 30 MB, for ordinary paragraphs and for ~820-character lines with no blank line between them
(the shape that once held the server for 20 minutes). The baseline, measured in the same run, is storing the same
passages in Chroma with their embeddings and nothing else: the part no splitting or scanning fix can remove. A
second table times reading and splitting alone on hostile shapes at 1 and 4 MB. Prints tables; asserts nothing.

Run with `make bench` or `python -m tests.bench.bench_uploads` (`--quick` stops at 10 MB)."""

from __future__ import annotations

import argparse
import random
import tempfile
import time

from pipelines.core.settings import load_settings
from pipelines.deep_research.documents import chunk_document, load_document
from pipelines.deep_research.library import INDEXING, PREFIX, close_libraries, open_library

MB = 1024 * 1024
WORDS = ("the harbour throughput rose by nine percent in 2024 while the rail link opened later than planned and costs "
         "of dredging fell as the port authority signed new contracts with shipping lines across the region however "
         "analysts expect congestion to return once the terminal reaches capacity").split()


def _sentence(rng: random.Random) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 24)))
    return text[0].upper() + text[1:] + "."


def paragraphs(size: int, seed: int = 1) -> str:
    """Headed sections of paragraphs of 3 to 8 sentences, blank lines between them."""
    rng, out, length, section = random.Random(seed), [], 0, 0
    while length < size:
        if rng.random() < 0.05:
            section += 1
            out.append(f"## Section {section}\n\n")
        paragraph = " ".join(_sentence(rng) for _ in range(rng.randint(3, 8))) + "\n\n"
        out.append(paragraph)
        length += len(paragraph)
    return "".join(out)


def long_lines(size: int, seed: int = 1) -> str:
    """~820-character lines of sentences, no blank line anywhere: one Markdown paragraph."""
    rng, out, length = random.Random(seed), [], 0
    while length < size:
        line = ""
        while len(line) < 800:
            line += _sentence(rng) + " "
        out.append(line.strip() + "\n")
        length += len(out[-1])
    return "".join(out)


def _hard_wrapped(text: str, width: int = 78) -> str:
    return "\n".join(text[i:i + width] for i in range(0, len(text), width))


HOSTILE = {
    "hard-wrapped text, no blank line (.txt)": ("txt", lambda n: _hard_wrapped(long_lines(n).replace("\n", " "))),
    "one run without any break (.txt)": ("txt", lambda n: "x" * n),
    "unclosed links and brackets (.md)": ("md", lambda n: "see [note (a " * (n // 13)),
    "abbreviations and initials (.md)": ("md", lambda n: "A. b. C. d. e.g. Dr. 1. " * (n // 24)),
    "Chinese without punctuation (.md)": ("md", lambda n: "港口吞吐量增长了百分之九版本二中文内容继续" * (n // 60)),
    "deeply nested HTML (.html)": ("html", lambda n: "<div>level " * (n // 17) + "</div>" * (n // 17)),
}


def add_timed(text: str, name: str) -> dict[str, float]:
    """One add into a fresh collection: seconds per stage, and the passages' count."""
    with tempfile.TemporaryDirectory() as tmp:
        library = open_library(load_settings(data_dir=tmp))
        marks: dict[str, float] = {}
        start = time.perf_counter()

        def progress(stage: str, done: int, total: int) -> None:
            marks.setdefault(stage, time.perf_counter())

        result = library.add("bench", name, text.encode(), progress=progress)
        end = time.perf_counter()
        chunks = [row["document"] for row in library.kb.get(PREFIX + "bench")]
        # the baseline: the same passages embedded and stored, nothing else
        began = time.perf_counter()
        library.kb.upsert(PREFIX + "baseline", [str(i) for i in range(len(chunks))], chunks)
        store_only = time.perf_counter() - began
        close_libraries()
    return {"read": marks["splitting"] - start, "split": marks[INDEXING] - marks["splitting"],
            "scan+store": end - marks[INDEXING], "total": end - start, "store only": store_only,
            "chunks": result.document.chunks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="stop at 10 MB")
    args = parser.parse_args()
    sizes = (1, 10) if args.quick else (1, 10, 30)
    print("Adding a Markdown file to a research collection (offline embedding, embedded Chroma): seconds per MB")
    print(f"{'shape':<34} {'MB':>3} {'passages':>8} {'read':>6} {'split':>6} {'scan+store':>10} {'total':>6} "
          f"{'s/MB':>6} {'store only s/MB':>15} {'ratio':>6}")
    for shape, make in (("paragraphs", paragraphs), ("820-char lines, no blank line", long_lines)):
        for size in sizes:
            t = add_timed(make(size * MB), "bench.md")
            print(f"{shape:<34} {size:>3} {t['chunks']:>8} {t['read']:>6.1f} {t['split']:>6.1f} {t['scan+store']:>10.1f} "
                  f"{t['total']:>6.1f} {t['total'] / size:>6.2f} {t['store only'] / size:>15.2f} "
                  f"{t['total'] / t['store only']:>6.2f}", flush=True)
    print("\nReading and splitting alone, hostile shapes: seconds per MB (constant when linear)")
    print(f"{'shape':<42} {'1 MB':>7} {'4 MB':>7}")
    for label, (suffix, make) in HOSTILE.items():
        per_mb = []
        for size in (1, 4):
            data = make(size * MB).encode()
            began = time.perf_counter()
            chunk_document(load_document(f"bench.{suffix}", data))
            per_mb.append((time.perf_counter() - began) / (len(data) / MB))
        print(f"{label:<42} {per_mb[0]:>7.2f} {per_mb[1]:>7.2f}", flush=True)


if __name__ == "__main__":
    main()
