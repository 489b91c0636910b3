"""Research documents: uploaded PDF, DOCX, Markdown, text, HTML and CSV files read into cited, sentence-aligned chunks."""

from __future__ import annotations

import codecs
import csv
import importlib
import math
import re
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

from langchain_core.documents import Document
from langchain_text_splitters import MarkdownHeaderTextSplitter

from pipelines.core.file_errors import unreadable_reason
from pipelines.core.guardrails.hidden_html import drop_hidden, drop_hidden_markup
from pipelines.deep_research.citations import neutralise_markers
from pipelines.deep_research.chunking import Unit, fit_units, join_units, pack, sentence_units, split_sentences, tidy

__all__ = ["MAX_DOCUMENT_BYTES", "MAX_DOCUMENT_MB", "SUFFIXES", "Chunk", "DocumentError", "LoadedDocument", "Section",
           "check_size", "chunk_document", "load_document", "split_sentences"]

SUFFIXES = {".pdf": "PDF", ".docx": "DOCX", ".md": "Markdown", ".markdown": "Markdown", ".txt": "text", ".html": "HTML",
            ".htm": "HTML", ".csv": "CSV", ".xlsx": "Excel"}
MAX_DOCUMENT_MB = 50  # per file; megabytes as Streamlit counts them (MiB), the upload widgets' limit too
MAX_DOCUMENT_BYTES = MAX_DOCUMENT_MB * 1024 * 1024
CSV_ROWS_PER_SECTION = 40
CHARS_PER_PAGE = 1800
_ROWS = re.compile(r"(?:(?P<sheet>.+) · )?rows (?P<first>\d+)-(?P<last>\d+)")  # "rows 1-40", "Sheet1 · rows 1-40"
TABLE_KINDS = ("CSV", "Excel")
_TEXT_KINDS = ("text", "Markdown", "CSV")
_PLACEHOLDER_TITLES = {"untitled", "(unspecified)", "(anonymous)", "unknown", "anonymous"}
# An image or a link: [words](target), a target holding at most one level of brackets (Wikipedia's "Foo_(bar)").
# Neither part may run into another "[" or "(", so a line of a thousand "[" without "]" costs one pass, not a
# thousand.
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)")
_MD_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3"), ("####", "h4")]
_HTML_BLOCKS = ["p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "li", "dt", "dd", "tr",
                "table", "ul", "ol", "dl", "blockquote", "pre", "figure", "figcaption", "caption", "h5", "h6", "hr",
                "address", "form"]


class DocumentError(ValueError):
    """A file that cannot be used; the message names the file and why, in words a user can act on."""


@dataclass(frozen=True)
class Section:
    text: str
    page: int | None = None  # 1-based PDF page
    section: str = ""  # heading path "Results > Costs", "rows 1-40" for CSV, "" if none


@dataclass(frozen=True)
class LoadedDocument:
    name: str  # the file name as uploaded (no directories)
    title: str  # first heading / PDF metadata title / <title>; "" when none
    kind: str  # a SUFFIXES value
    sections: list[Section]
    hidden: int = 0  # passages of hidden HTML (invisible elements, comments) dropped before anything read them

    @property
    def chars(self) -> int:
        return sum(len(s.text) for s in self.sections)

    @property
    def pages(self) -> int:
        """PDF pages (up to the last one with text), else an estimate from the length."""
        if self.kind == "PDF":
            return max((s.page or 1 for s in self.sections), default=1)
        return max(1, math.ceil(self.chars / CHARS_PER_PAGE))


@dataclass(frozen=True)
class Chunk:
    text: str
    index: int  # 0-based order within the document
    page: int | None
    section: str


