"""Text that a browser would not show (hidden elements, zero-size or same-colour text, comments) in an HTML page or in
the raw HTML of a Markdown file: found and dropped before the engines read the document, and counted.

What hides an element: the `hidden` attribute, aria-hidden="true", and in its inline style or in a `<style>` rule
with a simple selector (`tag`, `.class`, `#id`, `tag.class`) display:none, visibility:hidden, opacity:0, a zero
font-size, width or height, a far negative offset, or a text colour that is transparent or the same as the nearest
background (white when none is set). Rules with other selectors (descendants, pseudo-classes, media queries) and
external style sheets are not resolved."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

_STYLE_BLOCK = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.S | re.I)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_CSS_RULE = re.compile(r"([^{}@]+)\{([^{}]*)\}")
_SIMPLE = re.compile(r"^([a-z][a-z0-9-]*)?((?:\.[\w-]+)*)(#[\w-]+)?((?:\.[\w-]+)*)$", re.I)
_ZERO = re.compile(r"^[+-]?0*\.?0*(?:[a-z%]+)?$")
_LENGTH = re.compile(r"^(-?\d+(?:\.\d+)?)(px|pt|em|rem|%)?$")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_DROPPED_WHOLE = frozenset(("script", "style", "template", "noscript"))  # code, not text: never counted as hidden
MAX_RULES = 500
WHITE = (255, 255, 255)
NEAR = 24  # summed channel difference under which two colours look the same


@dataclass(frozen=True)
class StyleRule:
    tag: str | None
    classes: frozenset[str]
    id: str | None
    style: dict[str, str]

    def matches(self, tag: str, classes: set[str], element_id: str | None) -> bool:
        return ((self.tag is None or self.tag == tag) and self.classes <= classes
                and (self.id is None or self.id == element_id))


def declarations(style: str) -> dict[str, str]:
    out = {}
    for part in (style or "").split(";"):
        name, sep, value = part.partition(":")
        if sep:
            out[name.strip().lower()] = value.replace("!important", "").strip().lower()
    return out


def style_rules(css_texts: Iterable[str]) -> list[StyleRule]:
    """The rules with simple selectors in these style sheets (the others are left out, see the module's note)."""
    rules: list[StyleRule] = []
    for css in css_texts:
        for selectors, body in _CSS_RULE.findall(_CSS_COMMENT.sub("", css)):
            style = declarations(body)
            for selector in selectors.split(","):
                match = _SIMPLE.match(selector.strip())
                if match and selector.strip():
                    classes = frozenset(c for c in (match.group(2) + match.group(4)).split(".") if c)
                    rules.append(StyleRule((match.group(1) or "").lower() or None, classes,
                                           match.group(3)[1:] if match.group(3) else None, style))
            if len(rules) >= MAX_RULES:
                return rules
    return rules


def element_style(tag: str, attrs: Mapping[str, Any], rules: list[StyleRule]) -> dict[str, str]:
    """The element's declarations: the matching rules', then its inline style over them."""
    classes = attrs.get("class") or ""
    classes = set(classes.split() if isinstance(classes, str) else classes)
    element_id = attrs.get("id")
    style: dict[str, str] = {}
    for rule in rules:
        if rule.matches(tag, classes, element_id):
            style.update(rule.style)
    style.update(declarations(str(attrs.get("style") or "")))
    return style


def colour(value: str) -> tuple[int, int, int, int] | None:
    """(r, g, b, alpha 0-255) of a CSS colour, or of the first colour among a `background` shorthand's words."""
    from PIL import ImageColor

    for word in [value, *re.split(r"\s+(?![^(]*\))", value)]:
        word = word.strip()
        if word == "transparent":
            return (0, 0, 0, 0)
        try:
            rgb = ImageColor.getrgb(word)
        except ValueError:
            continue
        return (*rgb[:3], rgb[3] if len(rgb) == 4 else 255)
    return None


def background_of(style: Mapping[str, str]) -> tuple[int, int, int] | None:
    """The opaque background colour an element sets, if any."""
    for name in ("background-color", "background"):
        if name in style and (found := colour(style[name])) and found[3] > 0:
            return found[:3]
    return None


def _zero(value: str | None) -> bool:
    return value is not None and bool(_ZERO.match(value.replace(" ", ""))) and any(c.isdigit() for c in value)


def _far_off(value: str | None) -> bool:
    match = _LENGTH.match((value or "").replace(" ", ""))
    return bool(match) and float(match.group(1)) <= (-999 if match.group(2) in (None, "px", "pt") else -99)


def is_hidden(attrs: Mapping[str, Any], style: Mapping[str, str], background: tuple[int, int, int]) -> bool:
    """Whether an element with these attributes and declarations, over this background, shows no text."""
    if "hidden" in attrs or str(attrs.get("aria-hidden") or "").strip().lower() == "true":
        return True
    if style.get("display") == "none" or style.get("visibility") in ("hidden", "collapse"):
        return True
    if any(_zero(style.get(name)) for name in ("opacity", "font-size", "width", "height", "max-width", "max-height")):
        return True
    if any(_far_off(style.get(name)) for name in ("text-indent", "left", "top", "margin-left", "margin-top")):
        return True
    text_colour = colour(style["color"]) if "color" in style else None
    if text_colour is None:
        return False
    if text_colour[3] == 0:
        return True
    return sum(abs(a - b) for a, b in zip(text_colour[:3], background_of(style) or background)) <= NEAR


def drop_hidden(soup: Any) -> int:
    """Take the hidden elements and the comments out of a BeautifulSoup tree; how many held text."""
    from bs4 import Comment

    rules = style_rules(tag.get_text() for tag in soup.find_all("style"))
    count = 0
    for comment in soup.find_all(string=lambda s: isinstance(s, Comment)):
        count += bool(comment.strip())
        comment.extract()
    backgrounds: dict[int, tuple[int, int, int]] = {}  # by id(tag): the background each element is drawn over
    for tag in soup.find_all(True):
        if tag.decomposed:
            continue  # inside an element already dropped
        style = element_style(tag.name, tag.attrs, rules)
        parent = tag.parent
        below = backgrounds.get(id(parent), WHITE) if parent is not None else WHITE
        if tag.name not in _DROPPED_WHOLE and is_hidden(tag.attrs, style, below):
            count += bool(tag.get_text(strip=True))
            tag.decompose()
            continue
        backgrounds[id(tag)] = background_of(style) or below
    return count


class _HiddenSpans(HTMLParser):
    """The character spans of a text's raw HTML that show nothing: hidden elements (start tag to end tag) and
    comments, each marked when it held text. Script and style blocks are not text hidden from a reader but code, and
    stay as the Markdown reader has always kept them (quoted as text, scanned like the rest)."""

    def __init__(self, text: str, rules: list[StyleRule]) -> None:
        super().__init__(convert_charrefs=True)
        self.text, self.rules = text, rules
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.stack: list[tuple[str, bool, int, tuple[int, int, int]]] = []  # (tag, hidden, start, background)
        self.spans: list[tuple[int, int, bool]] = []
        self._data_in_hidden = False

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def _inside_hidden(self) -> bool:
        return any(hidden for _, hidden, _, _ in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        values = {name: value or "" for name, value in attrs}
        below = self.stack[-1][3] if self.stack else WHITE
        style = element_style(tag, values, self.rules)
        hidden = not self._inside_hidden() and tag not in _DROPPED_WHOLE and is_hidden(values, style, below)
        if hidden and not self._inside_hidden():
            self._data_in_hidden = False
        self.stack.append((tag, hidden, self._offset(), background_of(style) or below))

    def handle_endtag(self, tag: str) -> None:
        if not any(open_tag == tag for open_tag, _, _, _ in self.stack):
            return  # a stray end tag
        end = self.text.find(">", self._offset()) + 1 or len(self.text)
        while self.stack:
            open_tag, hidden, start, _ = self.stack.pop()
            if hidden and not self._inside_hidden():
                self.spans.append((start, end, self._data_in_hidden))
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if data.strip() and self._inside_hidden():
            self._data_in_hidden = True

    def handle_comment(self, data: str) -> None:
        if not self._inside_hidden():
            start = self._offset()
            end = self.text.find("-->", start)
            self.spans.append((start, end + 3 if end >= 0 else len(self.text), bool(data.strip())))

    def finish(self) -> list[tuple[int, int, bool]]:
        self.close()
        outer = next(((tag, start) for tag, hidden, start, _ in self.stack if hidden), None)
        if outer is not None:  # a hidden element never closed hides the rest, as in a browser
            self.spans.append((outer[1], len(self.text), self._data_in_hidden))
        return sorted(self.spans)


def drop_hidden_markup(text: str, keep: Iterable[tuple[int, int]] = ()) -> tuple[str, int]:
    """`text` (Markdown, or any text with raw HTML in it) without the spans a browser would not show, and how many
    of them held text. Spans that start inside `keep` (code blocks, shown as written) stay."""
    if "<" not in text:
        return text, 0
    keep = list(keep)
    parser = _HiddenSpans(text, style_rules(_STYLE_BLOCK.findall(text)))
    parser.feed(text)
    out, pos, count = [], 0, 0
    for start, end, counted in parser.finish():
        if start < pos or any(a <= start < b for a, b in keep):
            continue
        out.append(text[pos:start])
        pos = end
        count += counted
    out.append(text[pos:])
    return "".join(out), count
