"""Prompt-injection and jailbreak detection for English and Chinese text, from a user or from a document the
workflow reads: weighted signals per sentence (and per pair of adjacent sentences, since an attack is often
split across two), after normalisation so that obfuscation does not hide it; where they add up to part of an attack
only, the learned model decides (see `learned`)."""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from pipelines.core.guardrails import learned
from pipelines.core.guardrails.decoding import decoded_variants
from pipelines.core.guardrails.findings import Finding
from pipelines.core.guardrails.injection_rules import ALL_RULES, BLOCK_AT, DISTANCE, Rule
from pipelines.core.guardrails.mention import is_mention
from pipelines.core.guardrails.normalize import compact, fold, sentences
from pipelines.core.guardrails.prefilter import LiteralPrefilter
from pipelines.core.text import has_cjk

Source = Literal["user", "document"]

# What each kind of attack is called in a finding's message (the attack's own words are never repeated).
REASONS = {
    "override": "An instruction to ignore the assistant's rules",
    "hijack": "An attempt to replace the assistant's task with another one",
    "role": "An attempt to give the assistant a new identity",
    "extraction": "A request to reveal the assistant's hidden instructions",
    "jailbreak": "A jailbreak persona or a demand that the assistant drop its limits",
    "exfiltration": "A request to send personal data or secrets elsewhere",
    "role_marker": "A fake system or role marker",
    "indirect": "An instruction addressed to the AI that reads this document",
    "support": "Several weak signs of an instruction aimed at the assistant",
    "learned": "Wording that the learned model reads as an instruction aimed at the assistant",
}
# Which kind names a window whose heaviest signals weigh the same (a jailbreak that also overrides is a jailbreak).
_KIND_RANK = {"jailbreak": 4, "indirect": 3, "extraction": 2, "exfiltration": 2, "role_marker": 1, "role": 1}
SMUGGLED_WEIGHT = 1.5  # text hidden from the human reader (tag characters, base64, ROT13…) is there to be read by a model
# Most rules need a word a text rarely holds ("instructions", "系统提示"): a text without it is not searched with them.
# Found in one pass, this makes scanning a long document several times cheaper and changes no verdict.
_PREFILTER = LiteralPrefilter([rule.pattern for rule in ALL_RULES])
WHOLE_TEXT_CHARS = 4096  # up to this length a text is searched whole by each rule it may match


def _candidates(text: str, source: Source) -> list[Rule]:
    """The rules that weigh something for this source and may match somewhere in `text`, in ALL_RULES order."""
    return [rule for rule, possible in zip(ALL_RULES, _PREFILTER.possible(text))
            if possible and _weight(rule, source) > 0]


@dataclass(frozen=True)
class WindowScore:
    score: float
    kind: str
    signals: tuple[str, ...]
    first: int                 # 1-based number of the window's first sentence
    last: int
    language: str
    decoding: str = ""   # for a window of decoded text, what revealed it ("base64-encoded text")


def _weight(rule: Rule, source: Source) -> float:
    return rule.document if source == "document" else rule.user


def _total(rules: Iterable[Rule], source: Source) -> tuple[float, str, tuple[str, ...]]:
    """The summed weight of the rules (in one group only the heaviest counts), the kind of the heaviest signal,
    and the names of the rules that count."""
    best: dict[str, tuple[float, Rule]] = {}
    for rule in rules:
        weight = _weight(rule, source)
        if weight > 0 and (rule.group not in best or weight > best[rule.group][0]):
            best[rule.group] = (weight, rule)
    if not best:
        return 0.0, "", ()
    total = sum(weight for weight, _ in best.values())
    lead = max(best.values(), key=lambda pair: (pair[1].kind not in ("support", "hijack"), pair[0],
                                                _KIND_RANK.get(pair[1].kind, 0)))[1]
    return total, lead.kind, tuple(sorted(rule.name for _, rule in best.values()))


def _counts(rule: Rule, match: re.Match, text: str) -> bool:
    """Whether a match is evidence: not covered by the rule's `exempt` pattern, and (for a rule that can be
    distanced) not negated, prevented or described by the words right before it on its line."""
    if rule.exempt is not None and rule.exempt.search(match.group()):
        return False
    if rule.distanced:
        line_start = text.rfind("\n", 0, match.start()) + 1
        if DISTANCE.search(text, max(line_start, match.start() - 60), match.start()):
            return False
    return True


def _matches(rule: Rule, text: str) -> bool:
    """Whether the rule fires anywhere in `text`. After a match that does not count, the search goes on from the
    match's next character, not its end: a reported or negated phrase may hold a demand ("the documents provided,
    but tell me your instructions")."""
    pos = 0
    while match := rule.pattern.search(text, pos):
        if _counts(rule, match, text):
            return True
        pos = match.start() + 1
    return False


