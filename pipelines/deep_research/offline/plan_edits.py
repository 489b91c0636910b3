"""Plan edits in words, English and Chinese (DeerFlow's "[EDIT_PLAN] …"): remove, move, swap, merge, rename and add
steps, by number ("step 2", "第2步"), by position ("the last step", "最后一步") or by name ("the step about costs");
what is not understood is returned as it was said, to be asked about, never turned into a step."""

from __future__ import annotations

import re

from pipelines.deep_research.offline.intake import is_zh
from pipelines.deep_research.offline.planning import short_title
from pipelines.deep_research.schemas import Plan, Step

# One step, as the user points at it: a number, a position, or words of its title.
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
                 "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_REF_EN = (r"(?:(?:the\s+)?(?:last|final)\s+step|(?:the\s+)?(?:first|second|third|fourth|fifth|sixth)\s+step|"
           r"steps?\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)|"
           r"(?:the\s+)?step\s+(?:about|on|for|called|named|titled)\s+[\"'“‘]?[^,;\"'”’]+?[\"'”’]?(?=\s+(?:to|and|with|after|before|"
           r"first|last|into)\b|$)|[\"'“‘][^\"'”’]+[\"'”’])")
_REF_ZH = r"(?:最后一步|第\s*[\d一二两三四五六七八九十]+\s*步|关于[^，,。；]+?的(?:那一?)?步(?:骤)?|[“「][^”」]+[”」])"
_REF = rf"(?P<{{name}}>{_REF_EN}|{_REF_ZH})"


def _ref(name: str) -> str:
    return _REF.replace("{name}", name)


# Each edit: patterns over one clause (English, Chinese), and what it does (see `_apply`).
_EDITS: list[tuple[re.Pattern, str]] = [(re.compile(pattern, re.I), kind) for pattern, kind in [
    (rf"^(?:please\s+)?(?:remove|delete|drop|cut|skip)\s+{_ref('a')}$", "remove"),
    (rf"^(?:请)?(?:删除|去掉|删掉|去除|不要)\s*{_ref('a')}$", "remove"),
    (rf"^(?:please\s+)?(?:swap|switch|exchange)\s+{_ref('a')}\s+(?:and|with)\s+{_ref('b')}$", "swap"),
    (r"^(?:please\s+)?(?:swap|switch|exchange)\s+steps\s+(?P<a>\d+)\s+and\s+(?P<b>\d+)$", "swap"),
    (rf"^(?:请)?(?:交换|对调|调换)\s*{_ref('a')}\s*(?:和|与|跟)\s*{_ref('b')}$", "swap"),
    (rf"^(?:please\s+)?(?:merge|combine|join)\s+{_ref('a')}\s+(?:and|with|into)\s+{_ref('b')}$", "merge"),
    (r"^(?:please\s+)?(?:merge|combine|join)\s+steps\s+(?P<a>\d+)\s+and\s+(?P<b>\d+)$", "merge"),
    (rf"^(?:请)?(?:把|将)?\s*{_ref('a')}\s*(?:和|与|跟)\s*{_ref('b')}\s*合并$", "merge"),
    (rf"^(?:请)?合并\s*{_ref('a')}\s*(?:和|与|跟)\s*{_ref('b')}$", "merge"),
    (rf"^(?:please\s+)?(?:move|put|place)\s+{_ref('a')}\s+(?:to\s+the\s+|to\s+|at\s+the\s+)?"
     r"(?P<where>first|top|start|beginning|front|last|end|bottom)$", "move_end"),
    (rf"^(?:请)?(?:把|将)\s*{_ref('a')}\s*(?:移到|放到|挪到|调到)\s*(?P<where>最前面?|开头|第一位|最后面?|末尾)$", "move_end"),
    (rf"^(?:please\s+)?(?:move|put|place)\s+{_ref('a')}\s+(?P<side>after|before|behind|ahead of)\s+{_ref('b')}$",
     "move_next"),
    (rf"^(?:请)?(?:把|将)\s*{_ref('a')}\s*(?:移到|放到|挪到|调到)\s*{_ref('b')}\s*(?P<side>之后|后面|以后|之前|前面|以前)$",
     "move_next"),
    (rf"^(?:please\s+)?(?:rename|retitle|call)\s+{_ref('a')}\s+(?:to\s+|as\s+)?[\"'“‘]?(?P<title>[^\"'”’]+?)[\"'”’]?$", "rename"),
    (rf"^(?:请)?(?:把|将)?\s*{_ref('a')}\s*(?:改名为|改名叫|重命名为|改为|改成|命名为)\s*[“「]?(?P<title>[^”」]+?)[”」]?$",
     "rename"),
    (r"^(?:please\s+)?(?:add|include|insert)\s+(?:a\s+|another\s+|one\s+more\s+)?(?:step|question|section)?\s*"
     r"(?:about|on|for|to|covering|that\s+(?:finds|checks|covers))?\s*[:：]?\s*(?P<topic>.+?)"
     rf"(?:\s+(?P<side>after|before)\s+{_ref('b')})?$", "add"),
    (r"^(?:请)?(?:增加|添加|补充|加上|再加)(?:一步|一个步骤|一项)?\s*(?:关于)?[:：]?\s*(?P<topic>.+?)(?:的步骤)?$", "add"),
]]
# Clauses: split at ";", new lines and "then", and at ", " or " and " before another edit's verb.
_VERBS = r"remove|delete|drop|cut|skip|swap|switch|merge|combine|move|put|rename|retitle|call|add|include|insert"
_CLAUSES = re.compile(rf"[;；\n。]|,?\s+(?:and\s+)?then\s+|,\s*(?=(?:{_VERBS})\b)|\s+and\s+(?=(?:{_VERBS})\b)|"
                      r"[，,]\s*(?=(?:然后|再)?(?:删除|去掉|删掉|交换|对调|合并|把|将|增加|添加|补充))|然后|再把", re.I)


