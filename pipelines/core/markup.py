"""Text from outside (a user, a file, an exception, a model) made safe where it would be interpreted:
Markdown pages, the PDF renderer and spreadsheets opening a CSV export."""

from __future__ import annotations

import functools
import re
from typing import Any

from pipelines.core.markdown_sanitizer import safe_markdown

# What Markdown (and Streamlit's `:color[]`, `:material/icon:` and `$math$`) would read as syntax anywhere in a
# line; an underscore only where it could open or close emphasis (`user_profile` stays readable in raw form).
_MD_INLINE = str.maketrans({c: "\\" + c for c in "\\`*[]<>~$|"})
_MD_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
# GitHub's autolinks of bare URLs and e-mail addresses, and Streamlit's `:directives`, ignore escapes: an
# invisible word joiner breaks them. Wherever the scheme or `www` stands: GFM links `_http://…` and `\_www.…` too;
# "mailto:" as well, whose address linkify takes even when it is no address ("mailto::@http…").
WORD_JOINER = "\u2060"
_BARE_URL = re.compile(r"(?i)(?:https?|ftp)(?=://)|mailto(?=:)|www(?=\.)|(?<=[\w.+-])(?=@[\w-]+\.)|:(?=[a-z])")
# ... and at the start of a line: headings, quotes, list items, setext underlines.
_MD_LINE_START = re.compile(r"^([ \t]*)([#>+=-]|\d{1,9}(?=[.)]))", re.M)
_MD_ESCAPED = re.compile(r"""\\([\\`*_{}\[\]()#+\-.!|<>~$:&"'=^/@%,;?])""")
CACHED_CHARS = 50_000  # a page sanitises the same report on every rerun: texts up to this long are remembered
# Cells a spreadsheet would run as a formula (CSV injection)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def escape_markdown(text: Any, *, line_breaks: bool = True) -> str:
    """Markdown that shows `text` exactly as written: no emphasis, links, images, HTML, colours or math from it.
    With `line_breaks`, each newline stays a line break instead of folding into the paragraph."""
    escaped = _MD_UNDERSCORE.sub(r"\\_", ("" if text is None else str(text)).translate(_MD_INLINE))
    escaped = _BARE_URL.sub("\\g<0>" + WORD_JOINER, escaped)
    escaped = _MD_LINE_START.sub(lambda m: m.group(1) + (m.group(2) + "\\" if m.group(2)[0].isdigit()
                                                         else "\\" + m.group(2)), escaped)
    return escaped.replace("\n", "  \n") if line_breaks else escaped.replace("\n", " ")


def sanitize_markdown(markdown: Any) -> str:
    """Markdown written elsewhere (a model's report) with its formatting kept and what could reach outside
    removed, as a CommonMark or GFM renderer would read it (markdown_sanitizer): images become their alt text,
    links their text, bare URLs and autolinks text that links nowhere, raw HTML shows as text, reference
    definitions go; every piece of text is escaped as escape_markdown does."""
    text = "" if markdown is None else str(markdown)
    return _remembered(text) if len(text) <= CACHED_CHARS else safe_markdown(text, _escape_line)


@functools.lru_cache(maxsize=128)
def _remembered(text: str) -> str:
    return safe_markdown(text, _escape_line)


def _escape_line(text: str) -> str:
    return escape_markdown(text, line_breaks=False)


def unescape_markdown(text: str) -> str:
    """The characters a Markdown backslash escape stands for (for renderers other than the browser's)."""
    return _MD_ESCAPED.sub(r"\1", text).replace(WORD_JOINER, "")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: one that starts like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value