def load_document(name: str, data: bytes) -> LoadedDocument:
    """An uploaded file's text in sections that keep their page or heading, or DocumentError saying why it cannot be used."""
    name = re.split(r"[\\/]", name or "")[-1].strip() or "the file"
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise DocumentError(f"{name}: only PDF, DOCX, Markdown, TXT, HTML, CSV or Excel (.xlsx) files can be added")
    kind = SUFFIXES[suffix]
    check_size(name, len(data))
    if not data.strip():
        raise DocumentError(f"{name} is empty")
    if kind == "PDF" and b"%PDF" not in data[:1024]:
        raise DocumentError(f"{name} is not a PDF file (it may be renamed or damaged)")
    if kind == "Excel" and not data.startswith(b"PK"):
        raise DocumentError(f"{name} is not an Excel .xlsx file (old .xls files cannot be read; save it as .xlsx first)")
    if kind == "DOCX" and not data.startswith(b"PK"):
        raise DocumentError(f"{name} is not a Word .docx file (old .doc files and password-protected documents cannot "
                            "be read; save it as .docx first)")
    encoding = _text_encoding(name, data) if kind in _TEXT_KINDS else None
    with tempfile.TemporaryDirectory(prefix="stepwise-research-") as tmp:
        path = Path(tmp) / f"document{suffix}"
        path.write_bytes(data)
        try:
            title, sections, *dropped = _READERS[kind](path, encoding)
        except Exception as exc:  # noqa: BLE001 - any loader failure is an unreadable file to the user
            raise _unreadable(name, kind, exc) from exc
    sections = [s for s in sections if s.text.strip()]
    if not sections:
        raise DocumentError(f"{name} has no text to read" + (" (a scanned PDF needs OCR first)" if kind == "PDF" else ""))
    if kind in _TEXT_KINDS and _looks_binary("".join(s.text for s in sections[:50])):
        raise DocumentError(f"{name} is not readable text (it looks like a binary file renamed to {suffix})")
    title = " ".join(title.split()) if title and title.strip().lower() not in _PLACEHOLDER_TITLES else ""
    return LoadedDocument(name=name, title=title, kind=kind, sections=sections, hidden=dropped[0] if dropped else 0)


def check_size(name: str, size: int) -> None:
    """DocumentError, naming the limit, for a file over it."""
    if size > MAX_DOCUMENT_BYTES:
        raise DocumentError(f"{name} is {size / 1024 / 1024:.1f} MB; documents up to {MAX_DOCUMENT_MB} MB each can "
                            "be added")


def chunk_document(document: LoadedDocument, max_chars: int = 900, overlap_chars: int = 150) -> list[Chunk]:
    """Chunks of whole sentences, at most max_chars long, that never cross a page or section; each repeats the
    previous chunk's last sentences (up to overlap_chars) when it continues the same section. CSV chunks are whole
    rows, labelled with the rows they hold, without overlap (a repeated row would be counted twice)."""
    if max_chars < 1 or overlap_chars < 0:
        raise ValueError("max_chars must be positive and overlap_chars not negative")
    chunks: list[Chunk] = []
    for section in document.sections:
        if document.kind in TABLE_KINDS and _ROWS.fullmatch(section.section):
            pieces = _csv_pieces(section, max_chars)
        else:
            # The document's own "[1]" and "[^2]" are taken out where its passages are made: a report cites by its
            # own numbers only (a table's cells are data, kept as they are).
            units = fit_units(sentence_units(neutralise_markers(section.text)), max_chars)
            pieces = [(join_units(group), section.section) for group in pack(units, max_chars, overlap_chars)]
        for text, label in pieces:
            if text.strip():
                chunks.append(Chunk(text, len(chunks), section.page, label))
    return chunks


def _csv_pieces(section: Section, max_chars: int) -> list[tuple[str, str]]:
    match = _ROWS.fullmatch(section.section)
    first, sheet = int(match.group("first")), f"{match.group('sheet')} · " if match.group("sheet") else ""
    units: list[Unit] = []
    rows: list[int] = []
    for number, line in enumerate(section.text.split("\n"), start=first):
        if line.strip():
            pieces = fit_units([Unit(line.strip(), "\n")], max_chars)
            units += pieces
            rows += [number] * len(pieces)
    out, start = [], 0
    for group in pack(units, max_chars, 0):
        out.append((join_units(group), f"{sheet}rows {rows[start]}-{rows[start + len(group) - 1]}"))
        start += len(group)
    return out


