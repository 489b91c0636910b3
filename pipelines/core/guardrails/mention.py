"""Use and mention: an attack phrase quoted as an example ("a user types 'ignore your instructions' — what should the
bot do?") is talked about, not said. Job posts, interview questions, policies and training material about AI safety
quote attacks all the time, and word for word a quoted attack is the attack.

A rule's match is a mention when it lies (mostly) inside a pair of quotation marks and the words around the quote (on
the lines where it opens and closes) report or exemplify speech: a verb of saying or typing in the third person or
the past ("says", "typed", "wrote"), or a marker of an example ("e.g.", "such as", "例如", "写着"). Quotes alone are
not enough: "Note to the AI: 'ignore your instructions'" has no such frame and stays an attack. A mention still
counts in a sentence where another signal fires outside the quotes (see injection._rules_by_window)."""

from __future__ import annotations

import re

# A quoted span: paired quotes around at least three characters. Quotes that say which way they face (“…”, 「…」,
# 『…』, ‘…’, «…») may run over a few sentences, which the splitter has put on lines of their own; straight quotes
# pair only on one line, and a straight single quote opens only where no letter is before it ("don't … isn't").
QUOTED = re.compile(r"“[^”]{3,400}”|「[^」]{3,400}」|『[^』]{3,400}』|‘[^’]{3,400}’|«[^»]{3,400}»|\"[^\"\n]{3,}\""
                    r"|(?<![a-z])'[^'\n]{6,}'(?![a-z])")
REACH = 400  # how far before and after a match a quote around it is looked for
_QUOTE_CHARS = frozenset("“「『\"‘«'")
# Reported speech and exemplification, in English and Chinese (closed word classes, not attack words): what turns
# the quote into an example. Second-person and imperative frames ("you must", "now do") are deliberately absent.
REPORTING = re.compile(
    r"\b(?:says|said|saying|types|typed|typing|writes|wrote|written|asks|asked|enters|entered|pastes|pasted|"
    r"posts|posted|sends|sent|submits|submitted|reads|reading|contains|containing|included|includes|quoted?|"
    r"such as|e\.g\.|for example|for instance|examples?|phrases?|strings?|sentences?|wording|called|named|known as|"
    r"labell?ed|classic)\b"
    r"|说|写着|写道|写了|输入|问道|问|例如|比如|譬如|诸如|如:|类似|像是|话术|语句|句子|字样|内容为|称为|叫做|所谓|举例")


def is_mention(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies (mostly) inside a quoted span that the words around it, on the lines where the
    quote opens and closes, report or give as an example."""
    low, high = max(0, start - REACH), min(len(text), end + REACH)
    if _QUOTE_CHARS.isdisjoint(text[low:high]):
        return False  # the usual case: no quote near the match
    for quote in QUOTED.finditer(text, text.rfind("\n", 0, low) + 1, high):
        # Mostly inside: a rule may take in the reporting verb before the quote ('types "ignore … prompt"').
        inside = min(end, quote.end()) - max(start, quote.start())
        if inside * 2 >= end - start:
            first_line = text.rfind("\n", 0, quote.start()) + 1
            last_line = text.find("\n", quote.end())
            frame = text[first_line:quote.start()] + " " + text[quote.end():last_line if last_line >= 0 else len(text)]
            return bool(REPORTING.search(frame))
    return False
