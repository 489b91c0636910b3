"""The recruiter's skills vocabulary: load it, normalise a skill name, and find skills in English or Chinese text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pipelines.core.paths import ASSETS_DIR

VOCABULARY_PATH = ASSETS_DIR / "recruiter" / "skills_vocabulary.json"

_LATIN = "a-z0-9\u00e0-\u00ff"  # ASCII and Latin-1 letters: a skill name must not start or end inside such a word
_SEP = r"[\s\-_.]?"  # "spring boot" also matches "spring-boot", "spring.boot", "springboot"
_SEPS = frozenset(" -_.")
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
# Words after which a guarded name is an ordinary English word: "go to", "react to", "excel at", "Spark of"...
_BLOCK_AFTER = frozenset(
    "to through ahead back out on onto over into beyond live further up down away home abroad there here at in the a an "
    "along around after off together forward well far under of about for".split())
_BLOCK_BEFORE = frozenset("to let's lets will shall can could would should must may might not please ready i we you they".split())
_WORD_AFTER = re.compile(r"\s*([A-Za-z']+)")
_WORD_BEFORE = re.compile(r"([A-Za-z']+)\s*$")
PARTIAL_GROUP, PARTIAL_PARENT = 0.5, 0.3  # credit for a substitute (MySQL for PostgreSQL) and for a sibling under one parent


def skill_key(text: str) -> str:
    """Lower case without separators (a leading dot stays: ".net" is not "net"); aliases and matches share it."""
    text = text.strip().lower()
    return text[:1] + re.sub(r"[\s\-_.]+", "", text[1:]) if text.startswith(".") else re.sub(r"[\s\-_.]+", "", text)


def _lower(text: str) -> str:
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    # A few characters grow when lower-cased ("İ"): keep those as they are so offsets still point into `text`.
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


@dataclass(frozen=True)
class Skill:
    id: str
    en: str
    zh: str
    category: str
    implies: tuple[str, ...] = ()
    group: str | None = None


@dataclass(frozen=True)
class _Guard:
    alias: str
    context: frozenset[str]  # categories of which another skill must be in the text; empty: no such need

    @property
    def case_sensitive(self) -> bool:
        return self.alias != self.alias.lower()


@dataclass
class _Trie:
    children: dict[str, _Trie] = field(default_factory=dict)
    end: str | None = None  # the boundary a match must respect when an alias ends here

    def add(self, atoms: list[str], boundary: str) -> None:
        node = self
        for atom in atoms:
            node = node.children.setdefault(atom, _Trie())
        node.end = boundary

    def pattern(self) -> str:
        # Longer continuations first, the end of a shorter alias last: the longest alias wins at a position.
        alts = [atom + child.pattern() for atom, child in sorted(self.children.items())]
        if self.end is not None:
            alts.append(self.end)
        if len(alts) == 1:
            return alts[0]
        return "(?:" + "|".join(alts) + ")"


def _atoms(alias: str) -> tuple[list[str], str]:
    text = alias.strip().lower()
    atoms: list[str] = []
    for pos, ch in enumerate(text):
        if ch in _SEPS and pos > 0:
            if atoms and atoms[-1] != _SEP:
                atoms.append(_SEP)
            continue
        atoms.append(re.escape(ch))
    if re.match(rf"[{_LATIN}.+#]", text[:1]):
        # The check that no word goes on before the alias comes after its first character, so that the pattern
        # starts with a literal and the regex engine can skip ahead to the characters that can start an alias.
        atoms[0] += rf"(?<![{_LATIN}].)"
    last = text[-1:]
    boundary = rf"(?![{_LATIN}+#])" if last in "+#" else rf"(?![{_LATIN}])" if re.match(rf"[{_LATIN}]", last) else ""
    return atoms, boundary


class SkillVocabulary:
    """Canonical skills with their aliases, implied broader skills and groups of substitutes, plus the places table."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.skills: dict[str, Skill] = {}
        self.families: dict[str, list[str]] = data.get("families", {})
        self.places: dict[str, Any] = data.get("places", {})
        self._plain: dict[str, str] = {}  # alias key -> skill id
        self._guarded: dict[str, tuple[str, _Guard]] = {}
        trie = _Trie()
        for item in data["skills"]:
            skill = Skill(item["id"], item["en"], item["zh"], item["category"], tuple(item.get("implies", ())),
                          item.get("group"))
            self.skills[skill.id] = skill
            guarded = [_Guard(g["alias"], frozenset(self._context(g.get("context"), skill.category)))
                       for g in item.get("guarded", ())]
            guarded_keys = {skill_key(g.alias) for g in guarded}
            names = [n for n in (skill.en, skill.zh) if skill_key(n) not in guarded_keys and len(skill_key(n)) > 1]
            for alias in dict.fromkeys([*item["aliases"], *names]):
                self._add_plain(trie, alias, skill.id)
                if len(alias) >= 4 and alias[-1].isascii() and alias[-1].isalpha() and alias[-1] not in "sS":
                    self._add_plain(trie, alias + "s", skill.id, quiet=True)  # plurals: "microservice" -> "microservices"
            for guard in guarded:
                self._guarded.setdefault(skill_key(guard.alias), (skill.id, guard))
                trie.add(*_atoms(guard.alias))
        self._implied = {sid: self._closure(sid) for sid in self.skills}
        self._pattern = re.compile(trie.pattern())  # matched against lower-cased text: faster than IGNORECASE

    def _context(self, context: list[str] | None, category: str) -> list[str]:
        return list(context) if context is not None else self.families.get(category, [category])

    def _add_plain(self, trie: _Trie, alias: str, skill_id: str, quiet: bool = False) -> None:
        key = skill_key(alias)
        owner = self._plain.get(key)
        if owner is not None and owner != skill_id:
            if quiet:
                return
            raise ValueError(f"skills vocabulary: alias {alias!r} names both {owner!r} and {skill_id!r}")
        self._plain[key] = skill_id
        trie.add(*_atoms(alias))

    def _closure(self, skill_id: str) -> frozenset[str]:
        seen, todo = {skill_id}, [skill_id]
        while todo:
            for parent in self.skills[todo.pop()].implies:
                if parent in self.skills and parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
        return frozenset(seen)

    @classmethod
    def load(cls, path: Path | str = VOCABULARY_PATH) -> SkillVocabulary:
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    # -- finding skills -------------------------------------------------------------------------------------------

    def extract(self, text: str) -> set[str]:
        """The canonical ids of the skills the text names; ambiguous names ("Go", "RN", "PM") count only in context."""
        return set(self.extract_ordered(text))

    def extract_ordered(self, text: str) -> list[str]:
        """Like `extract`, in order of first mention (for display and for weighting a job title's skills)."""
        found: dict[str, int] = {}
        pending: list[tuple[int, str, _Guard]] = []
        text = text or ""
        for match in self._pattern.finditer(_lower(text)):
            key = skill_key(match.group())
            if key in self._plain:
                found.setdefault(self._plain[key], match.start())
            elif key in self._guarded:
                skill_id, guard = self._guarded[key]
                if skill_id not in found and self._plausible(text, match, guard):
                    pending.append((match.start(), skill_id, guard))
        # Context comes from the plainly named skills only, so the result does not depend on the order of mentions.
        plain = [(s, self.skills[s].category) for s in found]
        for start, skill_id, guard in pending:
            if not guard.context or any(cat in guard.context for s, cat in plain if s != skill_id):
                found.setdefault(skill_id, start)
        return sorted(found, key=lambda s: (found[s], s))

    @staticmethod
    def _plausible(text: str, match: re.Match[str], guard: _Guard) -> bool:
        """A guarded name is a skill when written as a name, not as an ordinary word: "Go, Rust" but not "go to"."""
        start, end = match.span()
        before, after = text[max(0, start - 1):start], text[end:end + 1]
        next_to_cjk = bool(_CJK.match(before) or _CJK.match(after))
        word = text[start:end]  # the original case: the match ran on lower-cased text of the same length
        if guard.case_sensitive and not next_to_cjk and word not in (guard.alias, guard.alias.upper()):
            return False
        if after in ("-", "&", "'", "’") or re.search(r"[\d$€£¥]\s*$", text[max(0, start - 3):start]):
            return False  # "go-to", "R&D", "3 PM", "5 ML"
        nxt = _WORD_AFTER.match(text, end)
        prev = _WORD_BEFORE.search(text[max(0, start - 20):start])
        return not ((nxt and nxt.group(1).lower() in _BLOCK_AFTER) or (prev and prev.group(1).lower() in _BLOCK_BEFORE))

    # -- names and relations --------------------------------------------------------------------------------------

    def normalise(self, name: str) -> str | None:
        """The canonical id of a skill name ("K8S", "机器学习", "machine_learning"), or None if the vocabulary lacks it."""
        if not (name or "").strip():
            return None
        if name.strip() in self.skills:
            return name.strip()
        key = skill_key(name)
        if key in self._plain:
            return self._plain[key]
        if key in self._guarded:  # a skills list says "Go" meaning the language: no context needed
            return self._guarded[key][0]
        found = self.extract_ordered(name)
        return found[0] if len(found) == 1 else None

    def display(self, skill_id: str, lang: str = "en") -> str:
        skill = self.skills.get(skill_id)
        if skill is None:
            return skill_id
        return skill.zh if lang.startswith("zh") else skill.en

    def category(self, skill_id: str) -> str | None:
        skill = self.skills.get(skill_id)
        return skill.category if skill else None

    def expand(self, skill_ids: Iterable[str]) -> set[str]:
        """The skills with every broader skill they imply (Spring Boot -> Java; PyTorch -> deep learning -> ML)."""
        out: set[str] = set()
        for sid in skill_ids:
            out |= self._implied.get(sid, {sid})
        return out

    def credit(self, needed: str, have: set[str]) -> float:
        """How far an (expanded) skill set covers a needed skill: 1 if held, partial for a substitute or a sibling."""
        if needed in have:
            return 1.0
        skill = self.skills.get(needed)
        if skill is None:
            return 0.0
        if skill.group and any(self.skills[h].group == skill.group for h in have if h in self.skills):
            return PARTIAL_GROUP
        if any(parent in have for parent in skill.implies):
            return PARTIAL_PARENT
        return 0.0

    def jieba_words(self) -> list[str]:
        """Aliases with Chinese characters, for jieba's dictionary: "机器学习" and "K8S集群" then stay whole."""
        words = {alias for alias in (*self._plain, *self._guarded) if _CJK.search(alias)}
        return sorted(words)


@cache
def vocabulary() -> SkillVocabulary:
    """The shipped vocabulary, loaded once per process."""
    return SkillVocabulary.load()
