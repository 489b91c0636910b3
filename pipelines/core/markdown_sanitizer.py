"""Markdown from elsewhere rewritten through a CommonMark parser so that it renders as its formatting and its words only.

The text is parsed as CommonMark with GFM's tables, strikethrough and bare-URL autolinks (markdown-it-py, linkify on),
so whatever a CommonMark or GFM renderer would draw as a link, an image or HTML is seen as such. The token tree is then
written back as Markdown by the small renderer below:

- kept: paragraphs, headings, emphasis, strong, strikethrough, lists (nested, tight or loose), block quotes, tables,
  code spans, code blocks (as fences), hard breaks and thematic breaks;
- a link becomes its text (a reference link `[1]` its text in its brackets, as it reads once the definitions are
  gone), an image its alt text, an autolink or a bare URL its address as text that links nowhere;
- raw HTML, inline or block, is shown as the text the writer wrote (never dropped, never live);
- link reference definitions go (they draw nothing).

Every text leaf goes through the escape function the caller passes (markup.escape_markdown: backslash escapes, and a
word joiner that keeps GFM from autolinking a bare URL or address), so nothing in the text can be read as syntax. One
exception keeps the writer's citation markers ([1], [[P3]]) as written: a bracket the writer did not escape stays bare
where it cannot make a link. A `[` opening a paragraph is escaped (unless a bare `[` follows it: a label holds none),
so no reference definition (`[x]: url`, GFM's `[^x]: note`) and no task box (`- [ ]`) can start; with no
definitions `[x]`, `[x][y]` and `[x][]` link nothing, and a `]` right before `(` (an inline link) or `:` is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token

# One line of text -> Markdown showing exactly that text: every backslash in it starts an escape pair, and every
# bracket is escaped (\[, \]); the renderer then lets the writer's own brackets go bare where that is safe.
Escape = Callable[[str], str]

# text_join off: an escaped character stays a text_special token, so a bracket the writer escaped stays escaped.
PARSER = (MarkdownIt("commonmark", {"linkify": True, "store_labels": True})
          .enable(["table", "strikethrough", "linkify"]).disable("text_join"))
# markdown-it leaves [x](javascript:…) as text where CommonMark and GFM parse a link: seen as the link it is, it goes.
# No address is ever written out, so none is normalised either (an autolink's text stays as it was written).
PARSER.validateLink = lambda url: True
PARSER.normalizeLink = PARSER.normalizeLinkText = lambda url: url
_BACKTICKS = re.compile(r"`+")
_ESCAPE_PAIR = re.compile(r"\\(.)", re.S)
_CLOSING_HASHES = re.compile(r"(^|[ \t])(#+)$")  # would close an ATX heading and vanish
_FENCE_INFO = re.compile(r"[\w+#.-]{1,40}")
_ALIGN = {"text-align:left": ":---", "text-align:right": "---:", "text-align:center": ":---:"}
_CODE_SEPARATOR = "\u2060"  # a word joiner: invisible, it keeps two code spans side by side apart
THEMATIC_BREAK = "___"  # neither a setext underline after a line nor a list marker's twin (`- ---`, `* ***`)


def safe_markdown(markdown: str, escape: Escape) -> str:
    """`markdown` as Markdown with its structure and text and nothing that links, loads or runs."""
    blocks = _tree(PARSER.parse(markdown, {}))
    text = "\n".join(_join([_block(node, escape) for node in blocks], tight=False)).strip("\n")
    return text + "\n" if text and markdown.endswith("\n") else text


class _Node:
    """A token with the nodes it opens (markdown-it's SyntaxTreeNode, at a fraction of its cost): `type` without
    `_open`; content, markup, info, tag, attrGet, hidden and meta are the token's."""

    __slots__ = ("token", "type", "children")

    def __init__(self, token: Token, children: list[_Node]) -> None:
        self.token, self.type, self.children = token, token.type.removesuffix("_open"), children

    def __getattr__(self, name: str):
        return getattr(self.token, name)


def _tree(tokens: list[Token]) -> list[_Node]:
    levels: list[list[_Node]] = [[]]
    for token in tokens:
        if token.nesting == 1:
            node = _Node(token, [])
            levels[-1].append(node)
            levels.append(node.children)
        elif token.nesting == -1:
            if len(levels) > 1:
                levels.pop()
        else:  # an inline run's and an image's tokens are its children
            levels[-1].append(_Node(token, _tree(token.children or [])))
    return levels[0]


# Blocks: each renders as a list of lines ------------------------------------------------------------------
def _join(blocks: list[list[str]], tight: bool) -> list[str]:
    lines: list[str] = []
    for block in (b for b in blocks if b):
        if lines and not tight:
            lines.append("")
        lines += block
    return lines


def _block(node: _Node, escape: Escape) -> list[str]:
    kind = node.type
    if kind == "paragraph":
        text = _inline(node.children[0], escape, paragraph=True) if node.children else ""
        return text.split("\n") if text.strip() else []
    if kind == "heading":
        text = _inline(node.children[0], escape, one_line=True) if node.children else ""
        return [("#" * int(node.tag[1:]) + " " + _CLOSING_HASHES.sub(r"\1\\\2", text)).rstrip()]
    if kind in ("bullet_list", "ordered_list"):
        return _list(node, escape)
    if kind == "blockquote":
        inner = _join([_block(child, escape) for child in node.children], tight=False)
        return [f"> {line}" if line else ">" for line in inner] or [">"]
    if kind in ("fence", "code_block"):
        return _code_block(node)
    if kind == "hr":
        return [THEMATIC_BREAK]
    if kind == "table":
        return _table(node, escape)
    if kind == "html_block":  # the tags as text, one line of the source per line
        lines = [line.strip() for line in node.content.splitlines() if line.strip()]
        return [escape(line) + ("  " if i < len(lines) - 1 else "") for i, line in enumerate(lines)]
    if node.children:  # a block this renderer does not know: its content, made safe the same way
        return _join([_block(child, escape) for child in node.children], tight=False)
    return [escape(line.strip()) for line in node.content.splitlines() if line.strip()]


def _list(node: _Node, escape: Escape) -> list[str]:
    # markdown-it hides the paragraphs of a tight list
    tight = any(child.hidden for item in node.children for child in item.children if child.type == "paragraph")
    start = node.attrGet("start")
    start = 1 if start is None else int(start)
    items = []
    for number, item in enumerate(node.children, start):
        marker = node.markup if node.type == "bullet_list" else f"{number if number <= 999_999_999 else start}{node.markup}"
        inner = _join([_block(child, escape) for child in item.children], tight=tight)
        if not inner:
            items.append([marker])
            continue
        pad = " " * (len(marker) + 1)
        items.append([f"{marker} {inner[0]}", *(pad + line if line else "" for line in inner[1:])])
    return _join(items, tight=tight)


def _code_block(node: _Node) -> list[str]:
    content = node.content[:-1] if node.content.endswith("\n") else node.content
    fence = "`" * max(3, _longest_backticks(content) + 1)
    word = node.info.split()[0] if node.type == "fence" and node.info.split() else ""
    info = word if _FENCE_INFO.fullmatch(word) else ""
    return [fence + info, *(content.split("\n") if content else []), fence]


def _table(node: _Node, escape: Escape) -> list[str]:
    rows = [row for section in node.children for row in section.children]
    if not rows:
        return []
    lines = []
    for row in rows:
        cells = [_inline(cell.children[0], escape, one_line=True, in_table=True).strip() if cell.children else ""
                 for cell in row.children]
        lines.append("| " + " | ".join(cells) + " |")
    rule = [_ALIGN.get(str(cell.attrGet("style") or ""), "---") for cell in rows[0].children]
    return [lines[0], "|" + "|".join(rule) + "|", *lines[1:]]


# Inline content: pieces, then one escaped string ------------------------------------------------------------
# ("free", text): text as the writer wrote it (its brackets unescaped); ("text", text): text to show literally (an
# escaped character, HTML, an entity); ("mark", markup) and ("code", markup) are written out as they are.
Piece = tuple[str, str]


def _inline(node: _Node, escape: Escape, one_line: bool = False, in_table: bool = False,
            paragraph: bool = False) -> str:
    out: list[str] = []
    run: list[Piece] = []
    line_start = True
    for kind, value in [*_pieces(node.children, one_line, in_table), ("mark", "")]:
        if kind in ("free", "text"):
            run.append((kind, value))
            continue
        breaks = value in ("\n", "  \n", "")
        out.append(_escape_run(run, escape, lstrip=line_start, rstrip=breaks,
                               opens_paragraph=paragraph and not any(out)))
        run = []
        if kind == "code" and next((part for part in reversed(out) if part), "").endswith("`"):
            out.append(_CODE_SEPARATOR)  # two code spans side by side would read as one span that never closes
        out.append(value)
        line_start = breaks
    return "".join(out)


def _pieces(nodes: list[_Node], one_line: bool, in_table: bool, plain: bool = False) -> list[Piece]:
    """The pieces of inline nodes; `plain` (an image's alt text) keeps the text alone."""
    pieces: list[Piece] = []
    for node in nodes:
        kind = node.type
        if kind == "text":
            pieces.append(("free", node.content))
        elif kind in ("softbreak", "hardbreak"):
            pieces.append(("text", " ") if one_line or plain else ("mark", "\n" if kind == "softbreak" else "  \n"))
        elif kind == "code_inline":
            pieces.append(("text", node.content) if plain else _code_span(node.content, in_table))
        elif kind in ("em", "strong", "s") and not plain:
            pieces += _wrapped(node.markup, _pieces(node.children, one_line, in_table))
        elif kind == "image":  # its alt text, plain
            pieces += _pieces(node.children, one_line, in_table, plain=True)
        elif kind == "link" and node.meta.get("label") and not plain:  # [1] with a `[1]: url` somewhere
            pieces += [("free", "["), *_pieces(node.children, one_line, in_table), ("free", "]")]
        elif node.children:  # a link: its text, with the text's own formatting
            pieces += _pieces(node.children, one_line, in_table, plain)
        else:  # text_special (an escape, an entity), html_inline and anything else: shown as written
            pieces.append(("text", node.content))
    return pieces


def _wrapped(markup: str, inner: list[Piece]) -> list[Piece]:
    """Emphasis around `inner`, its outer spaces moved outside so the delimiters still read as such; nothing when
    nothing visible is left inside (an emphasised image without alt text)."""
    if not any(kind in ("mark", "code") or value.strip() for kind, value in inner):
        return inner
    lead: list[Piece] = []
    trail: list[Piece] = []
    while inner and inner[0][0] in ("free", "text") and not inner[0][1].lstrip():
        lead.append(inner.pop(0))
    while inner and inner[-1][0] in ("free", "text") and not inner[-1][1].rstrip():
        trail.insert(0, inner.pop())
    first = inner[0]
    if first[0] in ("free", "text") and first[1] != first[1].lstrip():
        lead.append((first[0], first[1][:len(first[1]) - len(first[1].lstrip())]))
        inner[0] = (first[0], first[1].lstrip())
    last = inner[-1]
    if last[0] in ("free", "text") and last[1] != last[1].rstrip():
        trail.insert(0, (last[0], last[1][len(last[1].rstrip()):]))
        inner[-1] = (last[0], last[1].rstrip())
    return [*lead, ("mark", markup), *inner, ("mark", markup), *trail]


def _code_span(content: str, in_table: bool) -> Piece:
    if in_table and "|" in content:
        if "\\" in content:  # GFM would split `a\\|b` at its pipe: shown as plain text instead
            return ("text", content)
        content = content.replace("|", "\\|")  # the table reads \| as a pipe inside the cell
    fence = "`" * (_longest_backticks(content) + 1)
    pad = " " if content[:1] == "`" or content[-1:] == "`" or (content[:1] == content[-1:] == " " and content.strip()) \
        else ""
    return ("code", f"{fence}{pad}{content}{pad}{fence}")


def _longest_backticks(text: str) -> int:
    return max((len(m) for m in _BACKTICKS.findall(text)), default=0)


def _escape_run(run: list[Piece], escape: Escape, lstrip: bool, rstrip: bool, opens_paragraph: bool) -> str:
    """Consecutive text escaped as one string; then each bracket the writer left bare is bare again where it cannot
    make a link: a `]` not followed by `(` or `:`, a `[` not opening the paragraph."""
    if lstrip:
        while run and not run[0][1].lstrip():
            run = run[1:]
        run = run and [(run[0][0], run[0][1].lstrip()), *run[1:]]
    if rstrip:
        while run and not run[-1][1].rstrip():
            run = run[:-1]
        run = run and [*run[:-1], (run[-1][0], run[-1][1].rstrip())]
    raw = "".join(value for _, value in run)
    if not raw:
        return ""
    free = [kind == "free" for kind, value in run for ch in value]
    bare = [free[at] and (raw[at + 1:at + 2] not in ("(", ":") if ch == "]" else at > 0 or not opens_paragraph
                          or raw[1:2] == "[" and free[1])  # a label holds no bare [: `[[x]]:` defines nothing
            for at, ch in enumerate(raw) if ch in "[]"]  # per bracket of `raw`, in order: may it stay bare?
    brackets = iter(bare)
    return _ESCAPE_PAIR.sub(lambda m: m.group(1) if m.group(1) in "[]" and next(brackets, False) else m.group(0),
                            escape(raw))