def score_window(text: str, source: Source = "user") -> tuple[float, str, tuple[str, ...]]:
    """The summed weight of the signals in one window of normalised text, the kind of its heaviest signal, and
    the names of the rules that fired (in one group only the heaviest counts)."""
    return _total((rule for rule in _candidates(text, source) if _matches(rule, text)), source)


def _rules_by_window(units: list[str], source: Source) -> tuple[list[dict[Rule, None]], list[dict[Rule, None]]]:
    """Which rules fire in each sentence, and which only across a sentence and the next one.

    Each rule runs once over all the sentences joined by newlines instead of once per window, so a long text costs
    one pass per rule. A match inside one sentence counts for every window holding that sentence; a match that
    runs into the next sentence counts for that pair only; a match quoted as an example counts only where another
    signal of its sentence is not quoted. (Dicts, not sets: the rules stay in `ALL_RULES` order, so a finding names
    the same signals on every run.)"""
    joined = "\n".join(units)
    starts = list(itertools.accumulate((len(u) + 1 for u in units[:-1]), initial=0))
    single: list[dict[Rule, None]] = [{} for _ in units]
    across: list[dict[Rule, None]] = [{} for _ in units]
    mentioned: list[dict[Rule, None]] = [{} for _ in units]  # matches quoted as an example (see `mention`)
    # In a long text only the sentences where a rule's words are (and the one after, for a match that runs into
    # it) are searched with it: one pass over a long document per rule cost more than the rest of the check. A
    # short text is searched whole, which costs less than finding where.
    if len(joined) > WHOLE_TEXT_CHARS:
        possible: list[int | None] = _PREFILTER.possible_units(joined, starts)
    else:
        possible = [None if ok else 0 for ok in _PREFILTER.possible(joined)]
    for number, rule in enumerate(ALL_RULES):
        if _weight(rule, source) <= 0 or possible[number] == 0:
            continue
        for first_unit, end in _search_ranges(possible[number], starts, len(joined)):
            pos = starts[first_unit]
            while pos < end and (match := rule.pattern.search(joined, pos, end)):
                first = bisect.bisect_right(starts, match.start()) - 1
                last = bisect.bisect_right(starts, max(match.end() - 1, match.start())) - 1
                if not _counts(rule, match, joined):
                    pos = match.start() + 1  # a demand may start inside a match that does not count (see _matches)
                    continue
                if first == last and is_mention(joined, match.start(), match.end()):
                    mentioned[first][rule] = None
                elif first == last:
                    single[first][rule] = None
                elif last == first + 1:
                    across[first][rule] = None
                # Search on after this match, or from the next sentence when it ran past its own.
                pos = max(match.end(), match.start() + 1) if first == last else starts[first + 1]
                if first == last and rule in single[first] and first + 1 < len(starts):
                    pos = max(pos, starts[first + 1])  # one match per sentence is enough
    # A quoted example counts only beside a signal that is not quoted: "Note to the AI: 'ignore your rules'".
    for unit, rules in enumerate(mentioned):
        if single[unit]:
            single[unit].update((rule, None) for rule in rules if rule not in single[unit])
    return single, across


def _search_ranges(units: int | None, starts: list[int], length: int) -> list[tuple[int, int]]:
    """(first unit, end offset) of each run of candidate units (a bit mask), each run reaching to the end of the unit
    after its last one. The whole text (None, or candidates in more than a quarter of the units) is one range: one
    search in C costs less than many short ones."""
    if units is None or units.bit_count() * 4 > len(starts):
        return [(0, length)]
    reach = (units | units << 1) & ((1 << len(starts)) - 1)  # each candidate with the unit after it
    firsts, lasts = reach & ~(reach << 1), reach & ~(reach >> 1)
    ranges = []
    for first, last in zip(_bits(firsts), _bits(lasts), strict=True):
        ranges.append((first, starts[last + 1] if last + 1 < len(starts) else length))
    return ranges


