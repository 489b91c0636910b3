"""Degrees as clients and resumes write them (B.Sc., MSc, Ph.D., 本科, 硕士 ...) and the field after one."""

from __future__ import annotations

import re

# No library covers degree abbreviations in both languages; the table is short and says what it accepts.
# Highest first: a client who names a bachelor's and a master's has a master's. Short capitalised forms (BA,
# MA, EdD) are matched with their capitals only, and MS/BS only with dots or before "in"/"degree", so that
# "ma", "MS Office" or "med school" are not degrees. A school where one teaches is not one's education.
_CI, _CS = re.IGNORECASE, 0
_TABLE: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("PhD", ((r"\bph\.?\s?d\b", _CI), (r"\bd\.?\s?phil\b", _CI), (r"\bdoctora(?:te|l degree)\b", _CI),
             (r"\bEd\.?D\b", _CS), ("博士", _CS))),
    ("Master's", ((r"\bmaster'?s\b", _CI), (r"\bmaster(?= (?:degree|of|in)\b)", _CI), (r"\bm\.?\s?sc\b", _CI),
                  (r"\bm\.?b\.?a\b", _CI), (r"\bm\.?\s?eng\b", _CI), (r"\bm\.?\s?phil\b", _CI), (r"\bM\.?Ed\b", _CS),
                  (r"\bM\.?F\.?A\b", _CS), (r"\bM\.?P\.?H\b", _CS), (r"\bM\.A\.", _CS), (r"\bMA\b", _CS),
                  (r"\bM\.S\.", _CS), (r"\bMS (?:in|degree)\b", _CS), (r"\b(?:post)?graduate degree\b", _CI),
                  ("硕士", _CS), ("研究生", _CS))),
    ("Bachelor's", ((r"\bbachelor", _CI), (r"\bb\.?\s?sc\b", _CI), (r"\bb\.?\s?eng\b", _CI), (r"\bB\.?B\.?A\b", _CS),
                    (r"\bB\.?F\.?A\b", _CS), (r"\bB\.?Com\b", _CS), (r"\bLL\.?B\b", _CS), (r"\bB\.A\.", _CS),
                    (r"\bBA\b", _CS), (r"\bB\.S\.", _CS), (r"\bBS (?:in|degree)\b", _CS),
                    (r"\bundergrad(?:uate)?(?: degree)?\b", _CI), (r"\b(?:college|university) degree\b", _CI),
                    ("本科", _CS), ("学士", _CS), ("大学", _CS))),
    ("Associate", ((r"\bassociate'?s? degree\b", _CI), (r"\bassociate of (?:arts|science|applied)\b", _CI),
                   ("大专", _CS), ("专科", _CS))),
    ("High school", ((r"\b(?:high|secondary) school\b(?! teacher)", _CI), (r"\bGED\b", _CS),
                     (r"\bA[- ]levels?\b", _CS), ("高中(?!老师|教师)", _CS), ("中专", _CS), ("职高", _CS),
                     ("技校", _CS))),
)
DEGREE_RANK = {name: rank for rank, (name, _) in enumerate(_TABLE)}  # 0 is the highest
DEGREES: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...] = tuple(
    (name, tuple(re.compile(pattern, flags) for pattern, flags in cues)) for name, cues in _TABLE)
_ANY_DEGREE = "|".join(f"(?i:{p})" if flags else f"(?:{p})" for _, cues in _TABLE for p, flags in cues if p.isascii())
_FIELD_AFTER = re.compile(
    rf"(?:{_ANY_DEGREE})\.?(?:'?s)?(?i:\s+degree)?(?i:\s+of\s+(?:arts|science|engineering|business administration))?"
    r"\s*(?:\(\w+\))?\s+(?:in|of)\s+([A-Za-z][A-Za-z &/-]{2,40}?)(?=[,.;!?()]| and | at | from | but |\s*$)")


# A resume line often names the field right after the degree, without "in": "MSc Statistics, University of Leeds".
_FIELD_NEXT = re.compile(rf"^(?:{_ANY_DEGREE})\.?\s+([A-Z][A-Za-z&/-]*(?:\s+(?:[A-Z&][A-Za-z&/-]*|and|of))*?)"
                         r"\s*(?=[,(|–—]|$)")
_NOT_FIELDS = {"degree", "candidate", "student", "program", "programme", "course", "graduate", "holder"}


def degree_in(text: str) -> str | None:
    """The highest degree the text names, or None."""
    return next((name for name, cues in DEGREES if any(c.search(text or "") for c in cues)), None)


def mentions_degree(text: str) -> bool:
    return degree_in(text) is not None


def field_after_degree(text: str) -> str | None:
    """The field named with an English degree: "B.Sc. in Biology", "Bachelor of Science in Chemistry", "MSc
    Statistics, University of Leeds"."""
    match = _FIELD_AFTER.search(text or "")
    if match:
        return match.group(1).strip()
    match = _FIELD_NEXT.search((text or "").strip())
    if match and match.group(1).split()[0].lower() not in _NOT_FIELDS:
        return match.group(1).strip()
    return None
