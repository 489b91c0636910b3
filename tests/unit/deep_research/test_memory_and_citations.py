"""The memory stack's bounds and pops, and the citation check on reports a model could have written."""

from __future__ import annotations

from pipelines.deep_research.citations import check, claims, number_refs
from pipelines.deep_research.memory import MemoryStack

PASSAGE = "Container throughput at Lindenport reached 2.4 million TEU in 2024, up 6.5% from 2023."


def test_reflect_pops_exactly_what_it_says_and_the_stack_stays_bounded():
    stack = MemoryStack()
    for n in range(60):
        stack.push("think", f"thought {n}")
    assert len(stack) == 50 and stack.dropped == 10 and stack.entries[0]["content"] == "thought 10"
    popped = stack.pop(2)
    assert [e["content"] for e in popped] == ["thought 59", "thought 58"] and len(stack) == 48
    again = MemoryStack.load(stack.dumps())
    assert again.entries == stack.entries and again.dropped == 10
    assert MemoryStack.load("not json").entries == [] and MemoryStack.load(None).entries == []
    assert stack.pop(100) and len(stack) == 0


def test_summarize_folds_all_but_the_newest():
    stack = MemoryStack()
    for n in range(8):
        stack.push("result", f"r{n}")
    assert stack.summarize(3, "older results") == 5
    assert [e["action"] for e in stack.entries] == ["summary", "result", "result", "result"]


def test_references_are_numbered_by_first_use_and_unknown_ones_shown():
    items = [{"ref": "P1", "document": "a.md", "text": "alpha"}, {"ref": "P2", "document": "b.md", "text": "beta"}]
    text, citations = number_refs("Beta [[P2]]. Alpha [[P1]]. Beta again [[P2]]. Ghost [[P9]].", items)
    assert text == "Beta [1]. Alpha [2]. Beta again [1]. Ghost [?]."
    assert [(c["n"], c["document"]) for c in citations] == [(1, "b.md"), (2, "a.md")]


def test_check_supports_quotes_and_flags_invented_figures_and_numbers():
    citations = [{"n": 1, "text": PASSAGE, "document": "harbor_report.md"}]
    report = ("# T\n\n## Key points\n- Throughput reached 2.4 million TEU in 2024 [1].\n"
              "- Throughput reached 3.1 million TEU in 2024 [1].\n"
              "| Port | Figure |\n|---|---|\n| Lindenport | up 6.5% from 2023 [1] |\n"
              "The port also built a moon base [7].\n\n## Key citations\n- [1] harbor_report.md")
    result = check(report, citations)
    # "[7]" is none of the report's references: no claim of the report's, listed apart.
    assert result["claims"] == 3 and result["supported"] == 2
    reasons = {u["sentence"][:30]: u["reason"] for u in result["unsupported"]}
    assert any("3.1" in r for r in reasons.values())
    assert result["invalid_refs"] == [7]
    assert len(claims("Decimal 412.6 stays whole [1]. Next one [1]。中文句子[1]。")) == 3
