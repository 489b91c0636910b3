"""Use and mention: an attack phrase quoted as an example ("a user types 'ignore your instructions' — what should the
bot do?") is talked about, not said. Job posts, interview questions, policies and training material about AI safety
quote attacks all the time, and word for word a quoted attack is the attack.

A rule's match is a mention when it lies (mostly) inside a pair of quotation marks and the words around the quote (on
the lines where it opens and closes) report or exemplify speech: a verb of saying or typing in the third person or
the past ("says", "typed", "wrote"), or a marker of an example ("e.g.", "such as", "例如", "写着"); for a quote that
is a whole list item, the line that leads the list in ("Common phrasings:", "常见写法：") counts too. Quotes alone are
not enough: "Note to the AI: 'ignore your instructions'" has no such frame and stays an attack. A mention still
counts in a sentence where another signal fires outside the quotes (see injection._rules_by_window)."""

from __future__ import annotations

import re

# Quoted spans: paired quotes around at least two characters (three for straight double quotes, six for single).
# Quotes that say which way they face (“…”, 「…」, 『…』, ‘…’, «…») may run over a few sentences, which the splitter
# has put on lines of their own, and are found at every opening one (a look-ahead), so a quote inside a quote is
# found too. Straight quotes face no way: they pair in order on one line, double and single apart, and a single one
# opens only where no letter is before it ("don't … isn't").
QUOTE_PATTERNS = (re.compile(r"(?=(“[^”]{2,400}”|「[^」]{2,400}」|『[^』]{2,400}』|‘[^’]{2,400}’|«[^»]{2,400}»))"),
                  re.compile(r"(\"[^\"\n]{3,}\")"), re.compile(r"((?<![a-z])'[^'\n]{6,}'(?![a-z]))"))
REACH = 400  # how far before and after a match a quote around it is looked for
_QUOTE_CHARS = frozenset("“「『\"‘«'")
# Reported speech and exemplification, in English and Chinese (closed word classes, not attack words): what turns
# the quote into an example. Second-person and imperative frames ("you must", "now do") are deliberately absent.
REPORTING = re.compile(
    r"\b(?:says|said|saying|types|typed|typing|writes|wrote|written|asks|asked|enters|entered|pastes|pasted|"
    r"posts|posted|sends|sent|submits|submitted|reads|reading|contains|containing|included|includes|quoted?|"
    r"such as|e\.g\.|for example|for instance|examples?|phrases?|strings?|sentences?|lines?|words?|terms?|wording|"
    r"called|named|known as|attempts?|requests?|inputs?|regex(?:es)?|payloads?|librar(?:y|ies)|"
    r"labell?ed|classic)\b"
    r"|说|写|输入|问道|问|例如|比如|譬如|诸如|如:|类似|像是|话术|语句|句子|字样|字眼|词|内容为|称为|叫做|所谓|举例"
    r"|包括|包含|表述|说法|提法|措辞|文字|引用|之类|这类|一类|这样一段话|例子|尝试|请求|输入"
    # "(如“…”": 如 right before the quote, where the frame joins the words before it with a space.
    r"|如(?= )"
    # "“…”等" (and so on): 等 right after the quote, which the frame joins with a space, or after the next quote.
    r"|(?<= )等|[”」』]等")


def is_mention(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies (mostly) inside a quoted span that the words around it, on the lines where the
    quote opens and closes, report or give as an example."""
    low, high = max(0, start - REACH), min(len(text), end + REACH)
    if _QUOTE_CHARS.isdisjoint(text[low:high]):
        return False  # the usual case: no quote near the match
    region_start = text.rfind("\n", 0, low) + 1
    for pattern in QUOTE_PATTERNS:
        for found in pattern.finditer(text, region_start, high):
            quote_start, quote_end = found.span(1)
            # Mostly inside: a rule may take in the reporting verb before the quote ('types "ignore … prompt"').
            inside = min(end, quote_end) - max(start, quote_start)
            if inside * 2 >= end - start and REPORTING.search(_frame(text, quote_start, quote_end)):
                return True  # else a quote around this one, or inside it, may still be reported
    return False


# A list item's marker: a bullet, "(b)", "2.", "B：", "Excerpt A —".
_ITEM_MARK = (r"(?:[-*•·●◦▪–—]|\(?(?:[a-z]|\d{1,2}|[ivx]{1,4})[.)）:：]|[（(](?:[a-z]|\d{1,2})[)）]|"
              r"(?:[\w-]+ )?[a-z\d]{1,2}\s*[—–:：])")
_ITEM = re.compile(rf"\s*{_ITEM_MARK}?\s*$")  # matched from a line's start: no "^"
_ITEM_LINE = re.compile(rf"^\s*{_ITEM_MARK}\s*\S")
_LEAD_IN_LINES = 8  # how many list items above a quoted one its lead-in ("Common phrasings:") may be


def _frame(text: str, quote_start: int, quote_end: int) -> str:
    """The words around a quote on the lines where it opens and closes; for a quote that is a whole list item
    ("· “…”"), also the line that leads the list in ("常见写法：", "Examples you may see:")."""
    first_line = text.rfind("\n", 0, quote_start) + 1
    last_line = text.find("\n", quote_end)
    after = text[quote_end:last_line if last_line >= 0 else len(text)]
    frame = text[first_line:quote_start] + " " + after
    if _ITEM.match(text, first_line, quote_start) and len(after.strip(" ,.;，。；…)）")) == 0:
        line_end = first_line - 1
        for _ in range(_LEAD_IN_LINES):
            if line_end <= 0:
                break
            line_start = text.rfind("\n", 0, line_end) + 1
            line = text[line_start:line_end]
            if not _ITEM_LINE.match(line):
                return frame + " " + line
            line_end = line_start - 1
    return frame
