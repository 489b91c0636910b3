"""Reading and splitting stay linear in the size of a document whatever its shape, and give the chunks they gave
before: a Markdown paragraph of long lines with no blank line (the shape that held the server for 20 minutes), a
"sentence" of characters with no break at all, a line of unclosed brackets, deep HTML nesting. Each shape here is
big enough that the quadratic code took tens of seconds on it; the time per MB is measured by
tests/bench/bench_uploads.py, not here."""

from __future__ import annotations

import json
import random

from pipelines.deep_research.chunking import fit_units, sentence_units, Unit
from pipelines.deep_research.documents import chunk_document, load_document
from tests.support.chunk_corpus import DIGESTS, digests

WORDS = "the harbour throughput rose by nine percent while the rail link opened later than planned".split()


def _long_line_markdown(lines: int, seed: int = 1) -> tuple[str, list[str]]:
    """Markdown of ~820-character lines and no blank line, and its sentences in order."""
    rng = random.Random(seed)
    sentences, out = [], []
    for number in range(lines):
        line = []
        while sum(len(s) + 1 for s in line) < 800:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18)))
            line.append(f"{text[0].upper()}{text[1:]} {number}.")
        sentences += line
        out.append(" ".join(line))
    return "# Harbour\n" + "\n".join(out) + "\n", sentences


def test_the_chunks_of_every_corpus_document_are_unchanged():
    # review.md differs from the quadratic code on purpose: a link to "Plan_(2024)" no longer leaves a stray ")".
    assert digests() == json.loads(DIGESTS.read_text(encoding="utf-8"))


def test_a_long_line_paragraph_splits_into_whole_sentences_in_order():
    text, sentences = _long_line_markdown(400)  # 330 KB in one paragraph: about a minute of the old splitter
    document = load_document("notes.md", text.encode())
    assert len(document.sections) == 1 and document.sections[0].section == "Harbour"
    chunks = chunk_document(document)
    assert all(len(c.text) <= 900 and c.section == "Harbour" for c in chunks)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    seen: list[str] = []  # every sentence once, in order, overlaps aside; none cut in two
    for chunk in chunks:
        units = [u.text for u in sentence_units(chunk.text)]
        if chunk.index:
            units = units[next(i for i, u in enumerate(units) if not seen or u not in seen[-6:]):]
        seen += [u for u in units if u != "Harbour"]
    assert seen == sentences
    assert len(chunks) <= len(text) // 700  # packed, not a chunk per sentence


def test_a_run_without_any_break_is_cut_every_chunk_length():
    pieces = fit_units([Unit("x" * 2_000_000, "")], 900)
    assert [len(p.text) for p in pieces] == [900] * 2222 + [200]
    assert not any(p.whole for p in pieces)  # pieces of a cut sentence are never repeated as overlap
    words = fit_units([Unit("a" * 5000 + " tail, end")], 900)
    assert "".join(p.text for p in words).replace(" ", "") == "a" * 5000 + "tail,end"


def test_unclosed_brackets_and_deep_nesting_are_read_whole():
    line = "[see (note " * 40_000  # 440 KB of links that never close
    document = load_document("brackets.md", line.encode())
    assert document.chars >= len(line.strip()) - 10
    nested = "<div>level " * 3000 + "</div>" * 3000
    html = load_document("nested.html", f"<html><body>{nested}<p>c\nd</p><pre>a\nb</pre></body></html>".encode())
    text = html.sections[-1].text
    assert text.count("level") == 3000 and "c d" in text and "a\nb" in text  # a line break counts in <pre> only


def test_a_long_markdown_without_headings_keeps_every_paragraph_in_one_section():
    rng = random.Random(4)
    paragraphs = [" ".join(rng.choice(WORDS) for _ in range(40)).capitalize() + f" {n}." for n in range(6000)]
    document = load_document("plain.md", "\n\n".join(paragraphs).encode())  # 1.6 MB: one section of 6,000 blocks
    assert len(document.sections) == 1 and document.sections[0].text.split("\n\n") == paragraphs
