"""Text shaping for research documents, English and Chinese: whitespace tidying, sentences and sentence-aligned chunks."""

from __future__ import annotations

import re
from typing import NamedTuple

from langchain_text_splitters import RecursiveCharacterTextSplitter

from pipelines.core.text import CJK_CHAR

# Words whose trailing period is not a full stop. "etc" is left out on purpose: it usually ends a sentence, and
# "etc. and" is already kept whole by the lower-case rule below.
_ABBREVIATIONS = frozenset("""e.g i.e cf vs al approx ca dr mr mrs ms prof sr jr st no nos fig figs eq vol pp ed eds
    inc ltd co corp dept est jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k u.n a.m p.m ph.d""".split())
_CANDIDATE = re.compile(r"(?:[。！？]+|[!?]+|\.+)[”’\"'」』）)\]]*")
_NON_SPACE = re.compile(r"\S")
_WORD_OPENERS = "([\"'“‘"  # what may stand right before a word: its start
_LONGEST_WORD = max(8, *(len(word) for word in _ABBREVIATIONS))
_LIGATURES = {"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "\u00ad": "", "\u200b": "", "\ufeff": ""}
# A substitution that touches only what it replaces: str.translate looks up every character of a Chinese text, which
# for tens of megabytes holds the interpreter's lock for a second.
_LIGATURE = re.compile("|".join(_LIGATURES))
# Lines that keep their own line when wrapped text is joined: headings, quotes, table rows, code fences, list items.
_STANDS_ALONE = re.compile(r"(?:#{1,6}\s|>|\||```|~~~|[=-]{3,}$|[-*+•·▪●◦]\s|\d{1,3}(?:[.)]\s|、)|[（(]\d{1,3}[)）]"
                           r"|[一二三四五六七八九十]+、|第.{1,5}[章节条])")
_ENDS_ALONE = re.compile(r"(?:#{1,6}\s|\||```|~~~|[=-]{3,}$)")
_WIDE = re.compile(r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]")
# Breaks a sentence too long for one chunk at the softest punctuation available, Chinese and English alike; a piece
# with none is cut every max_chars characters (_hard_cut).
_SOFT_BREAKS = ["；", ";", "，", ",", "、", "：", ":", " "]


class Unit(NamedTuple):
    """A sentence (or a piece of an over-long one) and the whitespace that followed it in the source."""

    text: str
    sep: str = " "  # "\n\n" paragraph, "\n" line, " " or "" (between Chinese sentences)
    whole: bool = True  # pieces of a cut sentence are never repeated as overlap


def _ends_sentence(line: str, match: re.Match) -> bool:
    # Reads only the few characters around the mark: a paragraph joined into one line can be megabytes long, and
    # slicing or searching what lies before or after every full stop made splitting it quadratic.
    mark, end = match.group()[0], match.end()
    if mark in "。！？":
        return True
    after = line[end:end + 1]
    if after and not (after.isspace() or CJK_CHAR.match(after)):
        return False  # 9.8%, 1.2, e.g. mid-word, example.com, a "?" inside a URL
    following = _NON_SPACE.search(line, end)
    if mark in "!?" or following is None:
        return True
    if following.group().islower():
        return False  # "approx. five", "etc. and" go on after the period
    word = _word_before(line, match.start())
    if word is None:
        return True  # longer than any abbreviation, initial or list number
    if word.lower() in _ABBREVIATIONS or re.fullmatch(r"[A-Z]", word):
        return False  # "Dr. Chen", "J. Smith"
    # "1. Item" opening a line is a list number, not a sentence of its own
    return not (word.isdigit() and len(word) <= 3 and _opens_line(line, match.start() - len(word)))


def _word_before(line: str, start: int) -> str | None:
    """The word that ends at `start` (back to a space, bracket or quote), or None when it is longer than
    _LONGEST_WORD: nothing the splitter looks for (abbreviations, initials, list numbers) is."""
    first = start
    while first > 0 and not (line[first - 1].isspace() or line[first - 1] in _WORD_OPENERS):
        first -= 1
        if start - first > _LONGEST_WORD:
            return None
    return line[first:start]


def _opens_line(line: str, position: int) -> bool:
    """Whether only whitespace stands before `position` in the line."""
    while position > 0 and line[position - 1].isspace():
        position -= 1
    return position == 0


def _line_units(line: str) -> list[Unit]:
    units, start = [], 0
    for match in _CANDIDATE.finditer(line):
        if _ends_sentence(line, match):
            units.append(Unit(line[start:match.end()].strip(), " " if line[match.end():match.end() + 1].isspace() else ""))
            start = match.end()
    units.append(Unit(line[start:].strip(), ""))
    return [Unit(" ".join(u.text.split()), u.sep) for u in units if u.text.strip()]


def sentence_units(text: str) -> list[Unit]:
    """The sentences of `text` in order, each with the separator that followed it; every newline ends one."""
    units: list[Unit] = []
    for paragraph in re.split(r"\n[^\S\n]*\n", text or ""):
        for line in paragraph.split("\n"):
            line_units = _line_units(line)
            if line_units:
                units.extend(line_units[:-1])
                units.append(line_units[-1]._replace(sep="\n"))
        if units and units[-1].sep == "\n":
            units[-1] = units[-1]._replace(sep="\n\n")
    if units:
        units[-1] = units[-1]._replace(sep="")
    return units


def split_sentences(text: str) -> list[str]:
    """English and Chinese sentences: split after 。！？!? and full stops, not inside decimals (9.8%, 1.2) or after
    abbreviations (e.g., Dr.); every line (a list item, a heading) ends a sentence."""
    return [unit.text for unit in sentence_units(text)]


def fit_units(units: list[Unit], max_chars: int) -> list[Unit]:
    """Units no longer than max_chars: a longer sentence is cut at semicolons, commas or spaces, else anywhere."""
    splitter = None
    out: list[Unit] = []
    for unit in units:
        if len(unit.text) <= max_chars:
            out.append(unit)
            continue
        # RecursiveCharacterTextSplitter does the soft-break search well; it only runs on sentences that must be cut.
        splitter = splitter or RecursiveCharacterTextSplitter(chunk_size=max_chars, chunk_overlap=0, separators=_SOFT_BREAKS,
                                                              keep_separator="end", strip_whitespace=False)
        pieces = [cut for piece in splitter.split_text(unit.text) for cut in _hard_cut(piece, max_chars)]
        for i, piece in enumerate(pieces):
            if not piece.strip():
                continue
            last = i == len(pieces) - 1
            spaced = piece[-1:].isspace() or (not last and pieces[i + 1][:1].isspace())
            out.append(Unit(piece.strip(), unit.sep if last else " " if spaced else "", False))
    return out


def _hard_cut(piece: str, max_chars: int) -> list[str]:
    """A piece without any soft break cut every max_chars characters, as the splitter's "" separator would, but in
    one pass: the splitter merges such a piece back a character at a time."""
    return [piece[i:i + max_chars] for i in range(0, len(piece), max_chars)] if len(piece) > max_chars else [piece]


def join_units(units: list[Unit]) -> str:
    return "".join(u.text + (u.sep if i < len(units) - 1 else "") for i, u in enumerate(units)).strip()


def _length(units: list[Unit]) -> int:
    return sum(len(u.text) for u in units) + sum(len(u.sep) for u in units[:-1])


def pack(units: list[Unit], max_chars: int, overlap_chars: int = 0) -> list[list[Unit]]:
    """Consecutive units grouped into chunks of at most max_chars (units must already fit); each chunk after the
    first opens with the previous chunk's trailing whole sentences, up to overlap_chars, when they fit."""
    # Hand-written rather than RecursiveCharacterTextSplitter: its overlap is counted in characters and may start
    # mid-sentence, and its separators cannot tell "9.8%" or "e.g." from a full stop.
    chunks: list[list[Unit]] = []
    current: list[Unit] = []
    for unit in units:
        if current and _length([*current, unit]) > max_chars:
            chunks.append(current)
            current = _overlap(current, unit, max_chars, overlap_chars)
        current.append(unit)
    if current:
        chunks.append(current)
    return chunks


def _overlap(previous: list[Unit], following: Unit, max_chars: int, overlap_chars: int) -> list[Unit]:
    taken: list[Unit] = []
    # never the whole previous chunk, so every chunk brings something new besides its overlap
    for unit in reversed(previous[1:]):
        candidate = [unit, *taken]
        if not unit.whole or _length(candidate) > overlap_chars or _length([*candidate, following]) > max_chars:
            break
        taken = candidate
    return taken


def tidy(text: str, unwrap: str = "none") -> str:
    """Whitespace runs made one space and blank-line runs one blank line. unwrap="pdf" (or "text" when lines are
    hard-wrapped) joins a full-width line to the next; unwrap="soft" (Markdown) joins every line in a paragraph.
    Headings, list items, table rows and short lines keep their own line."""
    paragraphs = []
    text = _LIGATURE.sub(lambda match: _LIGATURES[match.group()], text or "")
    for block in re.split(r"\n[^\S\n]*\n", text.replace("\r\n", "\n").replace("\r", "\n")):
        lines = [line for line in (" ".join(raw.split()) for raw in block.split("\n")) if line]
        if lines:
            paragraphs.append("\n".join(_unwrap(lines, unwrap) if unwrap != "none" else lines))
    return "\n\n".join(paragraphs)


def _unwrap(lines: list[str], mode: str) -> list[str]:
    widths = [len(line) + len(_WIDE.findall(line)) for line in lines]  # a Chinese character takes two columns
    widest = max(widths)
    if mode != "soft" and (widest < 40 or (mode == "text" and widest > 120)):
        return lines  # a list of short lines, or one paragraph per line: nothing was wrapped
    # Each output line is gathered as a list of pieces and joined once: adding to a growing string made a long
    # paragraph quadratic.
    out, fenced = [[lines[0]]], lines[0].startswith(("```", "~~~"))
    for i in range(1, len(lines)):
        prev, line = lines[i - 1], lines[i]
        fenced ^= line.startswith(("```", "~~~"))
        if (fenced or _STANDS_ALONE.match(line) or _ENDS_ALONE.match(prev)
                or (mode != "soft" and widths[i - 1] < 0.75 * widest)):
            out.append([line])  # headings, list items, code lines and paragraph ends keep their line
        elif _WIDE.match(line[0]) or _WIDE.match(prev[-1]) or (prev[-1] == "-" and prev[-2:-1].isalpha()):
            out[-1].append(line)  # Chinese runs on without spaces; a hyphenated word keeps its hyphen
        else:
            out[-1] += (" ", line)
    return ["".join(pieces) for pieces in out]