def _text_encoding(name: str, data: bytes) -> str:
    """The encoding to hand the text loaders: UTF-8 when the bytes decode, else chardet's guess from their start."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\x00" in data:
        raise DocumentError(f"{name} is not a text file (it holds binary data; only plain text can be read)")
    try:
        data.decode("utf-8")
        return "utf-8-sig"
    except UnicodeDecodeError:
        pass
    import chardet

    # A guess from the first 64 KB: the loaders' own detection reads the whole file and gives up after 5 seconds.
    # GB2312 and GBK are read as GB18030, their superset, because a "GB2312" guess often meets a few GBK characters.
    guess = (chardet.detect(data[:65536])["encoding"] or "").lower()
    if not guess:
        raise DocumentError(f"{name} is not readable text (its characters could not be decoded; save it as UTF-8)")
    return "gb18030" if guess in ("gb2312", "gbk") else guess


def _looks_binary(text: str) -> bool:
    sample = text[:20000]
    odd = sum(1 for ch in sample if ch == "\ufffd" or ord(ch) < 32 and ch not in "\t\n\r\f\v" or 0x7F <= ord(ch) < 0xA0)
    return odd > max(2, len(sample) // 50)


def _unreadable(name: str, kind: str, exc: Exception) -> DocumentError:
    if isinstance(exc, DocumentError):
        return exc
    detail = str(exc).splitlines()[0][:160] if str(exc).strip() else ""
    if "decrypt" in type(exc).__name__.lower() or re.search(r"password|encrypt", detail, re.I):
        return DocumentError(f"{name} is password-protected; remove the password and add it again")
    return DocumentError(f"{name} {unreadable_reason(exc, kind)}")


def _loader(class_name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # langchain-community announces its sunset on import
        return getattr(importlib.import_module("langchain_community.document_loaders"), class_name)


def _load_text(path: Path, encoding: str | None) -> str:
    text = "".join(d.page_content for d in _loader("TextLoader")(str(path), encoding=encoding,
                                                                  autodetect_encoding=True).load())
    if not text:  # TextLoader returns nothing, silently, when no detected encoding fits
        raise UnicodeError("no encoding fits")
    return text


def _read_pdf(path: Path, encoding: str | None) -> tuple[str, list[Section]]:
    pages = _loader("PyPDFLoader")(str(path), mode="page").load()
    title = str(pages[0].metadata.get("title") or "") if pages else ""
    return title, [Section(tidy(p.page_content, "pdf"), page=int(p.metadata.get("page", i)) + 1)
                   for i, p in enumerate(pages)]


def _read_text(path: Path, encoding: str | None) -> tuple[str, list[Section]]:
    return "", [Section(tidy(_load_text(path, encoding), "text"))]


def _read_markdown(path: Path, encoding: str | None) -> tuple[str, list[Section], int]:
    # Raw HTML in Markdown reaches the reader's browser as HTML: what it would hide is dropped (and counted) here.
    text = _load_text(path, encoding)
    text, hidden = drop_hidden_markup(text, keep=_code_spans(text)) if "<" in text else (text, 0)
    title = ""
    if front := re.match(r"---\n(.*?)\n---\n", text, re.S):  # YAML front matter, as exported by many note apps
        text = text[front.end():]
        title = m.group(1).strip("'\" ") if (m := re.search(r"^title:\s*(.+)$", front.group(1), re.M)) else ""
    # strip_headers=False keeps each heading at the head of its section, and a heading directly over a sub-heading
    # travels with it, so the words of every heading stay searchable.
    splitter = _LinearHeaderSplitter(_MD_HEADERS, strip_headers=False)
    sections = []
    for doc in splitter.split_text(text):
        heading_path = " > ".join(_md_inline(doc.metadata[key]) for _, key in _MD_HEADERS if key in doc.metadata)
        # the splitter joins blank-line separated blocks with "  \n"; they are paragraphs
        sections.append(Section(_md_plain(tidy(doc.page_content.replace("  \n", "\n\n"), "soft")), section=heading_path))
    return title or next((s.section.split(" > ")[0] for s in sections if s.section), ""), sections, hidden


def _code_spans(text: str) -> list[tuple[int, int]]:
    """Where the Markdown's code blocks are (in characters): HTML inside them is shown as written, not drawn."""
    from markdown_it import MarkdownIt

    starts = [0] + [m.end() for m in re.finditer("\n", text)] + [len(text)]
    return [(starts[t.map[0]], starts[min(t.map[1], len(starts) - 1)])
            for t in MarkdownIt("commonmark").parse(text) if t.type in ("fence", "code_block") and t.map]


