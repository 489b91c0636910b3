"""Plan edits in words, English and Chinese: remove, move, swap, merge, rename and add, by number, position or name;
what is not understood is returned to be asked about, never turned into a step."""

from __future__ import annotations

import pytest

from pipelines.deep_research.offline.plan_edits import apply_instruction, clarifying_question
from pipelines.deep_research.schemas import Plan, Step

TOPICS = ["opening date", "berth capacity", "dredging costs", "tariffs"]
PLAN = Plan(title="Harbour", steps=[Step(title=f"Find: {t}", description=f"Look up the {t}.") for t in TOPICS])


def edited(instruction: str, locale: str = "en") -> tuple[list[str], list[str]]:
    plan, unclear = apply_instruction(PLAN, instruction, locale)
    return [s.title.removeprefix("Find: ").removeprefix("查找：") for s in plan.steps], unclear


@pytest.mark.parametrize(("instruction", "locale", "titles"), [
    ("remove the last step", "en", ["opening date", "berth capacity", "dredging costs"]),
    ("delete the second step", "en", ["opening date", "dredging costs", "tariffs"]),
    ("remove the step about dredging", "en", ["opening date", "berth capacity", "tariffs"]),
    ("move step 4 first", "en", ["tariffs", "opening date", "berth capacity", "dredging costs"]),
    ("move step 1 before step 3", "en", ["berth capacity", "opening date", "dredging costs", "tariffs"]),
    ("swap steps 1 and 3", "en", ["dredging costs", "berth capacity", "opening date", "tariffs"]),
    ("merge steps 2 and 3", "en", ["opening date", "berth capacity; Find: dredging costs", "tariffs"]),
    ("rename step 2 to Quay length", "en", ["opening date", "Quay length", "dredging costs", "tariffs"]),
    ("add a step about rail links after step 1", "en", ["opening date", "rail links", "berth capacity", "dredging costs",
                                                         "tariffs"]),
    ("remove step 2, then move step 3 first", "en", ["tariffs", "opening date", "dredging costs"]),
    ("删除最后一步", "zh-CN", ["opening date", "berth capacity", "dredging costs"]),
    ("把第4步移到最前", "zh-CN", ["tariffs", "opening date", "berth capacity", "dredging costs"]),
    ("交换第1步和第3步", "zh-CN", ["dredging costs", "berth capacity", "opening date", "tariffs"]),
    ("把第1步移到第3步之后", "zh-CN", ["berth capacity", "dredging costs", "opening date", "tariffs"]),
    ("把第2步改名为“泊位能力”", "zh-CN", ["opening date", "泊位能力", "dredging costs", "tariffs"]),
    ("增加一步关于铁路连接", "zh-CN", ["opening date", "berth capacity", "dredging costs", "tariffs", "铁路连接"]),
])
def test_edits_in_words_are_carried_out(instruction, locale, titles):
    assert edited(instruction, locale) == (titles, [])


@pytest.mark.parametrize("instruction", ["make it better", "remove step 9", "随便改改一下"])
def test_what_is_not_understood_is_asked_about_and_never_becomes_a_step(instruction):
    titles, unclear = edited(instruction, "zh-CN" if "改" in instruction else "en")
    assert titles == TOPICS and unclear == [instruction]
    assert instruction in clarifying_question(unclear, "en") and "remove step 2" in clarifying_question(unclear, "en")


def test_the_understood_part_of_an_edit_is_kept_and_the_rest_asked_about():
    titles, unclear = edited("remove the last step; make the report shorter")
    assert titles == TOPICS[:3] and unclear == ["make the report shorter"]