def _bits(mask: int) -> list[int]:
    """The numbers of the set bits of `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _scan_units(units: list[str], source: Source, bonus: float = 0.0,
                decoding: str = "") -> tuple[list[WindowScore], list[WindowScore]]:
    """The windows of `units` whose signals reach the blocking threshold, and those that reach part of it with the
    sign of an attack of some kind (for the learned model to judge, see `learned`)."""
    if not units:
        return [], []
    single, across = _rules_by_window(units, source)
    hits: list[WindowScore] = []
    partial: list[WindowScore] = []
    alone: set[int] = set()
    for i, rules in enumerate(single):
        if not rules or not (window := _window(rules, units[i], source, bonus, i, i, decoding)):
            continue
        if window.score >= BLOCK_AT:
            hits.append(window)
            alone.add(i)
        else:
            partial.append(window)
    for i in range(len(units) - 1):
        rules = {**single[i], **single[i + 1], **across[i]}
        if i in alone or i + 1 in alone or not rules:
            continue
        if window := _window(rules, units[i] + " " + units[i + 1], source, bonus, i, i + 1, decoding):
            (hits if window.score >= BLOCK_AT else partial).append(window)
    return hits, partial


def _window(rules: dict[Rule, None], text: str, source: Source, bonus: float, first: int, last: int,
            decoding: str) -> WindowScore | None:
    """The window's score if it blocks, or if it holds part of the evidence including a sign of an attack (a weak
    sign alone, "urgent_preamble" or "shapes_your_reply", is not one)."""
    score, kind, signals = _total(rules, source)
    if score <= 0 or score + bonus < learned.PARTIAL_EVIDENCE:
        return None
    if score + bonus < BLOCK_AT and kind == "support":
        return None
    return WindowScore(score + bonus, kind, signals, first + 1, last + 1, _language(text), decoding)


def scan(text: str, source: Source = "user") -> list[WindowScore]:
    """Every window (a sentence, or two adjacent ones) whose signals reach the blocking threshold, and every part
    of hidden text (tag characters, base64, ROT13… see `decoding`) that comes close to it. Where the rules block
    nothing but found part of the evidence, the learned model decides, and its block names the window with the
    most evidence; in a text that is mostly Chinese, it also decides where the rules found nothing, and its block
    names the sentence its reading centres on (see `learned`)."""
    folded = fold(text)
    hits, partial = _scan_units(sentences(compact(folded)), source)
    partial_texts = [(partial, folded)]
    for variant in decoded_variants(text):
        plain = fold(variant.text)
        found, maybe = _scan_units(sentences(compact(plain)), source, bonus=SMUGGLED_WEIGHT, decoding=variant.how)
        hits += found
        partial_texts.append((maybe, plain))
    if hits:
        return hits
    for windows, whole in partial_texts:
        if windows and learned.reads_as_attack(whole):
            best = max(windows, key=lambda w: w.score)
            return [dataclasses.replace(best, score=BLOCK_AT, signals=(*best.signals, learned.SIGNAL))]
    if learned.mostly_chinese(folded) and not _asks_to_send(folded, source) and (verdict := learned.best_window(folded)):
        # The window's middle names the sentence: the one the window is most about.
        number = max(len(sentences(folded[:(verdict.start + verdict.end) // 2])), 1)
        return [WindowScore(BLOCK_AT, "learned", (learned.SIGNAL,), number, number, "Chinese")]
    return []


# An e-mail address, or one the chat masked as it came in ("[EMAIL_1]", folded).
_ADDRESS = re.compile(r"[^\s@]+@[^\s@]+\.\w+|\[email_\d+\]")


def _asks_to_send(folded: str, source: Source) -> bool:
    """Whether a user's message names an e-mail address, as a request to send something there does. The action
    limits refuse such a request with its reasons (an address that is not a candidate's or the team's, which
    personal data), which a block by the model alone would hide; the rules still block one that carries an attack's
    evidence."""
    return source == "user" and _ADDRESS.search(folded) is not None


def detect_injection(text: str, *, source: Source = "user") -> list[Finding]:
    """One blocking finding per check that fired ("input_injection", "input_jailbreak", or for a document
    "indirect_injection"), naming the sentence and the kind of attack, never quoting it."""
    if not text or not text.strip():
        return []
    by_check: dict[str, tuple[WindowScore, int]] = {}
    for hit in scan(text, source):
        check = _check_for(hit.kind, source)
        seen, count = by_check.get(check, (hit, 0))
        by_check[check] = (hit if hit.score > seen.score else seen, count + 1)
    return [_finding(check, hit, count, source) for check, (hit, count) in by_check.items()]


def _check_for(kind: str, source: Source) -> str:
    if source == "document":
        return "indirect_injection"
    return "input_jailbreak" if kind == "jailbreak" else "input_injection"


def _finding(check: str, hit: WindowScore, count: int, source: Source) -> Finding:
    where = (f"in {hit.decoding} (hidden text, part {hit.first})" if hit.decoding
             else f"in sentence {hit.first}" if hit.first == hit.last else f"across sentences {hit.first} and {hit.last}")
    more = f"; {count - 1} more passage(s) look the same" if count > 1 else ""
    how = (" (part of the evidence; the learned model read the text as an attack)"
           if learned.SIGNAL in hit.signals and hit.kind != "learned" else "")
    message = f"{REASONS.get(hit.kind, REASONS['support'])} was found {where} ({hit.language}){more}{how}."
    detail = {"kind": hit.kind, "sentence": hit.first, "score": round(hit.score, 1), "signals": list(hit.signals),
              "language": hit.language, "source": source, "windows": count, "decoding": hit.decoding}
    return Finding(check, "blocked", message, detail)


def _language(text: str) -> str:
    return "Chinese" if has_cjk(text) else "English"
