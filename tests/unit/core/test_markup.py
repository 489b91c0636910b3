"""The sanitiser: outside text rendered by a real CommonMark renderer shows as itself, never as markup; Markdown
written elsewhere keeps its formatting and loses every link, image and piece of HTML, under CommonMark and GFM."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from pipelines.core.markup import escape_markdown, sanitize_markdown, spreadsheet_safe, unescape_markdown
from pipelines.core.pdf.text import plain_markdown

RENDERER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
# What a GFM renderer reads (bare URLs, www. and e-mail addresses as links too), with every link it parses kept as
# a link: markdown-it alone would leave [x](javascript:…) as text where CommonMark and GFM make it a link.
READER = MarkdownIt("commonmark", {"linkify": True}).enable(["table", "strikethrough", "linkify"])
READER.validateLink = lambda url: True
SPEC = json.loads((Path(__file__).parent / "fixtures" / "commonmark_spec_examples.json").read_text(encoding="utf-8"))
# The elements Markdown itself makes, and the attributes it gives them (alignment, a code block's language, a
# list's start); anything else in the HTML came from the text.
MARKDOWN_TAGS = {"p", "em", "strong", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li", "br", "hr",
                 "table", "thead", "tbody", "tr", "th", "td", "h1", "h2", "h3", "h4", "h5", "h6"}
_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)([^>]*)>")
_MARKDOWN_ATTRIBUTES = re.compile(r"""(?:\s+(?:style="text-align:(?:left|right|center)"|align="(?:left|right|center)"
                                   |class="language-[^"<>]*"|lang="[^"<>]*"|start="\d+"))*\s*/?""", re.X)

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
    assert READER.render(sanitize_markdown(escaped)) == READER.render(escaped)
    if "\n" not in text:
        assert sanitize_markdown(escaped) == escaped


# The sanitiser reads Markdown as a CommonMark / GFM renderer does ----------------------------------------------
def _gfm(markdown: str) -> str:
    """GitHub's own renderer (cmark-gfm) with raw HTML let through, footnotes on: whatever it makes is visible."""
    cmarkgfm = pytest.importorskip("cmarkgfm")
    options = cmarkgfm.cmark.Options
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=options.CMARK_OPT_UNSAFE
                                                      | options.CMARK_OPT_FOOTNOTES)


def _assert_markdown_only(rendered: str, source: str) -> None:
    for _, name, attributes in _TAG.findall(rendered):
        assert name.lower() in MARKDOWN_TAGS and _MARKDOWN_ATTRIBUTES.fullmatch(attributes), (name, source, rendered)


def _assert_safe(original: str) -> str:
    """The sanitised text has no link, image or HTML for markdown-it nor for cmark-gfm; it is returned."""
    clean = sanitize_markdown(original)
    kinds = {node.type for node in SyntaxTreeNode(READER.parse(clean)).walk()}
    assert not kinds & {"link", "image", "html_inline", "html_block"}, (original, clean)
    _assert_markdown_only(READER.render(clean), clean)
    _assert_markdown_only(_gfm(clean), clean)
    return clean


@pytest.mark.parametrize("example", SPEC["examples"], ids=lambda e: f"{e['section']} {e['number']}")
def test_the_commonmark_spec_examples_of_links_images_and_html_come_out_without_any(example):
    _assert_safe(example["markdown"].replace("→", "\t"))


@pytest.mark.parametrize("text", ["![a [b [c]] d](http://evil.example/x.png)", "[a [b [c]] d](http://evil.example)"])
def test_an_image_or_a_link_with_nested_brackets_leaves_only_its_text(text):
    clean = _assert_safe(text)
    assert READER.render(clean) == "<p>a [b [c]] d</p>\n" and "evil" not in clean


@pytest.mark.parametrize("text", ["[x](javascript:alert(1))", "<javascript:alert(1)>", "![x](data:text/html,<b>)",
                                  "[x][r]\n\n[r]: javascript:alert(1)", "javascript:alert(1)", "[x](vbscript:msgbox)",
                                  "<a href=\"javascript:alert(1)\">x</a>", "[x](<javascript:alert(1)>)"])
def test_script_schemes_never_become_links(text):
    clean = _assert_safe(text)
    assert "javascript:\u2060" in clean or "javascript" not in clean


def test_bare_urls_addresses_and_autolinks_stay_text_that_links_nowhere():
    text = "see http://evil.example/p, www.evil.example, me@evil.example, mailto:me@evil.example and <http://e.example>"
    clean = _assert_safe(text)
    assert _text_of(READER.render(clean)).strip() == text.replace("<http://e.example>", "http://e.example")


@pytest.mark.parametrize("text", ["_http://evil.example_", "x \\_www.evil.example", "(www.evil.example)",
                                  "*www.evil.example*", "~~me@evil.example~~"])
def test_escaped_urls_stay_unlinked_under_gfm_whatever_stands_before_them(text):
    assert "<a" not in _gfm(escape_markdown(text)) and "<a" not in _gfm(sanitize_markdown(text))


