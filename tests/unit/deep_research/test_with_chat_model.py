"""Deep research with a scripted chat model at the model boundary: a malformed plan is repaired, an invented
citation is caught by the check, and every central-agent action does what it says."""

from __future__ import annotations

import dataclasses

from pipelines.core.models.gateway import ModelGateway
from pipelines.deep_research.memory import MemoryStack
from tests.support.fake_chat import ScriptedChatModel
from tests.unit.deep_research.conftest import finish

QUESTION = "What was Lindenport's container throughput in 2024?"


def gateway_with(settings, answers: dict):
    """A gateway whose model answers each schema from `answers` (a value or a callable); others raise, so the
    node's offline answer stands in."""
    def responder(tool, messages):
        answer = answers.get(tool or "text")
        if answer is None:
            raise RuntimeError(f"no scripted answer for {tool}")
        return answer(messages) if callable(answer) else answer

    return ModelGateway(dataclasses.replace(settings, max_retries=0), chat_model=ScriptedChatModel(responder=responder))


def test_a_malformed_plan_from_the_model_is_repaired_not_a_crash(start, settings):
    junk = {"plan": {"title": "x", "steps": []}, "depends_on": [[5, 9]]}
    state = finish(start(QUESTION, auto_accepted_plan=True, gateway=gateway_with(settings, {"PlanDraft": junk})))
    planner_note = next(m.content for m in state["messages"] if getattr(m, "name", "") == "planner")
    assert "repaired" in planner_note and state["current_plan"]["steps"]
    assert state["final_report"]


def test_an_invented_citation_is_caught(start, settings):
    invented = ("# Harbour\n\n## Key points\n- Throughput reached 2.4 million TEU in 2024 [[P1]].\n"
                "- The harbour employs 9,000 dockers [[P1]].\n- It won a prize in 1999 [12].\n\n## Key citations\n"
                "{citations}")
    state = finish(start(QUESTION, auto_accepted_plan=True, gateway=gateway_with(settings, {"text": invented})))
    check = state["citation_check"]
    # A bare "[12]" is none of the report's references: shown as [?], never numbered nor counted as a claim.
    assert "prize in 1999 [?]" in state["final_report"] and "[12]" not in state["final_report"]
    assert check["claims"] == 2 and check["supported"] == 1 and check["invalid_refs"] == []
    assert any("9,000" in u["sentence"] or "9000" in u["reason"] for u in check["unsupported"])


def test_central_agent_actions_from_the_model(start, settings):
    script = iter([
        {"action": "think", "thought": "start"},
        {"action": "summarize", "thought": "fold"},
        {"action": "delegate", "step_index": 0, "agent": "researcher", "task_description": "throughput"},
        {"action": "reflect", "thought": "drop the delegation", "pop_count": 2},
        {"action": "delegate", "step_index": 99, "agent": "coder"},  # no such step: the offline choice instead
    ])
    seen = []

    def decide(messages):
        decision = next(script, {"action": "finish", "thought": "done"})
        seen.append(decision["action"])
        return decision

    state = finish(start(QUESTION, auto_accepted_plan=True, gateway=gateway_with(settings, {"Decision": decide})))
    memory = MemoryStack.load(state["memory_stack"])
    actions = [e["action"] for e in memory.entries]
    assert seen[:5] == ["think", "summarize", "delegate", "reflect", "delegate"]
    reflect = next(e for e in memory.entries if e["action"] == "reflect")
    assert reflect["popped"] == 2  # the result and the delegation, once: not four
    assert actions[-1] == "finish" and state["final_report"]
    assert state["delegation_context"]["agent_type"] == "researcher"


def test_personal_data_in_a_document_never_reaches_the_model(start, settings, tmp_path):
    doc = tmp_path / "contacts.md"
    doc.write_text("# Contacts\n\nThe harbour master, reachable at jane.doe@example.com or +1 415 555 0134, approved "
                   "the 2024 throughput figure of 2.4 million TEU.\n", encoding="utf-8")
    prompts: list[str] = []

    def record(messages):
        prompts.append(" ".join(str(m.content) for m in messages))
        raise RuntimeError("answer offline")

    gateway = gateway_with(settings, {name: record for name in ("Findings", "Analysis", "Decision", "text")})
    state = finish(start("Who approved the 2024 throughput figure?", auto_accepted_plan=True, documents=[str(doc)],
                         gateway=gateway))
    leaked = [p[p.find("jane") - 300:p.find("jane") + 50] for p in prompts if "jane.doe@example.com" in p or "555 0134" in p]
    assert prompts and not leaked, leaked
    assert any("2.4 million TEU" in p for p in prompts)
    assert "jane.doe" in state["final_report"]  # the report quotes the user's own document as it is