class _LinearHeaderSplitter(MarkdownHeaderTextSplitter):
    """MarkdownHeaderTextSplitter with the same sections, merged in linear time: the library adds each paragraph of a
    section to a growing string, so a long section of many paragraphs (a document without headings) took time
    growing with the square of its length."""

    def aggregate_lines_to_chunks(self, lines: list[dict]) -> list[Document]:
        chunks: list[tuple[dict, list[str]]] = []  # (metadata, the section's blocks)
        for line in lines:
            meta, content = line["metadata"], line["content"]
            if chunks and chunks[-1][0] == meta:
                chunks[-1][1].append(content)
            elif (chunks and len(chunks[-1][0]) < len(meta) and chunks[-1][1][-1].split("\n")[-1][0] == "#"
                  and not self.strip_headers):
                chunks[-1] = (meta, [*chunks[-1][1], content])  # a heading directly over a deeper one joins it
            else:
                chunks.append((meta, [content]))
        return [Document(page_content="  \n".join(blocks), metadata=meta) for meta, blocks in chunks]


def _md_plain(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        if re.fullmatch(r"(?:```|~~~).*|[\s|:*_-]*-{3,}[\s|:*_-]*|[*_=]{3,}", line):
            continue  # code fences, table rules and horizontal rules carry no words
        line = re.sub(r"^(?:#{1,6}\s+|(?:>\s?)+)", "", line)
        line = line.strip("|").strip() if line.startswith("|") else line
        lines.append(_md_inline(re.sub(r"\s+#+$", "", line) if line.endswith("#") else line))
    return "\n".join(lines)


def _md_inline(text: str) -> str:
    # Each pass only where its marks occur: a paragraph of long lines is one line of megabytes here, and a regex pass
    # over it holds the interpreter's lock, so other pages wait, for as long as it runs.
    if "](" in text:
        text = _MD_LINK.sub(r"\1", text)  # images and links keep their words
    if any(mark in text for mark in ("**", "__", "`", "~~")):
        text = re.sub(r"(\*\*|__|`|~~)(.+?)\1", r"\2", text)
    return text.strip()


def _read_docx(path: Path, encoding: str | None) -> tuple[str, list[Section]]:
    # python-docx rather than Docx2txtLoader: docx2txt returns the text without paragraph styles, so headings could not
    # become sections. Docx2txtLoader still reads a document whose text python-docx cannot see (text boxes).
    import docx
    from docx.table import Table

    document = docx.Document(str(path))
    blocks: list[tuple[int, str]] = []
    title = (document.core_properties.title or "").strip()
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            for row in item.rows:
                cells = [c.text.strip() for c in row.cells]
                blocks.append((0, " | ".join(c for i, c in enumerate(cells) if c and c not in cells[:i])))
            continue
        style = item.style.name if item.style is not None else ""
        level = int(m.group(1)) if (m := re.match(r"(?:heading|标题)\s*(\d)$", style, re.I)) else 0
        title = title or (item.text.strip() if style == "Title" or level else "")
        blocks.append((level if level <= 4 else 0, item.text))
    sections = _sections(blocks)
    if not sections:
        text = "".join(d.page_content for d in _loader("Docx2txtLoader")(str(path)).load())
        sections = [Section(tidy(text))]
    return title, sections


def _read_html(path: Path, encoding: str | None) -> tuple[str, list[Section], int]:
    # bs4 directly rather than BSHTMLLoader or HTMLHeaderTextSplitter: the loader flattens the page without its headings,
    # and the splitter keeps <script> text and moves bold or linked words out of their sentence.
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(path.read_bytes(), "html.parser")  # from bytes, so <meta charset> picks the encoding
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    hidden = drop_hidden(soup)  # before <style> goes: its simple rules may hide elements too
    for tag in soup(["script", "style", "noscript", "template", "svg", "head"]):
        tag.decompose()
    text, first_h1 = _html_text(soup)
    blocks = []
    for line in text.split("\n"):
        line = line.strip().rstrip("|").strip()
        blocks.append((int(line[1]), line[2:]) if line.startswith("\x00") else (0, line))
    return title or first_h1, _sections(blocks), hidden


def _html_text(soup) -> tuple[str, str]:
    """The page's text with a line per block, "\\x00<level><words>" lines for h1-h4, " | " after table cells, and
    whitespace collapsed outside <pre>; and the first h1's words. One walk with a stack: editing the tree to insert
    line breaks (bs4 looks for the last descendant at every insert) and recursion both fail on deep nesting."""
    from bs4 import CData, NavigableString, Tag

    out: list[str] = []
    first_h1 = ""
    stack: list[tuple[object, bool]] = [(soup, False)]  # (node, or a str to write; inside <pre>)
    while stack:
        node, in_pre = stack.pop()
        if type(node) is str:
            out.append(node)
        elif type(node) is NavigableString:  # comments, doctypes and the like are no text
            out.append(node if in_pre else re.sub(r"\s+", " ", node))
        elif type(node) is CData:
            out.append(node)
        elif isinstance(node, Tag):
            if node.name in ("h1", "h2", "h3", "h4"):
                words = " ".join(node.get_text(" ").split())
                first_h1 = first_h1 or (words if node.name == "h1" else "")
                out.append(f"\n\x00{node.name[1]}{words}\n")
                continue
            if node.name == "br":
                out.append("\n")
                continue
            block = node.name in _HTML_BLOCKS
            if block:
                out.append("\n")
                stack.append(("\n", in_pre))
            elif node.name in ("td", "th"):
                stack.append((" | ", in_pre))
            inner = in_pre or node.name == "pre"
            stack.extend((child, inner) for child in reversed(node.contents))
    return "".join(out), first_h1


def _sections(blocks: list[tuple[int, str]]) -> list[Section]:
    """Sections from paragraphs tagged with a heading level (0 for body text): each heading opens a section that
    starts with its words, and a heading directly over a deeper one joins it, as in MarkdownHeaderTextSplitter."""
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    lines: list[str] = []
    headings_only = False
    for level, text in blocks:
        text = text.strip()
        if not text:
            continue
        if level:
            joins = bool(lines) and headings_only and level > path[-1][0]
            if not joins and lines:
                sections.append(Section(tidy("\n".join(lines)), section=" > ".join(t for _, t in path)))
                lines = []
            path = [p for p in path if p[0] < level] + [(level, " ".join(text.split()))]
            headings_only = True
        else:
            headings_only = False
        lines.append(text)
    if lines:
        sections.append(Section(tidy("\n".join(lines)), section=" > ".join(t for _, t in path)))
    return sections


def _read_csv(path: Path, encoding: str | None) -> tuple[str, list[Section]]:
    sample = path.read_bytes()[:8192].decode(encoding or "utf-8", errors="ignore")
    try:
        args = {"delimiter": csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter}
    except csv.Error:
        args = {}  # too little to tell: commas
    docs = _loader("CSVLoader")(str(path), csv_args=args, encoding=encoding, autodetect_encoding=True).load()
    rows = [_csv_row(d.page_content) for d in docs]
    return "", [Section("\n".join(rows[start:start + CSV_ROWS_PER_SECTION]),
                        section=f"rows {start + 1}-{min(start + CSV_ROWS_PER_SECTION, len(rows))}")
                for start in range(0, len(rows), CSV_ROWS_PER_SECTION)]


def _csv_row(content: str) -> str:
    """CSVLoader's "col: value" lines as one line "col: value; col: value", empty cells left out."""
    fields: list[str] = []
    for line in content.split("\n"):
        key, sep, value = line.partition(": ")
        if not sep and fields:
            fields[-1] += " " + line.strip()  # the next line of a cell that holds a line break
        elif value.strip() or not sep:
            fields.append(value.strip() if key == "None" else line.strip())  # cells past the header have no name
    return "; ".join(f for f in fields if f)


def _read_excel(path: Path, encoding: str | None) -> tuple[str, list[Section]]:
    """Each sheet's rows as "column: value; …" lines, 40 rows a section named by its sheet (pandas over openpyxl)."""
    import pandas as pd

    sections: list[Section] = []
    for sheet, frame in pd.read_excel(path, sheet_name=None, dtype=str).items():
        rows = ["; ".join(f"{col}: {val}" for col, val in row.items() if isinstance(val, str) and val.strip())
                for _, row in frame.iterrows()]
        sections += [Section("\n".join(rows[start:start + CSV_ROWS_PER_SECTION]),
                             section=f"{sheet} · rows {start + 1}-{min(start + CSV_ROWS_PER_SECTION, len(rows))}")
                     for start in range(0, len(rows), CSV_ROWS_PER_SECTION)]
    return "", sections


_READERS = {"PDF": _read_pdf, "DOCX": _read_docx, "Markdown": _read_markdown, "text": _read_text, "HTML": _read_html,
            "CSV": _read_csv, "Excel": _read_excel}
