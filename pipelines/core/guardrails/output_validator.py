"""The output validator (seed §6): what a model wrote is checked before anyone reads it or anything acts on it —
content safety, invented people, ids and addresses, format, personal data in clear, and a leaked canary."""

from __future__ import annotations

import re
import secrets
from collections.abc import Collection
from dataclasses import dataclass

from pipelines.core.guardrails.findings import Finding
from pipelines.core.guardrails.normalize import normalize
from pipelines.core.guardrails.pii import EMAIL, PLACEHOLDER, PiiVault, find_pii
from pipelines.core.text import has_cjk, name_key

MAX_REPLY_CHARS = 12000
UNKNOWN = {"id": ("[unknown ID]", "[未知编号]"), "email": ("[unknown email]", "[未知邮箱]"),
           "name": ("[unknown candidate]", "[未知候选人]")}
CORRECTION_NOTE = ("(Names, IDs or addresses that are not in the recruiting data were removed from this reply.)",
                   "（回复中有不在招聘数据中的姓名、编号或邮箱，已删除。）")

# Hiring on a protected characteristic, threats and fraud: a reply that says so is withheld, not edited.
_UNSAFE = [
    ("discrimination", re.compile(
        r"\b(?:do not|don'?t|never|won'?t|avoid|exclude|reject|filter out|screen out|no)\b[^.!?\n]{0,40}\b(?:hire|hiring|"
        r"candidates?|applicants?|anyone|people)\b[^.!?\n]{0,30}\b(?:women|woman|female|men|pregnant|mothers?|older|over \d{2}|"
        r"black|white|asian|hispanic|muslims?|jews?|jewish|christians?|gay|lesbian|transgender|disabled|immigrants?)\b"
        r"|\b(?:women|pregnant (?:women|candidates)|older (?:people|candidates|workers)|muslims|immigrants|disabled people)"
        r"\s+(?:are|is)\s+(?:lazy|unreliable|inferior|a liability|not suitable|bad hires?)\b")),
    ("discrimination", re.compile(
        r"(?:不(?:要|招|录用|考虑)|拒绝|排除|筛掉|只招)[^。！？\n]{0,12}(?:女性|女生|男性|孕妇|已婚未育|35岁以上|"
        r"少数民族|残疾人|外地人|乙肝|河南人|东北人)")),
    ("threat", re.compile(
        r"\b(?:i|we)(?:'ll| will| are going to)\s+(?:kill|hurt|harm|destroy|dox|stalk)\s+(?:you|him|her|them)\b"
        r"|(?:我|我们)(?:要|会)(?:杀|弄死|伤害)(?:你|他|她|他们)")),
    ("fraud", re.compile(
        r"\b(?:forge|fake|falsify|fabricate)\s+(?:a |the |your )?(?:degree|diploma|reference|references|certificate|"
        r"employment (?:history|record)|payslips?|visa)\b|(?:伪造|假造|编造)(?:学历|文凭|证书|工作经历|推荐信|签证)")),
]
_RAW_ACTION = re.compile(r"^\s*(?:ACTION\s*:|\{\s*\"(?:type|action|tool)\"\s*:)", re.M)
_MARKUP = re.compile(r"<\s*/?\s*(?:script|iframe|img|style|object|embed|svg|a\s)[^>]*>", re.I)


@dataclass(frozen=True)
class OutputVerdict:
    findings: tuple[Finding, ...]
    blocked: bool
    corrected: str   # the reply as it may be shown: invented entities removed, markup and PII taken out


def make_canary() -> str:
    """A fresh token for a system prompt: it never appears in real text, so seeing it in a reply means a leak."""
    return "CANARY-" + secrets.token_hex(8)


def validate_output_text(text: str, *, known_emails: Collection[str] = (), known_names: Collection[str] = (),
                         known_ids: Collection[str] = (), id_pattern: re.Pattern[str] | None = None,
                         canary: str | None = None, vault: PiiVault | None = None,
                         max_chars: int = MAX_REPLY_CHARS) -> OutputVerdict:
    """Check one reply or draft. A leaked canary or unsafe content blocks it; invented candidates, ids and
    emails are removed and flagged; with a `vault`, personal data in clear is masked."""
    text = text or ""
    zh = 1 if has_cjk(text) else 0
    findings: list[Finding] = []
    folded = normalize(text)
    if canary and _leaks(folded, canary):
        findings.append(Finding("output_canary_leak", "blocked",
                                "The reply contained the system prompt's canary token, so it was withheld."))
    for kind, pattern in _UNSAFE:
        if pattern.search(folded):
            findings.append(Finding("output_safety", "blocked", f"The reply contained unsafe content ({kind}).",
                                    {"kind": kind}))
            break
    if any(f.blocked for f in findings):
        return OutputVerdict(tuple(findings), True, "")
    corrected, invented = _remove_invented(text, zh, known_emails, known_names, known_ids, id_pattern)
    if invented:
        kinds = sorted({kind for kind, _ in invented})
        findings.append(Finding("output_hallucination", "warning",
                                f"The reply named {len(invented)} {'/'.join(kinds)} not found in the recruiting data; "
                                "they were removed.", {"kinds": kinds, "count": len(invented)}))
        corrected = corrected.rstrip() + "\n\n" + CORRECTION_NOTE[zh]
    corrected, format_findings = _format(corrected, max_chars)
    findings.extend(format_findings)
    if vault is not None:
        matches = [m for m in find_pii(corrected, vault.regions)
                   if not (m.type == "email" and m.value.lower() in _lower(known_emails))]
        if matches:
            corrected = vault.mask(corrected, matches)
            types = sorted({m.type for m in matches})
            findings.append(Finding("output_pii", "warning",
                                    f"Personal data in clear ({', '.join(types)}) was masked in the reply.",
                                    {"types": types}))
    return OutputVerdict(tuple(findings), False, corrected)