def test_raw_html_shows_as_the_text_that_was_written():
    rendered = READER.render(_assert_safe("<b>bold</b> and <img src=x onerror=alert(1)>\n\n<div>\n<script>x</script>\n</div>"))
    assert "&lt;b&gt;bold&lt;/b&gt; and &lt;img src=x onerror=alert(1)&gt;" in rendered
    assert "&lt;div&gt;<br />\n&lt;script&gt;x&lt;/script&gt;<br />\n&lt;/div&gt;" in rendered


def test_formatting_and_the_words_of_links_and_images_survive():
    md = ("## Findings\n\nSome *emphasis*, **strong**, ~~struck~~ and `code`; see [the docs](https://flink.apache.org) "
          "and ![a chart of costs](http://evil.example/c.png).  \nNext line.\n\n- first\n  - nested\n- second\n\n"
          "3. three\n4. four\n\n> quoted\n\n| Segment | Cost |\n|---|---:|\n| Packs | `139` |\n\n---\n\n"
          "```python\nprint(\"<b>\")\n```\n")
    rendered = READER.render(_assert_safe(md))
    for part in ("<h2>Findings</h2>", "<em>emphasis</em>", "<strong>strong</strong>", "<s>struck</s>", "<code>code</code>",
                 "see the docs and a chart of costs.<br />", "<li>first\n<ul>\n<li>nested</li>", "<ol start=\"3\">",
                 "<blockquote>\n<p>quoted</p>", "<table>", '<th style="text-align:right">Cost</th>',
                 '<td style="text-align:right"><code>139</code></td>', "<hr />",
                 '<pre><code class="language-python">print(&quot;&lt;b&gt;&quot;)\n</code></pre>'):
        assert part in rendered, part
    assert "flink.apache.org" not in rendered and "evil.example" not in rendered


def test_citation_markers_stay_as_written_and_a_definition_cannot_link_them():
    """The research report numbers [[P3]] markers after sanitising and counts [1] markers that no backslash
    escapes: both must pass as written; an escaped \\[3\\] (a quoted passage) stays escaped."""
    assert sanitize_markdown("Costs fell [1][2] and rose [[P3]][[P4]].") == "Costs fell [1][2] and rose [[P3]][[P4]]."
    assert sanitize_markdown("A quote: \\[3\\] said so.") == "A quote: \\[3\\] said so."
    clean = _assert_safe("Costs fell [1].\n\n> [1]: http://evil.example\n\n[1]: http://evil.example")
    assert READER.render(clean).startswith("<p>Costs fell [1].</p>")


@pytest.mark.parametrize("text", ["[x]: http://evil.example\n\n[x]", "- [ ] a task box", "[^1]\n\n[^1]: a footnote",
                                  "\\[x](http://evil.example)", "[a]\\(http://evil.example)", "[`x]: http://evil.example`"])
def test_brackets_that_could_make_a_link_a_definition_or_a_task_box_are_escaped(text):
    clean = _assert_safe(text)
    assert "<input" not in _gfm(clean) and "<sup" not in _gfm(clean)


def test_code_spans_keep_their_text_side_by_side_and_in_tables():
    rendered = READER.render(_assert_safe("`a`![](x)`b` and ``c`d``\n\n| h |\n|---|\n| `x\\|y` |"))
    assert "<code>a</code>\u2060<code>b</code>" in rendered and "<code>c`d</code>" in rendered
    assert "<td><code>x|y</code></td>" in rendered


def test_the_pdf_reads_sanitised_text_back_as_written():
    text = "Costs [1] at http://evil.example/x, me@evil.example, <b>y</b>, a_b and $5 :red[x]"
    assert plain_markdown(sanitize_markdown(text)) == text


# Fuzzing: nested brackets, references, autolinks, bare URLs, HTML, backslashes and backticks ------------------
_FRAGMENTS = ["[", "]", "(", ")", "![", "](", "]: ", "[1]", "[[P3]]", "[^1]", "<", ">", "<b>", "</b>", "<img src=x>",
              "<!--", "-->", "<http://evil.example>", "http://evil.example", "www.evil.example", "me@evil.example",
              "javascript:alert(1)", "\\", "`", "``", "```", "~~", "*", "_", "**", "|", "\n", "\n\n", "> ", "- ", "1. ",
              "    ", "#", "&amp;", "&#91;", " ", "a", "b", "mailto:", ":red[", "$", "---", "|---|", "- [ ] ", "\t", "=",
              "[x]: /u", "\\[", "\\]", "_http://e.x"]
_MARKDOWNISH = st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(alphabet="ab[]()<>`*_~|\\!:/. \n-#@", max_size=4)),
                        max_size=30).map("".join)


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(_MARKDOWNISH)
@example("mailto::@<http://evil.example>")  # found by this test on CI: linkify took "mailto::@http" for an address
def test_fuzzed_markdown_never_yields_a_link_an_image_or_html_and_sanitising_again_changes_nothing(text):
    clean = _assert_safe(text)
    assert READER.render(sanitize_markdown(clean)) == READER.render(clean)
