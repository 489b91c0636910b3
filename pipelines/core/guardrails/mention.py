"""Use and mention: an attack phrase quoted as an example ("a user types 'ignore your instructions' — what should the
bot do?") is talked about, not said. Job posts, interview questions, policies and training material about AI safety
quote attacks all the time, and word for word a quoted attack is the attack.

A rule's match is a mention when it lies (mostly) inside a pair of quotation marks on its line and the line, outside the
quotes, reports or exemplifies speech: a verb of saying or typing in the third person or the past ("says", "typed",
"wrote"), or a marker of an example ("e.g.", "such as", "例如", "写着"). Quotes alone are not enough: "Note to the
AI: 'ignore your instructions'" has no such frame and stays an attack. A mention still counts in a sentence where
another signal fires outside the quotes (see injection._rules_by_window)."""

from __future__ import annotations

import re

# A quoted span on one line: paired typographic or straight quotes around at least three characters. A straight
# single quote opens only where no letter is before it (so "don't … isn't" is no quote).
QUOTED = re.compile(r"“[^”\n]{3,}”|「[^」\n]{3,}」|『[^』\n]{3,}』|\"[^\"\n]{3,}\"|‘[^’\n]{3,}’|«[^»\n]{3,}»"
                    r"|(?<![a-z])'[^'\n]{6,}'(?![a-z])")
_QUOTE_CHARS = frozenset("“「『\"‘«'")
# Reported speech and exemplification, in English and Chinese (closed word classes, not attack words): what turns
# the quote into an example. Second-person and imperative frames ("you must", "now do") are deliberately absent.
REPORTING = re.compile(
    r"\b(?:says|said|saying|types|typed|typing|writes|wrote|written|asks|asked|tells|told|enters|entered|pastes|pasted|"
    r"posts|posted|sends|sent|submits|submitted|reads|reading|contains|containing|containing|included|includes|quoted?|"
    r"such as|e\.g\.|for example|for instance|examples?|phrases?|strings?|sentences?|wording|called|named|known as|"
    r"labell?ed|classic|like)\b"
    r"|说|写着|写道|写了|输入|问道|问|例如|比如|譬如|诸如|如:|类似|像是|话术|语句|句子|字样|内容为|称为|叫做|所谓|举例")


def is_mention(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies (mostly) inside a quoted span of its line that the rest of the line reports or
    gives as an example."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if _QUOTE_CHARS.isdisjoint(text[line_start:line_end]):
        return False  # the usual case: no quote on the line
    for quote in QUOTED.finditer(text, line_start, line_end):
        # Mostly inside: a rule may take in the reporting verb before the quote ('types "ignore … prompt"').
        inside = min(end, quote.end()) - max(start, quote.start())
        if inside * 2 >= end - start:
            frame = text[line_start:quote.start()] + " " + text[quote.end():line_end]
            return bool(REPORTING.search(frame))
    return False
