"""The sanitiser: outside text rendered by a real CommonMark renderer shows as itself, never as markup."""

from __future__ import annotations

import html
import re

import pytest
from markdown_it import MarkdownIt

from pipelines.core.markup import escape_markdown, sanitize_markdown, spreadsheet_safe, unescape_markdown

RENDERER = MarkdownIt("commonmark").enable(["table", "strikethrough"])

HOSTILE = [
    "![pixel](http://evil.example/p.png)",
    "[click me](javascript:alert(1))",
    "<img src=http://evil.example/h.png onerror=alert(1)>",
    "<script>alert(1)</script>",
    "**bold** _em_ *em* ~~gone~~ `code`",
    "# heading\n> quote\n- item\n1. first\n2) second\n---",
    "a | b\n--|--\nc | d",
    "<http://evil.example/auto>",
    "[ref][1]\n\n[1]: javascript:alert(1)",
    ":red[coloured] $x^2$",
    "back\\slash \\*not bold\\*",
    "user_profile.age and snake_case_name",
    "中文_强调_ **粗体**",
]


def _text_of(rendered: str) -> str:
    """What a reader sees: the text without tags (the invisible word joiner that breaks autolinks included)."""
    return html.unescape(re.sub(r"<[^>]+>", "", rendered)).replace("\u2060", "")


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_renders_as_exactly_that_text(text):
    rendered = RENDERER.render(escape_markdown(text, line_breaks=False))
    assert re.findall(r"<(\w+)", rendered) == ["p"]  # one paragraph: no link, image, emphasis, heading or list
    assert _text_of(rendered).strip() == " ".join(text.split("\n")).strip()


def test_line_breaks_are_kept_as_breaks_not_blocks():
    rendered = RENDERER.render(escape_markdown("# one\n- two\n3. three"))
    assert set(re.findall(r"<(\w+)", rendered)) == {"p", "br"}
    assert "# one" in _text_of(rendered) and "- two" in _text_of(rendered) and "3. three" in _text_of(rendered)


def test_snake_case_names_stay_readable_in_the_markdown_source():
    assert escape_markdown("user_profile.age: Input should be ≥ 14") == "user_profile.age: Input should be ≥ 14"


@pytest.mark.parametrize("text", HOSTILE)
def test_sanitized_markdown_has_no_link_image_or_html(text):
    rendered = RENDERER.render(sanitize_markdown(text))
    assert "<a " not in rendered and "<img" not in rendered and "<script" not in rendered


def test_sanitizer_keeps_the_formatting_and_the_words():
    md = ("## Your report\n\n**Strengths**: see ![chart](http://evil.example/c.png) and "
          "[the docs](https://flink.apache.org) or <b>this</b>.\n\n- one\n- two")
    clean = sanitize_markdown(md)
    rendered = RENDERER.render(clean)
    assert "<h2>" in rendered and "<strong>Strengths</strong>" in rendered and "<li>one</li>" in rendered
    assert "chart" in rendered and "the docs" in rendered and "&lt;b&gt;this&lt;/b&gt;" in rendered
    assert "evil.example" not in rendered and "flink.apache.org" not in rendered


def test_unescape_gives_back_what_escape_protected():
    for text in HOSTILE:
        assert unescape_markdown(escape_markdown(text, line_breaks=False)) == " ".join(text.split("\n"))


@pytest.mark.parametrize("cell", ["=HYPERLINK(\"http://evil.example\")", "+1+1", "-2+3", "@SUM(A1)", "\tx"])
def test_spreadsheet_cells_that_look_like_formulas_are_made_text(cell):
    assert spreadsheet_safe(cell) == "'" + cell


def test_spreadsheet_safe_leaves_plain_values_alone():
    assert spreadsheet_safe("OutOfMemoryError") == "OutOfMemoryError"
    assert spreadsheet_safe(-3) == -3 and spreadsheet_safe(None) is None


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_with_its_line_breaks_renders_no_markup(text):
    rendered = RENDERER.render(escape_markdown(text))
    assert set(re.findall(r"<(\w+)", rendered)) <= {"p", "br"}
    assert _text_of(rendered).replace("\n", "") == text.replace("\n", "")


def test_bare_urls_and_addresses_are_broken_so_no_autolink_makes_them_links():
    escaped = escape_markdown("see http://evil.example/p.png, www.evil.example and me@evil.example")
    assert "http\u2060://evil.example" in escaped and "www\u2060.evil" in escaped and "me\u2060@evil" in escaped
    assert unescape_markdown(escaped) == "see http://evil.example/p.png, www.evil.example and me@evil.example"


def test_streamlit_directives_stay_text():
    assert escape_markdown(":red[x] :material/delete:") == ":\u2060red\\[x\\] :\u2060material/delete:"
    assert escape_markdown("Error: failed") == "Error: failed"


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_passes_the_sanitiser_unchanged(text):
    """Reports escape what they quote and the page sanitises the whole report: the two must not fight."""
    escaped = escape_markdown(text)
    assert sanitize_markdown(escaped) == escaped
