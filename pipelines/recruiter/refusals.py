"""What a request asks the recruiter to send where it may not: to an address that is neither a candidate's nor the
team's, or personal identifiers sent out by e-mail. Each is refused with its reason; the plan carries the refusals
(and loses its e-mail steps), the chat and the plan card show them, and the guardrail log keeps them."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from pipelines.core.guardrails.findings import Finding
from pipelines.core.guardrails.pii import EMAIL, PLACEHOLDER, PiiVault
from pipelines.recruiter.answers import t
from pipelines.recruiter.calendar_events import load_interviewers
from pipelines.recruiter.schemas import Refusal

RECIPIENT, PERSONAL_DATA = "action_recipient", "action_personal_data"

# A request to send something out (English and Chinese). Showing or listing data in the app is not sending it.
_SEND_EN = r"\b(?:e-?mail(?:ed|ing)?|mail|send|sending|sent|forward|share|export|upload|transfer|leak|post|cc|bcc)\b"
_SEND_ZH = r"发送|发到|发给|发至|转发|分享|导出|外发|泄露|抄送|邮件|发(?!布|现|展|生|表)"
# Personal identifiers by kind: (pattern, English name, Chinese name). Other people's e-mail addresses count too.
_KINDS: tuple[tuple[str, str, str], ...] = (
    (r"\b(?:(?:mobile|cell|tele)?phone(?:\s+numbers?|s)|mobile\s+numbers?|cell\s+numbers?|contact\s+(?:numbers?|details))\b"
     r"|电话号码|联系电话|手机号码|手机号|电话(?!面试|沟通|会议)|联系方式", "phone numbers", "电话号码"),
    (r"\b(?:(?:national|resident|personal)\s+)?id(?:entity)?\s+(?:numbers?|cards?|documents?)\b|身份证(?:号码|号)?",
     "ID numbers", "身份证号"),
    (r"\bpassports?(?:\s+numbers?)?\b|护照(?:号码|号)?", "passport numbers", "护照号"),
    (r"\b(?:social\s+security\s+numbers?|ssns?)\b|社保号|社会安全号(?:码)?", "social security numbers", "社会安全号"),
    (r"\b(?:bank\s+(?:details|accounts?(?:\s+numbers?)?)|ibans?|(?:credit|debit|bank)\s+cards?(?:\s+numbers?)?|"
     r"card\s+numbers?)\b|银行卡(?:号)?|银行账号|信用卡(?:号)?", "bank and card numbers", "银行卡号"),
    (r"\be-?mail\s+addresses\b|\b(?:home|postal|street)\s+addresses\b|邮箱地址|电子邮箱地址|家庭住址|住址",
     "e-mail and home addresses", "邮箱地址和住址"),
    (r"\b(?:dates?\s+of\s+birth|birth\s*dates?|birthdays?)\b|出生日期|生日", "dates of birth", "出生日期"),
)
# Between the sending and the data: asking for it, or the data being where the e-mail goes ("email them at their
# address"), is not sending the data out.
_NOT_THE_OBJECT = re.compile(r"\b(?:ask\w*|request\w*|collect\w*|confirm\w*|verif\w*|updat\w*|check\w*|to|at|via|on|"
                             r"using|by)\b|询问|问|索要|收集|确认|核实|更新|补充|通过|用", re.I)
_CLAUSE = r"[^.!?;\n。！？；]"


def _asks_to_send(text: str, noun: str) -> bool:
    """The text sends the data named by `noun` out: a send word, then the data in the same clause (nothing between
    them saying it is asked for or used as the address), or the data, then a send word ("把电话号码发到…",
    "the phone numbers: send them to …")."""
    for verb_first in re.finditer(rf"(?:{_SEND_EN}|{_SEND_ZH})(?P<gap>{_CLAUSE}{{0,60}}?)(?:{noun})", text, re.I):
        if not _NOT_THE_OBJECT.search(verb_first.group("gap")):
            return True
    data_first = re.compile(rf"(?:{noun}){_CLAUSE}{{0,30}}?(?:\b(?:send|e-?mail|forward|share|export|mail)\s+"
                            rf"(?:them|it|these|those|all)\b|{_SEND_ZH})", re.I)
    return bool(data_first.search(text))


_SENDING = re.compile(rf"{_SEND_EN}|{_SEND_ZH}", re.I)


def asks_to_send_something(message: str) -> bool:
    """A word for sending out: without one, a request has nothing to refuse (and needs no look-up)."""
    return bool(_SENDING.search(message or ""))


def find_refusals(message: str, vault: PiiVault, allowed: Collection[str], lang: str) -> list[Refusal]:
    """The refusals a request needs: each address in it (as written, or behind the vault's placeholder) that is not
    in `allowed` (the candidates' and the team's addresses), and each kind of personal identifier it asks to send.
    Reasons name the address by its placeholder when it has one, so that the state and the log stay masked."""
    text = " ".join((message or "").split())
    if not asks_to_send_something(text):
        return []
    known = {a.lower() for a in allowed if a}
    refusals: list[Refusal] = []
    shown: dict[str, str] = {}  # address -> how the reason names it
    for m in PLACEHOLDER.finditer(text):
        if m.group(1).lower() == "email":
            shown.setdefault(vault.restore(m.group()).lower(), m.group().upper())
    for m in EMAIL.finditer(text):
        shown.setdefault(m.group().lower(), m.group())
    for address, name in shown.items():
        if EMAIL.fullmatch(address) and address not in known:
            refusals.append(Refusal(check=RECIPIENT, reason=t(
                lang, f"{name} is not a candidate's or the team's address: no e-mail goes to it.",
                f"{name} 不是候选人或团队的邮箱地址：不会向它发送任何邮件。")))
    for noun, en, zh in _KINDS:
        if _asks_to_send(text, noun):
            refusals.append(Refusal(check=PERSONAL_DATA, reason=t(
                lang, f"{en[0].upper() + en[1:]} are personal data: they are not sent by e-mail.",
                f"{zh}属于个人数据：不会通过邮件发送。")))
    return refusals


def as_findings(refusals: list[Refusal]) -> list[Finding]:
    """The refusals for the guardrail log and the chat's banners (blocked: the action did not happen)."""
    return [Finding(r.check, "blocked", r.reason, {"refused": r.check}) for r in refusals]


def team_addresses(policy: Any, user_id: str = "") -> set[str]:
    """Where the team's own mail goes: the sender address, the interviewers, and the signed-in user's address."""
    team = {getattr(policy, "smtp_from", ""), *(i.email for i in load_interviewers().values())}
    return {a for a in team | ({user_id} if "@" in (user_id or "") else set()) if a}


def request_refusals(message: str, services: Any, policy: Any, *, session_id: str, user_id: str = "",
                     lang: str = "en") -> list[Refusal]:
    """find_refusals for a message of a session: the session's vault, the candidates' and the team's addresses (read
    only for a message that asks to send something: every chat turn passes here, most send nothing)."""
    if not asks_to_send_something(message):
        return []
    store = services.store
    _, _, candidate_emails = store.known_entities()
    return find_refusals(message, PiiVault.from_entries(store.vault_entries(session_id)),
                         candidate_emails | team_addresses(policy, user_id), lang)
