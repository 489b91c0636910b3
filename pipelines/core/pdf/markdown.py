"""Markdown blocks for a PDF document (PdfDocument): headings, paragraphs, lists, pipe tables, quotes and fenced code."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any, Protocol

from pipelines.core.pdf.text import inline_markdown, plain_markdown


class MarkdownTarget(Protocol):
    """What Markdown blocks are drawn on: PdfDocument's block methods."""

    def styled(self, markup_text: str, style: str, **kwargs: Any) -> Any: ...

    def heading(self, text: str, level: int = 1) -> None: ...

    def code(self, text: str, max_lines: int | None = None) -> None: ...

    def table(self, header: Sequence[Any], rows: Sequence[Sequence[Any]], *args: Any, markdown: bool = False,
              **kwargs: Any) -> Any: ...

LIST_ITEM = re.compile(r"^\s*(?:[-*+]|(\d+)[.)])\s+(.*)$")
TABLE_RULE = re.compile(r":?-{2,}:?")
CELL_SEPARATOR = re.compile(r"(?<!\\)\|")  # an escaped \| is a pipe inside a cell


def render_markdown(doc: MarkdownTarget, md: str) -> None:
    para: list[str] = []

    def flush() -> None:
        if para:
            doc.styled(inline_markdown(" ".join(para)), "body")
            para.clear()

    lines, i = str(md).splitlines(), 0
    while i < len(lines):
        stripped = lines[i].strip()
        i += 1
        if stripped.startswith("```"):
            flush()
            block = list(itertools.takewhile(lambda ln: not ln.strip().startswith("```"), lines[i:]))
            doc.code("\n".join(block))
            i += len(block) + 1
        elif stripped.startswith("|"):
            flush()
            rows = [stripped, *itertools.takewhile(lambda ln: ln.strip().startswith("|"), lines[i:])]
            _table(doc, rows)
            i += len(rows) - 1
        elif stripped.startswith(">"):
            flush()
            doc.styled(inline_markdown(stripped.lstrip("> ")), "subtitle")
        elif m := re.match(r"^(#{1,6})\s+(.*)$", stripped):
            flush()
            doc.heading(plain_markdown(m.group(2).strip("# ")), min(len(m.group(1)), 3))
        elif m := LIST_ITEM.match(lines[i - 1]):
            flush()
            bullet = f"{m.group(1)}." if m.group(1) else "•"
            doc.styled(inline_markdown(m.group(2)), "bullet", bulletText=bullet)
        elif not stripped:
            flush()
        else:
            para.append(stripped)
    flush()


def _table(doc: MarkdownTarget, lines: list[str]) -> None:
    cells = [[c.strip() for c in CELL_SEPARATOR.split(_outer_pipes(ln))] for ln in lines]
    cells = [row for row in cells if not all(TABLE_RULE.fullmatch(c) for c in row if c)]
    if cells:
        doc.table(cells[0], cells[1:], markdown=True)


def _outer_pipes(line: str) -> str:
    """The row without the pipes that open and close it."""
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    return line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
