"""Documents whose chunks must not change when reading or splitting is made faster: the research dev set, the
samples, and made-up files of every format and awkward shape (sentences past a chunk, abbreviations, decimals,
list numbers, links, Chinese). `python -m tests.support.chunk_corpus > FILE` prints each one's chunk digest."""

from __future__ import annotations

import hashlib
import io
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = ROOT / "tests" / "unit" / "deep_research" / "chunk_digests.json"
_WORDS = ("the harbour throughput rose by 9.8% in 2024 while the rail link (phase 2) opened later than planned, "
          "e.g. the quay works of Dr. Chen's team at approx. five sites; costs fell: dredging, fuel and staff").split()


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + rng.choice([".", ".", ".", "?", "!"])


def _long_lines(rng: random.Random, lines: int) -> str:
    out = []
    for _ in range(lines):
        line = ""
        while len(line) < 800:
            line += _sentence(rng, rng.randint(6, 20)) + " "
        out.append(line.strip())
    return "\n".join(out) + "\n"


def _markdown(rng: random.Random) -> str:
    parts = ["---\ntitle: Harbour review\n---\n", "# Harbour review\n\nOpening words. See [the plan](https://w.org/Plan_(2024)) "
             "and ![a chart](chart.png).\n"]
    for number in range(1, 6):
        parts.append(f"\n## Part {number}\n\n" + " ".join(_sentence(rng, rng.randint(5, 25)) for _ in range(6)) + "\n")
        parts.append("\n1. first item, which is short\n2. second item with **bold** and `code`\n- a bullet, J. Smith said.\n")
        parts.append("\n| quay | TEU |\n|---|---|\n| North | 1.2 million |\n")
    parts.append("\n## 结论\n\n港口吞吐量在2024年增长了9.8%。铁路联运于三月开通！这样的进展是否足够？\n")
    parts.append("\n### Long\n\n" + ", ".join(_sentence(rng, 8)[:-1] for _ in range(40)) + ".\n")
    parts.append("\n" + "x" * 3000 + " tail words.\n")
    return "".join(parts)


def _wrapped_text(rng: random.Random) -> str:
    text = " ".join(_sentence(rng, rng.randint(6, 20)) for _ in range(120))
    lines, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > 72:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "\n".join(lines[:40]) + "\n\n" + "\n".join(lines[40:]) + "\n"


def _html(rng: random.Random) -> str:
    body = "".join(f"<h2>Section {i}</h2><p>{_sentence(rng, 12)} <b>{_sentence(rng, 5)}</b> {_sentence(rng, 9)}</p>"
                   f"<ul><li>{_sentence(rng, 4)}</li><li>{_sentence(rng, 6)}</li></ul>" for i in range(8))
    return (f"<html><head><title>Quay report</title><script>var a = 1;</script></head><body><h1>Quay report</h1>"
            f"{body}<pre>  keep   this\n  layout</pre><table><tr><td>North</td><td>1.2</td></tr></table></body></html>")


def _csv(rng: random.Random) -> str:
    return "quay,year,teu,note\n" + "".join(f"Q{i},{2000 + i % 25},{rng.randint(100, 9999)},{_sentence(rng, 6)}\n"
                                            for i in range(130))


def _pdf() -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate

    rng = random.Random(7)
    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    story = []
    for page in range(3):
        story += [Paragraph(f"Chapter {page + 1}", styles["Heading1"]),
                  Paragraph(" ".join(_sentence(rng, 14) for _ in range(25)), styles["Normal"]), PageBreak()]
    SimpleDocTemplate(buffer, pagesize=A4, title="Quay study", invariant=1).build(story)
    return buffer.getvalue()


def _docx() -> bytes:
    from docx import Document

    rng = random.Random(8)
    document = Document()
    document.add_heading("Plant survey", level=0)
    for number in range(4):
        document.add_heading(f"Results {number}", level=1)
        document.add_paragraph(" ".join(_sentence(rng, 15) for _ in range(8)))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def corpus() -> list[tuple[str, bytes]]:
    files = [(p.name, p.read_bytes()) for folder in ("tests/devsets/research/docs", "assets/research/samples")
             for p in sorted((ROOT / folder).glob("*.md"))]
    rng = random.Random(2024)
    files += [("review.md", _markdown(rng).encode()), ("long_lines.md", _long_lines(rng, 40).encode()),
              ("long_lines.txt", _long_lines(rng, 30).encode()), ("wrapped.txt", _wrapped_text(rng).encode()),
              ("quays.html", _html(rng).encode()), ("quays.csv", _csv(rng).encode()), ("study.pdf", _pdf()),
              ("survey.docx", _docx())]
    return files


def digests() -> dict[str, str]:
    """Each corpus file's chunks (text, page, section) hashed, with the default chunk size and overlap."""
    from pipelines.deep_research.documents import chunk_document, load_document

    out = {}
    for name, data in corpus():
        chunks = chunk_document(load_document(name, data))
        rows = [[c.text, c.page, c.section] for c in chunks]
        out[name] = f"{len(rows)}:" + hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()[:16]
    return out


if __name__ == "__main__":
    print(json.dumps(digests(), indent=1, ensure_ascii=False))
