"""Editing a plan (seed §4, §7): a modify decision applied, the readable diff between two plans, the step
semantics the validator and the editor share (which steps email, how many candidates), and the offline
regeneration of a plan from a free-text instruction."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from pipelines.recruiter.answers import t
from pipelines.recruiter.labels import agent_label, mode_label, step_line
from pipelines.recruiter.schemas import EstimatedActions, Plan, PlanDecision, PlanStep, _lang

MAX_TOP = 200  # the most candidates one plan names; the batch cap and the daily quota cut further



def apply_decision(plan: Plan, decision: PlanDecision, lang: str | None = None) -> tuple[Plan, list[str]]:
    """The plan a modify decision asks for: the edited steps first, then the instruction; (plan, notes)."""
    notes: list[str] = []
    if decision.action != "modify":
        return plan, notes
    if decision.steps:
        plan = plan.with_steps(decision.steps)
        plan = _reestimate(plan, _count_in(plan))
    if decision.instruction:
        plan, notes = apply_instruction(plan, decision.instruction, _lang(lang, decision.instruction))
    return plan, notes


# --- diff ------------------------------------------------------------------------------------------------------
class DiffLine(BaseModel):
    kind: Literal["added", "removed", "changed", "moved"]
    step: int
    text: str


def _key(step: PlanStep) -> tuple[str, str]:
    return step.agent, " ".join(step.action.casefold().split())


def _longest_increasing(values: list[int]) -> set[int]:
    """Indices (into values) of one longest strictly increasing subsequence."""
    best: list[list[int]] = []
    for i, v in enumerate(values):
        chain = max((c for c in best if values[c[-1]] < v), key=len, default=[])
        best.append([*chain, i])
    return set(max(best, key=len, default=[]))


def plan_diff(old: Plan, new: Plan) -> list[DiffLine]:
    """What changed from old to new, in the new plan's order: steps added, removed, changed (same agent, new
    action or mode) and moved (kept, but out of their old order; a renumbering alone is not a move)."""
    lang = new.lang
    used: set[int] = set()
    pairs: dict[int, int] = {}  # new index -> old index
    for ni, ns in enumerate(new.steps):
        for oi, os_ in enumerate(old.steps):
            if oi not in used and _key(os_) == _key(ns):
                pairs[ni] = oi
                used.add(oi)
                break
    # unmatched steps of the same agent: the nearest old one is the edited form of the new one
    for ni, ns in enumerate(new.steps):
        if ni in pairs:
            continue
        candidates = [oi for oi, os_ in enumerate(old.steps) if oi not in used and os_.agent == ns.agent]
        if candidates:
            oi = min(candidates, key=lambda o: abs(o - ni))
            pairs[ni] = oi
            used.add(oi)
    order = sorted(pairs)  # new indices in new order
    keep = _longest_increasing([pairs[ni] for ni in order])
    in_order = {order[i] for i in keep}
    lines: list[tuple[float, int, DiffLine]] = []
    for ni, ns in enumerate(new.steps):
        if ni not in pairs:
            lines.append((ni, 0, DiffLine(kind="added", step=ns.step, text=step_line(ns, lang))))
            continue
        os_ = old.steps[pairs[ni]]
        if _key(os_) != _key(ns) or os_.mode != ns.mode:
            was = os_.action if os_.action != ns.action else mode_label(os_.mode, lang)
            now = ns.action if os_.action != ns.action else mode_label(ns.mode, lang)
            lines.append((ni, 1, DiffLine(kind="changed", step=ns.step,
                                          text=f"{ns.step}. {agent_label(ns.agent, lang)}: {was} → {now}")))
        if ni not in in_order:
            lines.append((ni, 2, DiffLine(kind="moved", step=ns.step,
                                          text=t(lang, f"{step_line(ns, lang)} (was step {os_.step})",
                                                 f"{step_line(ns, lang)}（原第 {os_.step} 步）"))))
    matched_old = set(pairs.values())
    for oi, os_ in enumerate(old.steps):
        if oi not in matched_old:
            # shown where it stood: just before the new step that followed it
            after = [ni for ni in pairs if pairs[ni] < oi]
            position = (max(after) + 0.5) if after else -0.5
            lines.append((position, -1, DiffLine(kind="removed", step=os_.step, text=step_line(os_, lang))))
    return [line for _, _, line in sorted(lines, key=lambda x: (x[0], x[1]))]


_SIGNS = {"added": "+", "removed": "-", "changed": "~", "moved": "↕"}


def diff_lines(old: Plan, new: Plan) -> list[str]:
    """The diff for display: "+ 3. Communication agent (in parallel): …", "- 2. …", "~ …", "↕ …"."""
    return [f"{_SIGNS[d.kind]} {d.text}" for d in plan_diff(old, new)]


# --- step semantics ----------------------------------------------------------------------------------------------
_EMAIL_WORDS = re.compile(r"e-?mails?|outreach|invitation|\bsend|邮件|外联|邀请|发送", re.I)
_DRAFT_WORDS = re.compile(r"draft|write|personali[sz]|generat|compose|起草|生成|撰写|草拟", re.I)
_CANDIDATE_WORDS = re.compile(r"candidate|shortlist|applicant|候选人|名单|应聘", re.I)
# where an action names its number of candidates, and how it is written back
_COUNT_PATTERNS = ((re.compile(r"\btop \d+\b", re.I), "top {n}"), (re.compile(r"前 ?\d+ ?名"), "前 {n} 名"),
                   (re.compile(r"\b\d+ candidate\(s\)"), "{n} candidate(s)"), (re.compile(r"\d+ ?位候选人"), "{n} 位候选人"))


def _emails_candidates(step: PlanStep) -> bool:
    return step.agent == "communication"


def _touches_email(step: PlanStep) -> bool:
    """A step that drafts, approves or sends emails (removed when emailing is dropped or no email is left)."""
    if step.agent == "communication":
        return True
    return step.agent == "supervisor" and bool(_EMAIL_WORDS.search(step.action))


def _step_calls(step: PlanStep, n: int) -> int:
    """Model calls a step makes: one per candidate for per-candidate drafting or parsing, one for an analysis,
    none for an interrupt, a send, a scan or an execution."""
    if step.mode == "interrupt" or step.agent == "supervisor":
        return 0
    if step.agent == "communication":
        return n if (step.mode == "parallel" or _DRAFT_WORDS.search(step.action)) else 0
    if step.agent == "resume":
        return n
    if step.agent == "pipeline":
        return 1 if re.search(r"categori[sz]|classif|分类", step.action, re.I) else 0
    return 1


def _count_in(plan: Plan, default: int = 10) -> int:
    for step in plan.steps:
        for pattern, _ in _COUNT_PATTERNS:
            if m := pattern.search(step.action):
                return int(re.search(r"\d+", m.group(0)).group(0))  # type: ignore[union-attr]
    return plan.estimated_actions.emails or default


def _set_count(plan: Plan, n: int) -> Plan:
    steps = []
    for s in plan.steps:
        action = s.action
        for pattern, template in _COUNT_PATTERNS:
            action = pattern.sub(template.format(n=n), action)
        steps.append(s.model_copy(update={"action": action[:300]}))
    return plan.model_copy(update={"steps": steps})


def _cut_emails(plan: Plan, n: int) -> Plan:
    """The plan emailing n candidates instead of its estimate: texts, emails, and the per-candidate model calls."""
    before = plan.estimated_actions
    per_candidate = sum(1 for s in plan.steps if s.agent == "communication" and _step_calls(s, 1))
    calls = max(before.api_calls - max(before.emails - n, 0) * per_candidate, 0)
    plan = _set_count(plan, n) if n else plan
    return plan.model_copy(update={"estimated_actions": EstimatedActions(emails=n, api_calls=calls)})


def without_emails(plan: Plan) -> Plan:
    """The plan emailing nobody: its estimate at no e-mail, and every step that drafts, approves or sends one gone."""
    plan = _cut_emails(plan, 0)
    return plan.with_steps([s for s in plan.steps if not _touches_email(s)])


def _reestimate(plan: Plan, n: int) -> Plan:
    emails = n if any(_emails_candidates(s) for s in plan.steps) else 0
    calls = sum(_step_calls(s, n) for s in plan.steps)
    return plan.model_copy(update={"estimated_actions": EstimatedActions(emails=emails, api_calls=calls)})


# --- regeneration from an instruction ------------------------------------------------------------------------------
_ZH_DIGITS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_NUM = r"(\d+|[一两二三四五六七八九十]{1,3})"
_COUNT_REQ = (
    re.compile(r"\b(?:only|just|top|limit (?:it |this )?to|at most|no more than|up to)\s+(\d+)\b", re.I),
    re.compile(r"\b(\d+)\s+(?:candidates?|people|persons?|emails?)\b", re.I),
    re.compile(rf"(?:只要|只找|只发|只给|仅|限|最多|前)\s*{_NUM}\s*(?:个|位|名|封|人)?"),
    re.compile(rf"{_NUM}\s*(?:个|位|名)\s*候选人"),
)
_NO_EMAIL_REQ = re.compile(
    r"\b(?:don'?t|do not|no|skip|without|stop|remove|drop|never)\b.{0,20}?\b(?:e-?mails?|emailing|send(?:ing)?|outreach)\b|"
    r"\bno\s+e-?mails?\b|(?:不要|不用|别|无需|不必|不|跳过|去掉|删除|取消).{0,4}?(?:发送?)?(?:邮件|外联)|不发", re.I)
_ADD_SCHEDULE_REQ = re.compile(
    r"\b(?:also|then|and|add|plus)\b.{0,20}?\bschedul\w*|\bschedule (?:the |an? )?interviews?\b|\badd (?:an? )?interviews?\b|"
    r"(?:再|也|还|并|加上?|增加).{0,4}?(?:安排|约).{0,4}?面试|安排面试", re.I)
_REMOVE_STEP_REQ = (
    re.compile(r"\b(?:remove|delete|drop|skip)\s+steps?\s+(\d+(?:\s*(?:,|and|&)\s*\d+)*)", re.I),
    re.compile(r"(?:删除|去掉|删掉|跳过|移除)\s*第\s*(\d+(?:\s*[,，、和]\s*第?\s*\d+)*)\s*步"),
)


def requested_count(text: str) -> int | None:
    """The number of candidates a request asks for ("top 30", "5 candidates", "前10名"), if it names one."""
    for pattern in _COUNT_REQ:
        found = pattern.search(text or "")
        if found and _number(found.group(1)) > 0:
            return _number(found.group(1))
    return None


def _number(word: str) -> int:
    if word.isdigit():
        return int(word)
    if word == "十":
        return 10
    if word.startswith("十"):
        return 10 + _ZH_DIGITS.get(word[1:], 0)
    if "十" in word:
        tens, _, ones = word.partition("十")
        return _ZH_DIGITS.get(tens, 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)
    return _ZH_DIGITS.get(word, 0)


def apply_instruction(plan: Plan, instruction: str, lang: str | None = None) -> tuple[Plan, list[str]]:
    """Regenerate the plan offline from a free-text instruction: remove steps by number, drop the emailing, set
    the number of candidates, add interview scheduling. (plan, notes): the notes say what was done, or that the
    instruction was not understood and the plan is unchanged."""
    lang = _lang(lang, instruction)
    text = " ".join((instruction or "").split())
    notes: list[str] = []
    original = plan
    matched = False

    for pattern in _REMOVE_STEP_REQ:
        if m := pattern.search(text):
            matched = True
            numbers = sorted({int(x) for x in re.findall(r"\d+", m.group(1))})
            missing = [x for x in numbers if not 1 <= x <= len(plan.steps)]
            drop = [x for x in numbers if x not in missing]
            if missing:
                notes.append(t(lang, f"There is no step {', '.join(map(str, missing))} in the plan.",
                                f"计划中没有第 {'、'.join(map(str, missing))} 步。"))
            if drop:
                plan = plan.with_steps([s for s in plan.steps if s.step not in drop])
                notes.append(t(lang, f"Removed step {', '.join(map(str, drop))}.", f"已删除第 {'、'.join(map(str, drop))} 步。"))
            break

    if _NO_EMAIL_REQ.search(text):
        matched = True
        if any(_touches_email(s) for s in plan.steps):
            plan = plan.with_steps([s for s in plan.steps if not _touches_email(s)])
            notes.append(t(lang, "Removed the email steps: no email will be sent.", "已删除邮件相关步骤：不会发送任何邮件。"))
        else:
            notes.append(t(lang, "The plan sends no emails.", "计划中没有发送邮件的步骤。"))

    count = None
    for pattern in _COUNT_REQ:
        if m := pattern.search(text):
            count = _number(m.group(1))
            break
    if count:
        matched = True
        count = max(1, min(count, MAX_TOP))
        plan = _set_count(plan, count)
        notes.append(t(lang, f"The plan now covers {count} candidate(s).", f"计划现在只涵盖 {count} 位候选人。"))

    if _ADD_SCHEDULE_REQ.search(text) and not re.search(r"\b(?:don'?t|do not|no|skip|without)\b.{0,20}schedul|不要.{0,4}安排",
                                                         text, re.I):
        matched = True
        if any(s.agent == "scheduling" for s in plan.steps):
            notes.append(t(lang, "The plan already schedules interviews.", "计划中已经包含安排面试。"))
        else:
            step_lang = plan.lang
            emails = any(s.agent == "communication" for s in plan.steps)
            extra = [PlanStep(step=1, agent="scheduling", mode="sequential", action=t(
                        step_lang, "Schedule interviews for the candidates who reply" if emails else
                        "Propose interview time slots for the candidates",
                        "为回复的候选人安排面试" if emails else "为候选人提议面试时间段")),
                     PlanStep(step=1, agent="supervisor", mode="interrupt",
                              action=t(step_lang, "Confirm the interview times", "确认面试时间"))]
            plan = plan.with_steps([*plan.steps, *extra])
            if plan.workflow_type != "interview_scheduling":
                plan = plan.model_copy(update={"workflow_type": "chain"})
            notes.append(t(lang, "Added interview scheduling at the end.", "已在最后增加安排面试。"))

    if not matched:
        return original, [t(lang, "I could not turn that instruction into a change; the plan is unchanged.",
                             "无法理解该修改指令，计划保持不变。")]
    return _reestimate(plan.renumbered(), _count_in(plan)), notes

