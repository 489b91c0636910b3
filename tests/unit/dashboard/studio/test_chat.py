"""The generic chat alone, over a tiny echo workflow: turns shown as text, a reply answers the interrupt, and an
empty or over-long reply is refused with its reason and kept in the box."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from pydantic import RootModel, StringConstraints
from streamlit.testing.v1 import AppTest

from dashboard.studio.chat import Chat
from pipelines.core.markup import escape_markdown
from pipelines.core.settings import load_settings
from pipelines.core.runtime.studio import Studio
from pipelines.core.spec import InterruptSpec, PipelineSpec

KEY = "echo"
REPLY = f"{KEY}_reply_text"


class EchoState(TypedDict, total=False):
    turns: Annotated[list[dict[str, str]], operator.add]


class Reply(RootModel[Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]]):
    """What the user types: a non-empty string."""


def greet(state: EchoState) -> dict[str, Any]:
    said = [t["text"] for t in state.get("turns", []) if t["role"] == "user"]
    text = f"You said: {said[-1]}" if said else "Hello! Say **something**."
    return {"turns": [{"role": "bot", "text": text}]}


def listen(state: EchoState) -> dict[str, Any]:
    answer = interrupt({"kind": "reply", "question": "Your turn"})
    return {"turns": [{"role": "user", "text": answer}]}


def build() -> StateGraph:
    graph = StateGraph(EchoState)
    graph.add_node("greet", greet)
    graph.add_node("listen", listen)
    graph.add_edge(START, "greet")
    graph.add_edge("greet", "listen")
    graph.add_conditional_edges("listen", lambda s: END if len(s["turns"]) >= 6 else "greet", ["greet", END])
    return graph


def echo_spec() -> PipelineSpec:
    return PipelineSpec(id="echo_chat", build=build, make_context=lambda deps: None,
                        make_input=lambda raw, thread_id: {"turns": []},
                        report=lambda state: "", interrupts=(InterruptSpec("reply", "Reply", Reply),))


CHAT = Chat(key=KEY, turns=lambda values: [("user" if t["role"] == "user" else "assistant", t["text"])
                                           for t in values.get("turns") or []],
            kind="reply", max_chars=20, too_long=lambda n: f"{n:,} characters is too long: at most 20.",
            reply_label=lambda pending: f"Answer ({pending.value['question']})", send_label="Send it",
            continue_label="Go on")


def chat_page(thread_id: str) -> None:
    from dashboard import services
    from dashboard.studio.chat import render_chat
    from dashboard.studio.flash import show_flash
    from tests.unit.dashboard.studio.test_chat import CHAT, echo_spec

    show_flash()
    render_chat(services.open_session(echo_spec(), thread_id), CHAT)


@pytest.fixture
def thread(tmp_path, monkeypatch) -> str:
    monkeypatch.setenv("STEPWISE_DATA_DIR", str(tmp_path / "data"))
    settings = load_settings()
    studio = Studio.from_settings(settings)
    try:
        return studio.new_session(echo_spec(), {}, settings).thread_id
    finally:
        studio.close()


def lines(app: AppTest) -> list[tuple[str, str]]:
    return [(m.name, " ".join(x.value for x in m.markdown)) for m in app.get("chat_message")]


def errors(app: AppTest) -> str:
    return " ".join(e.value for e in app.error)


def send(app: AppTest, text: str) -> AppTest:
    app.text_area(key=REPLY).input(text)
    next(b for b in app.button if b.label == "Send it").click().run()
    assert not app.exception, [e.value for e in app.exception]
    return app


@pytest.fixture
def chat(thread) -> AppTest:
    """The page after Continue: the run has gone on, in the background worker, to the first question."""
    app = AppTest.from_function(chat_page, args=(thread,), default_timeout=60).run()
    assert not app.exception and not app.get("chat_message") and not app.text_area
    app.button(key=f"{KEY}_continue").click().run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def test_turns_are_shown_as_text_and_a_reply_answers_the_interrupt(chat):
    assert lines(chat) == [("assistant", escape_markdown("Hello! Say **something**."))]  # never bold
    assert "The assistant has answered." in [s.value for s in chat.success]
    box = chat.text_area(key=REPLY)
    assert box.label == "Answer (Your turn)" and "0 / 20 characters" in [c.value for c in chat.caption]
    send(chat, "**x** <b>y</b>")
    assert lines(chat) == [("assistant", escape_markdown("Hello! Say **something**.")),
                           ("user", escape_markdown("**x** <b>y</b>")),
                           ("assistant", escape_markdown("You said: **x** <b>y</b>"))]
    assert all("\\*\\*x\\*\\*" in text and "\\<b\\>" in text for _, text in lines(chat)[1:])
    assert chat.text_area(key=REPLY).value == ""  # emptied once sent, ready for the next question


def test_an_empty_or_over_long_reply_is_refused_and_kept(chat):
    before = lines(chat)
    send(chat, "   ")
    assert "invalid answer to 'Reply'" in errors(chat)
    assert lines(chat) == before
    send(chat, "y" * 21)
    assert errors(chat) == "21 characters is too long: at most 20."
    assert chat.text_area(key=REPLY).value == "y" * 21  # nothing typed is lost
    assert any("21 / 20 characters: over the limit" in c.value for c in chat.caption)
    assert lines(chat) == before
