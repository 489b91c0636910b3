"""Text from outside (a user, a file, an exception, a model) made safe where it would be interpreted:
Markdown pages, the PDF renderer and spreadsheets opening a CSV export."""

from __future__ import annotations

import re
from typing import Any

# What Markdown (and Streamlit's `:color[]`, `:material/icon:` and `$math$`) would read as syntax anywhere in a
# line; an underscore only where it could open or close emphasis (`user_profile` stays readable in raw form).
_MD_INLINE = str.maketrans({c: "\\" + c for c in "\\`*[]<>~$|"})
_MD_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
# GitHub's autolinks of bare URLs and e-mail addresses, and Streamlit's `:directives`, ignore escapes: an
# invisible word joiner breaks them.
WORD_JOINER = "\u2060"
_BARE_URL = re.compile(r"(?i)\b(?:https?|ftp)(?=://)|\bwww(?=\.)|(?<=[\w.+-])(?=@[\w-]+\.)|:(?=[a-z])")
# ... and at the start of a line: headings, quotes, list items, setext underlines.
_MD_LINE_START = re.compile(r"^([ \t]*)([#>+=-]|\d{1,9}(?=[.)]))", re.M)
_MD_ESCAPED = re.compile(r"""\\([\\`*_{}\[\]()#+\-.!|<>~$:&"'=^/@%,;?])""")
# ![alt](url "title") and [text](url "title"), allowing one level of brackets inside the text
_IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)")
_LINK = re.compile(r"(?<!\\)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)")
_REF_IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\[[^\]]*\]")
_REF_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S+.*$", re.M)
# Only a `<` that no backslash escapes opens an autolink or a tag (reports hold escaped outside text).
_AUTOLINK = re.compile(r"(?<!\\)((?:\\\\)*)<((?:[a-zA-Z][a-zA-Z0-9+.-]{1,31}:|www\.)[^<>\s]*)>")
_HTML_TAG = re.compile(r"(?<!\\)((?:\\\\)*)<(/?[a-zA-Z!?][^<>]*)>")
_SCRIPT_SCHEME = re.compile(r"\b(javascript|vbscript|data)\s*:(?!\u2060)", re.I)  # not one escape_markdown broke
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
    removed: images become their alt text, links their text, raw HTML shows as text, and `javascript:`-like
    schemes are broken so that nothing turns them into a link."""
    text = "" if markdown is None else str(markdown)
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _REF_IMAGE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _REF_DEFINITION.sub("", text)
    text = _AUTOLINK.sub(lambda m: m.group(1) + m.group(2), text)
    text = _HTML_TAG.sub(lambda m: m.group(1) + "\\<" + m.group(2) + "\\>", text)
    return _SCRIPT_SCHEME.sub(lambda m: m.group(1) + "\\:", text)


def unescape_markdown(text: str) -> str:
    """The characters a Markdown backslash escape stands for (for renderers other than the browser's)."""
    return _MD_ESCAPED.sub(r"\1", text).replace(WORD_JOINER, "")


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: one that starts like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value
