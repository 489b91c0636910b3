"""The input validator (seed §6): length limit, prompt injection and PII on text from a user or a document,
with one verdict: allow it, pass it on with PII masked, or block it."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pipelines.core.guardrails.findings import Finding
from pipelines.core.guardrails.injection import Source, detect_injection
from pipelines.core.guardrails.pii import PiiMatch, PiiVault, find_pii

MAX_CHARS = 64000
Verdict = Literal["allow", "redact", "block"]


@dataclass(frozen=True)
class InputVerdict:
    verdict: Verdict
    findings: tuple[Finding, ...]
    pii_types: tuple[str, ...]
    redacted: str                 # the text as it may go further: PII masked (for a block too, for the log)

    @property
    def blocked(self) -> bool:
        return self.verdict == "block"

    @property
    def checks(self) -> tuple[str, ...]:
        return tuple(f.check for f in self.findings)


def _types(matches: list[PiiMatch]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.type for m in matches))


def _pii_finding(matches: list[PiiMatch], types: tuple[str, ...]) -> Finding:
    return Finding("input_pii", "warning",
                   f"{len(matches)} piece(s) of personal data ({', '.join(types)}) were replaced by placeholders.",
                   {"types": list(types), "count": len(matches)})


def validate_input_text(text: str, *, max_chars: int = MAX_CHARS, source: Source = "user",
                        vault: PiiVault | None = None, regions: Iterable[str] | None = None) -> InputVerdict:
    """Check one message or document. An over-long text is blocked before anything else is scanned (only the
    part within the limit is masked, for display); an injection blocks and wins over PII; PII is masked. `regions`:
    the user's, for national phone numbers (default: the vault's; see find_pii)."""
    text = text or ""
    vault = PiiVault(regions) if vault is None else vault
    regions = vault.regions if regions is None else tuple(regions)
    if len(text) > max_chars:
        what = "document" if source == "document" else "message"
        head = text[:max_chars]
        cut = head.rfind(" ", max_chars - 200)  # end at a space so no value is cut in half and left in clear
        head = head[:cut] if cut > 0 else head
        matches = find_pii(head, regions)
        finding = Finding("input_length", "blocked", f"The {what} is {len(text):,} characters; the limit is {max_chars:,}.",
                          {"length": len(text), "limit": max_chars})
        redacted = vault.mask(head, matches) + f" … [{len(text) - len(head):,} more characters not shown]"
        return InputVerdict("block", (finding,), _types(matches), redacted)
    injections = detect_injection(text, source=source)
    matches = find_pii(text, regions)
    types = _types(matches)
    findings = [*injections, *([_pii_finding(matches, types)] if matches else [])]
    if injections:
        return InputVerdict("block", tuple(findings), types, vault.mask(text, matches))
    if matches:
        return InputVerdict("redact", tuple(findings), types, vault.mask(text, matches))
    return InputVerdict("allow", (), (), text)


def guard_record(record: dict[str, Any]) -> dict[str, Any]:
    """One line of the JSONL guard CLI: {"id", "text"[, "source", "max_chars"]} in, the verdict out
    ({"id", "verdict", "checks", "pii_types", "redacted"}); `redacted` never holds PII in clear."""
    source = record.get("source") if record.get("source") in ("user", "document") else "user"
    try:
        max_chars = int(record.get("max_chars") or MAX_CHARS)
    except (TypeError, ValueError):
        max_chars = MAX_CHARS  # a malformed limit falls back to the default rather than stopping the whole run
    verdict = validate_input_text(str(record.get("text") or ""), source=source, max_chars=max_chars)
    return {"id": record.get("id"), "verdict": verdict.verdict, "checks": list(verdict.checks),
            "pii_types": list(verdict.pii_types), "redacted": verdict.redacted}


def guard_lines(lines: Iterable[str]) -> Iterator[str]:
    """The guard CLI's loop: JSONL in, JSONL out; a line that is not a JSON object gets an error line."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not an object")
        except ValueError:
            yield json.dumps({"line": number, "error": "not a JSON object"})
            continue
        yield json.dumps(guard_record(record), ensure_ascii=False)