def _leaks(folded: str, canary: str) -> bool:
    """The canary, or its random part, anywhere in the (normalised) reply, also when spaced out or written in
    other letters."""
    flat = re.sub(r"[\W_]+", "", folded)
    token = re.sub(r"[\W_]+", "", normalize(canary))
    secret = token.removeprefix("canary")
    return token in flat or (len(secret) >= 8 and secret in flat)


def _lower(values: Collection[str]) -> set[str]:
    return {v.lower() for v in values if v}


_EN_NAME = r"[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){1,2}"
_NAME_BEFORE_ID = re.compile(rf"({_EN_NAME}|[\u4e00-\u9fff·]{{2,5}})\s*[（(]\s*(?:ID\s*)?([A-Z]{{1,3}}\d{{2,6}})\s*[)）]")
_NAME_AFTER_WORD = re.compile(rf"\b(?:[Cc]andidates?|[Aa]pplicants?)\s*[:：]?\s+({_EN_NAME})")


def _remove_invented(text: str, zh: int, known_emails: Collection[str], known_names: Collection[str],
                     known_ids: Collection[str], id_pattern: re.Pattern[str] | None) -> tuple[str, list[tuple[str, str]]]:
    invented: list[tuple[str, str]] = []
    # Names compare as the import stores them (one line, folded): "Kevin\nZhou" in a file is "Kevin Zhou" here.
    emails, names, ids = _lower(known_emails), {name_key(n) for n in known_names if n}, set(known_ids)
    # Only ids shaped like the data's own (the same letter prefix) are checked: "H100" or "ISO9001" are not ids.
    prefixes = {re.match(r"[A-Za-z]*", i).group() for i in ids}

    def unknown_id(value: str) -> bool:
        return value not in ids and re.match(r"[A-Za-z]*", value).group() in prefixes

    def known_name(name: str) -> bool:
        # The pattern may take in a word before the name ("Candidate Priya Nair", "候选人王磊"): a known name
        # at its end is enough.
        folded = name_key(name)
        return any(folded == n or folded.endswith(" " + n) or (has_cjk(n) and folded.endswith(n)) for n in names)

    for m in _NAME_BEFORE_ID.finditer(text):
        if not known_name(m.group(1).strip()):
            invented.append(("name", m.group(1).strip()))
    for m in _NAME_AFTER_WORD.finditer(text):
        if not known_name(m.group(1).strip()):
            invented.append(("name", m.group(1).strip()))
    for m in EMAIL.finditer(text):
        if m.group().lower() not in emails:
            invented.append(("email", m.group()))
    if id_pattern is not None and ids:
        for m in id_pattern.finditer(text):
            if unknown_id(m.group()) and not PLACEHOLDER.fullmatch(f"[{m.group()}]"):
                invented.append(("id", m.group()))
    corrected = text
    for kind, value in sorted(set(invented), key=lambda pair: -len(pair[1])):
        pattern = re.escape(value) if kind != "id" else rf"\b{re.escape(value)}\b"
        corrected = re.sub(pattern, UNKNOWN[kind][zh], corrected)
    return corrected, sorted(set(invented))


def _format(text: str, max_chars: int) -> tuple[str, list[Finding]]:
    """A reply must be prose for a person: no leftover tool-call lines, no active markup, not empty, not endless."""
    findings: list[Finding] = []
    if _RAW_ACTION.search(text):
        text = "\n".join(line for line in text.splitlines() if not _RAW_ACTION.match(line)).strip()
        findings.append(Finding("output_format", "warning", "A raw action line was left in the reply; it was removed."))
    if _MARKUP.search(text):
        text = _MARKUP.sub("", text)
        findings.append(Finding("output_format", "warning", "HTML tags in the reply were removed."))
    if len(text) > max_chars:
        text = text[:max_chars].rstrip() + " …"
        findings.append(Finding("output_format", "warning", f"The reply was cut to {max_chars:,} characters."))
    if not text.strip():
        findings.append(Finding("output_format", "warning", "The reply was empty."))
    return text, findings
