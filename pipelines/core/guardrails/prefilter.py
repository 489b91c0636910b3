"""Which regular expressions can match a text at all: the literal words every match must contain, read from each
pattern's syntax tree, and looked up in one Aho-Corasick pass over the text, so that a long document is not run
through every rule at every character."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import ahocorasick
import numpy as np

try:  # the parser of Python's own regex syntax; private, so without it nothing is filtered, only slower
    from re import _constants as sre, _parser as sre_parse
except ImportError:  # pragma: no cover - Python moved it
    sre = sre_parse = None

Requirement = frozenset[str]  # at least one of these strings is in every match
MAX_REQUIREMENTS = 4  # per pattern: more adds look-ups and rarely rules anything more out


def required_literals(pattern: re.Pattern) -> tuple[Requirement, ...]:
    """Sets of strings such that every match of `pattern` contains at least one string of each set; () when
    nothing can be said (case-insensitive patterns, an unknown syntax). A string is kept only if it is worth
    looking for: two characters or more, or one that is not ASCII (a Chinese character)."""
    if sre_parse is None or pattern.flags & re.IGNORECASE:
        return ()
    try:
        found = _sequence(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    except Exception:  # noqa: BLE001 - a pattern this reader does not follow is simply always run
        return ()
    useful = {frozenset(s) for s in found if s and all(len(x) >= 2 or not x.isascii() for x in s)}
    return tuple(sorted(useful, key=_selectivity)[:MAX_REQUIREMENTS])


def _selectivity(strings: frozenset[str]) -> tuple[int, int, tuple[str, ...]]:
    # longer shortest string first (rarer in text), then fewer strings; the last key only makes the order stable
    return -min(map(len, strings)), len(strings), tuple(sorted(strings))


def _sequence(items: list) -> list[set[str]]:
    """The requirements of a sequence of regex items: each item's, and each run of literal characters."""
    out: list[set[str]] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            out.append({"".join(run)})
            run.clear()

    for op, arg in items:
        if op is sre.LITERAL:
            run.append(chr(arg))
            continue
        close_run()  # anything else (a class, an anchor, a lookaround) may stand between two literals
        if op is sre.SUBPATTERN:
            _group, add_flags, _del_flags, sub = arg
            if not add_flags & re.IGNORECASE:
                out += _sequence(list(sub))
        elif op is sre.ATOMIC_GROUP:
            out += _sequence(list(arg))
        elif op is sre.BRANCH:
            alternatives = [_best(_sequence(list(alt))) for alt in arg[1]]
            if all(alt is not None for alt in alternatives):
                out.append(set().union(*alternatives))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = arg
            if low >= 1:
                out += _sequence(list(sub))
    close_run()
    return out


def _best(requirements: list[set[str]]) -> set[str] | None:
    candidates = [r for r in requirements if r]
    return min(candidates, key=lambda r: _selectivity(frozenset(r))) if candidates else None


class LiteralPrefilter:
    """For a fixed list of patterns, which of them may match a given text. Exact: a pattern it rules out has no
    match in the text; it may let through a pattern that then does not match."""

    def __init__(self, patterns: Sequence[re.Pattern]) -> None:
        self._automaton = ahocorasick.Automaton()
        ids: dict[str, int] = {}
        self._needs: list[tuple[frozenset[int], ...]] = []
        for pattern in patterns:
            needs = []
            for requirement in required_literals(pattern):
                needs.append(frozenset(ids.setdefault(s, len(ids)) for s in requirement))
            self._needs.append(tuple(needs))
        for string, number in ids.items():
            self._automaton.add_word(string, number)
        if ids:
            self._automaton.make_automaton()
        self._any = bool(ids)

    def possible(self, text: str) -> list[bool]:
        """One flag per pattern, in order: False when the text lacks a string that every match needs."""
        present = {number for _end, number in self._automaton.iter(text)} if self._any and text else set()
        return [all(not need.isdisjoint(present) for need in needs) for needs in self._needs]

    def possible_units(self, text: str, starts: Sequence[int]) -> list[int | None]:
        """Per pattern, the units of `text` (cut at `starts`) where one of its matches may begin, as a bit mask (bit u
        = unit u): those that, with the unit after them, hold a string of each requirement. None for a pattern
        nothing can be said of (search all of it); 0 for one that cannot match. Exact in the same sense as
        `possible`.

        Bit masks, not sets: a long document has hundreds of units and common strings are in most of them, where
        unions and intersections of Python sets cost more than the search they save."""
        where: dict[int, int] = {}
        if self._any and text:
            found = np.fromiter(itertools.chain.from_iterable(self._automaton.iter(text)), dtype=np.int64)
            if len(found):
                ends, numbers = found[0::2], found[1::2]
                units = np.searchsorted(np.asarray(starts, dtype=np.int64), ends, side="right") - 1
                present, rows = np.unique(numbers, return_inverse=True)  # a row per literal found, not per literal
                flags = np.zeros((len(present), len(starts)), dtype=bool)
                flags[rows, units] = True
                packed = np.packbits(flags, axis=1, bitorder="little")
                for row, number in enumerate(present.tolist()):
                    where[number] = int.from_bytes(packed[row].tobytes(), "little")
        out: list[int | None] = []
        units_of: dict[frozenset[int], int] = {}  # a requirement's units, once per text

        def units_with(need: frozenset[int]) -> int:
            if need not in units_of:
                mask = 0
                for number in need:
                    mask |= where.get(number, 0)
                units_of[need] = mask
            return units_of[need]

        for needs in self._needs:
            if not needs:
                out.append(None)
                continue
            candidates = units_with(needs[0])
            candidates |= candidates >> 1  # a match may begin in the unit before the string
            for need in needs[1:]:
                held = units_with(need)
                candidates &= held | held >> 1
            out.append(candidates)
        return out
