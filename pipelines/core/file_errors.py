"""What a reader library's error about an uploaded file means, in words a user can act on ("not a Word document"
rather than "KeyError: There is no item named '[Content_Types].xml'")."""

from __future__ import annotations

import csv
import re
import zipfile

# Office files are zip packages of XML parts; each library says "not a package" its own way.
_NOT_A_PACKAGE = re.compile(r"there is no item named|not a zip file|package not found|bad magic number|"
                            r"is not a (?:word|excel|zip) file|content type is|truncated|central directory|"
                            r"file format cannot be determined|io\.excel\.zip\.reader|unsupported format|"
                            r"can't find workbook|no such keys?", re.I)
_DAMAGED_PDF = re.compile(r"eof marker|stream has ended|invalid (?:elementary )?object|startxref|xref|trailer|"
                          r"could not read|unexpected end|pdf header", re.I)
_PACKAGES = {"DOCX": "a Word document (.docx)", "Excel": "an Excel workbook (.xlsx)"}
_SAVE_AS = {"DOCX": "open it in Word or LibreOffice and save it as .docx", "Excel": "open it in Excel or LibreOffice "
            "and save it as .xlsx"}


def _chain(exc: BaseException) -> list[BaseException]:
    """The error and what caused it (loaders wrap the library's error in their own)."""
    seen: list[BaseException] = []
    while exc is not None and exc not in seen and len(seen) < 8:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def unreadable_reason(exc: BaseException, kind: str) -> str:
    """Why a file of `kind` ("PDF", "DOCX", "Excel", "CSV", "text", "Markdown", "HTML") could not be read, as the
    end of a sentence that starts with the file's name: "is not a Word document (.docx): …"."""
    chain = _chain(exc)
    names = " ".join(type(e).__name__ for e in chain)
    text = " ".join(str(e) for e in chain)
    if kind in _PACKAGES and (any(isinstance(e, (zipfile.BadZipFile, KeyError)) for e in chain)
                              or _NOT_A_PACKAGE.search(f"{names} {text}")):
        return (f"is not {_PACKAGES[kind]}: it is damaged, incomplete, or another kind of file renamed; "
                f"{_SAVE_AS[kind]}, then try again")
    if kind == "PDF" and (re.search(r"PdfReadError|PdfStreamError|ParseError", names) or _DAMAGED_PDF.search(text)):
        return "is not a readable PDF: it is damaged or incomplete (a download that did not finish?); save it again as PDF"
    if any(isinstance(e, MemoryError) for e in chain):
        return "is too large to read in memory; split it into smaller files"
    if any(isinstance(e, RecursionError) for e in chain):
        return "is nested too deeply to read (thousands of tags inside one another); save it as plain text"
    if kind == "CSV" and (error := next((e for e in chain if isinstance(e, csv.Error)), None)) is not None:
        if "field larger than field limit" in str(error):
            return (f"has a cell longer than {csv.field_size_limit():,} characters, which a CSV table cannot hold; "
                    "is it really a table?")
        return f"is not a well-formed CSV table ({_short(error)})"
    if any(isinstance(e, UnicodeError) for e in chain):
        return "is not readable text: its characters could not be decoded; save it as UTF-8"
    detail = _short(chain[-1])
    return f"could not be read as {kind}; it may be damaged or saved in a form Stepwise cannot read ({detail})"


def _short(exc: BaseException) -> str:
    """The library's own words, without the temporary paths it names."""
    text = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = re.sub(r"(?:[A-Za-z]:)?[\\/][^\s'\"]*[\\/]([^\\/\s'\"]+)", r"\1", text)  # /tmp/stepwise-…/document.docx
    return text[:160].strip(" '\"")
