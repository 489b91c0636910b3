"""Helpers that drive a session the way a user would: run, answer, run again."""

from __future__ import annotations

from typing import Any

from pipelines.core.runtime.session import Session

DISSATISFIED_SEED = {"satisfaction_level": "dissatisfied",
                     "feedback_text": "我希望重点关注大模型和多智能体方向的AI产品经理岗位"}
SATISFIED = {"satisfaction_level": "satisfied", "feedback_text": "好的"}


def run_with_answers(session: Session, answers: list[Any], *, step_by_step: bool = False) -> list[str]:
    """Run to the end, answering interrupts in order; returns the kinds of the interrupts answered."""
    kinds = []
    answers = list(answers)
    while True:
        if step_by_step:
            while session.status() == "ready":
                session.step()
        else:
            session.run("end")
        if session.status() != "waiting" or not answers:
            return kinds
        kinds.append(session.pending_interrupts()[0].kind)
        session.resume(answers.pop(0))