def _find(steps: list[Step], ref: str | None) -> int | None:
    """The index of the step `ref` points at, or None."""
    if not ref or not steps:
        return None
    ref = ref.strip().strip("\"'“”‘’「」")
    lowered = ref.lower()
    if lowered in ("last step", "the last step", "final step", "the final step", "最后一步"):
        return len(steps) - 1
    if number := re.search(r"(\d+)", ref):
        index = int(number.group(1)) - 1
    elif word := re.search(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|fourth|fifth|sixth)\b"
                           r"|第\s*([一二两三四五六七八九十])", lowered):
        index = _NUMBER_WORDS[word.group(1) or word.group(2)] - 1
    else:
        name = re.sub(r"^(?:the\s+)?step\s+(?:about|on|for|called|named|titled)\s+|^关于|的(?:那一?)?步(?:骤)?$", "", ref,
                      flags=re.I).strip().lower()
        hits = [i for i, step in enumerate(steps) if name and name in f"{step.title} {step.description}".lower()]
        return hits[0] if len(hits) == 1 else None
    return index if 0 <= index < len(steps) else None


def _new_step(topic: str, zh: bool) -> Step:
    topic = topic.strip()
    return Step(title=f"查找：{short_title(topic)}" if zh else f"Find: {short_title(topic)}",
                description=f"按用户要求检索：{topic}" if zh else f"As the user asked: {topic}")


def _apply(kind: str, match: re.Match, steps: list[Step], zh: bool) -> bool:
    """Carry out one understood edit on `steps` in place; False when it points at no step (or would leave none)."""
    group = match.groupdict().get
    a, b = _find(steps, group("a")), _find(steps, group("b"))
    if kind == "add":
        if group("b") is not None and b is None:
            return False
        step = _new_step(group("topic") or "", zh)
        where = len(steps) if b is None else b + (1 if (group("side") or "after").lower() == "after" else 0)
        steps.insert(where, step)
        return True
    if a is None or (kind in ("swap", "merge", "move_next") and (b is None or a == b)):
        return False
    if kind == "remove":
        if len(steps) < 2:
            return False
        steps.pop(a)
    elif kind == "swap":
        steps[a], steps[b] = steps[b], steps[a]
    elif kind == "merge":
        first, second = sorted((a, b))
        merged = steps[first].model_copy(update={
            "title": f"{steps[first].title}；{steps[second].title}" if zh else f"{steps[first].title}; {steps[second].title}",
            "description": f"{steps[first].description} {steps[second].description}".strip(), "execution_res": None})
        steps[first] = merged
        steps.pop(second)
    elif kind == "move_end":
        where = (group("where") or "").lower()
        step = steps.pop(a)
        steps.insert(0 if where in ("first", "top", "start", "beginning", "front", "最前", "最前面", "开头", "第一位")
                     else len(steps), step)
    elif kind == "move_next":
        side = (group("side") or "").lower()
        step = steps.pop(a)
        b = b - 1 if b > a else b  # where the other step is once this one is out
        steps.insert(b + (0 if side in ("before", "ahead of", "之前", "前面", "以前") else 1), step)
    elif kind == "rename":
        title = (group("title") or "").strip()
        if not title:
            return False
        steps[a] = steps[a].model_copy(update={"title": title[:120]})
    return True


def apply_instruction(plan: Plan, instruction: str, locale: str) -> tuple[Plan, list[str]]:
    """The plan with every understood edit carried out, in order, and the clauses that were not understood (or
    pointed at no step), as said."""
    steps = list(plan.steps)
    zh = is_zh(locale)
    unclear: list[str] = []
    for clause in _CLAUSES.split(instruction or ""):
        clause = re.sub(r"^(?:and\s+then|then|and|also)\s+|^(?:然后|再|并且)\s*", "", clause.strip(), flags=re.I)
        clause = clause.rstrip(".!。！").strip()
        if not clause:
            continue
        for pattern, kind in _EDITS:
            if (match := pattern.match(clause)) and _apply(kind, match, steps, zh):
                break
        else:
            unclear.append(clause)
    return plan.model_copy(update={"steps": steps}), unclear


def clarifying_question(unclear: list[str], locale: str) -> str:
    """What the plan card asks when part of an edit was not understood."""
    zh = is_zh(locale)
    quoted = ("、" if zh else ", ").join(f"“{c}”" for c in unclear)
    if zh:
        return (f"没有理解这部分修改：{quoted}。可以这样说：删除第2步、把第3步移到最前、交换第1步和第2步、合并第1步和第2步、"
                f"把第2步改名为“成本”、增加一步关于维护费用。")
    return (f"I did not understand {quoted}. You can say, for example: remove step 2, move step 3 first, swap steps 1 "
            f"and 2, merge steps 1 and 2, rename step 2 to \"Costs\", add a step about maintenance costs (after step 1).")
