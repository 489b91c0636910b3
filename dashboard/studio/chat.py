"""A chat above the studio for a workflow whose users talk to it: the conversation, a reply box that answers the
pending interrupt of one kind, and the assistant's turns as the background worker lands them. It knows no workflow:
a `Chat` says where the turns are in the state, which interrupt it answers, and the words it uses."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from dashboard import services
from dashboard.state_keys import FLASH
from dashboard.studio.step_controls import run_in_background
from pipelines.core.errors import ConcurrentChange, InvalidInput, RunBusy
from pipelines.core.markup import escape_markdown, sanitize_markdown
from pipelines.core.runtime.outcomes import PendingInterrupt
from pipelines.core.runtime.session import Session

Turn = tuple[str, str]  # (role, text): "user" for whoever types in the box, "assistant" for the workflow
STALE = "The session has moved on (answered in another tab): your message was not sent."


@dataclass(frozen=True)
class Chat:
    """What one workflow's chat needs: `key` prefixes its widget keys ({key}_reply_text, {key}_reply,
    {key}_reply_for, {key}_continue, {key}_autorun); `turns` reads the conversation from the run's state;
    `kind` is the interrupt the reply box answers; `too_long(length)` says why a text over `max_chars` is refused."""

    key: str
    turns: Callable[[Mapping[str, Any]], Sequence[Turn]]
    kind: str
    max_chars: int
    too_long: Callable[[int], str]
    reply_label: Callable[[PendingInterrupt], str] = lambda pending: "Your answer"
    send_label: str = "Send"
    # The button that runs on when nothing is asked and the run is paused between steps (None: no button).
    continue_label: str | None = "Continue"
    continue_help: str | None = None
    # Flashed when a run ends by itself at once: at the next question, or at the end.
    answered: str = "The assistant has answered."
    finished: str = "The run is complete."
    stale_kept: str = (f"{STALE} It is still in the box: read the latest question, then send it again if it "
                       "still fits.")
    stale_gone: str = f"{STALE} Nothing is asked any more; here is what you typed:"
    avatars: Mapping[str, str] = field(default_factory=lambda: {"user": ":material/person:",
                                                                "assistant": ":material/smart_toy:"})
    # Roles whose text is a model's Markdown, shown with its formatting but without images, links or HTML;
    # every other turn is shown exactly as written.
    formatted_roles: Collection[str] = ()
    # For a workflow whose runs are single turns of one conversation (the recruiter): when no interrupt of `kind`
    # waits, the box starts the next turn with `new_turn(session, message)`, which starts a run of the same
    # conversation and points the page at it (True), or says why not and returns False.
    new_turn: Callable[[Session, str], bool] | None = None
    new_turn_label: str = "Your message"
    # The length counter under the box shows from this share of `max_chars` on (0: always). A limit nobody nears
    # (the recruiter's 64,000) is said only when a message comes near it, not as "0 / 64,000" under every box.
    counter_from: float = 0.0
    scroll_after: int = 6  # a longer conversation scrolls in its own box of `scroll_height` pixels
    scroll_height: int = 420
    reply_height: int = 100

    @property
    def reply_key(self) -> str:
        return f"{self.key}_reply_text"

    @property
    def reply_for_key(self) -> str:
        # the question the reply box was drawn for, recorded when Send is clicked
        return f"{self.key}_reply_for"

    @property
    def autorun_key(self) -> str:
        return f"{self.key}_autorun"


def too_long(text: str | None, max_chars: int, message: Callable[[int], str]) -> str:
    """Why the text (stripped) is refused for its length, or ""."""
    length = len((text or "").strip())
    return message(length) if length > max_chars else ""


def render_counter(text: str | None, max_chars: int, counter_from: float = 0.0) -> None:
    """The message's length against the limit, once it reaches `counter_from` of it; inside a form it follows
    each submission."""
    length = len((text or "").strip())
    if length < counter_from * max_chars:
        return
    shown = f"{length:,} / {max_chars:,} characters"
    st.caption(f":red[{shown}: over the limit]" if length > max_chars else shown)


def run_when_opened(chat: Chat) -> None:
    """Ask the chat to run on to the first question once the page shows the new run (after a start form)."""
    st.session_state[chat.autorun_key] = True


def run_to_next_question(session: Session, answered: str, finished: str) -> None:
    """Run to the next question or to the end in a background worker, as Run to interrupt does: a slow model does
    not freeze the page, and the studio below shows the steps as they land. A run that ends at once says
    `answered` (it waits for the next answer) or `finished`."""
    runs = services.background_runs()
    opener = services.worker_session_opener(session.spec, session.thread_id, sorted(session.breakpoints))
    try:
        run = run_in_background(runs, session, "interrupt", opener)
    except ConcurrentChange as exc:  # another tab ran on first: the page shows where it stands
        st.session_state[FLASH] = ("warning", f"Not run on: {exc}.")
        return
    if not run.running and not (run.error or any(s.error for s in run.steps)):
        st.session_state[FLASH] = ("success", answered if run.final_status == "waiting" else finished)


def run_on(session: Session, chat: Chat) -> None:
    run_to_next_question(session, chat.answered, chat.finished)


def answer_and_run_on(session: Session, interrupt_id: str, answer: Any, stale: str, answered: str,
                      finished: str) -> bool:
    """Answer the question `interrupt_id` (a card's) and run on in the background; False, with the reason shown,
    when another tab answered it first or the answer is refused."""
    try:
        session.resume(answer, interrupt_id=interrupt_id)
    except RunBusy as exc:
        st.warning(escape_markdown(f"Not applied: {exc}."), icon=":material/sync_problem:")
        return False
    except ConcurrentChange:
        st.warning(stale, icon=":material/sync_problem:")
        return False
    except InvalidInput as exc:
        st.error(escape_markdown(str(exc)))
        return False
    run_to_next_question(session, answered, finished)
    return True


def render_turns(turns: Sequence[Turn], chat: Chat) -> None:
    for role, text in turns:
        with st.chat_message(role, avatar=chat.avatars.get(role)):
            st.markdown(sanitize_markdown(text) if role in chat.formatted_roles else escape_markdown(text))


def render_conversation(values: Mapping[str, Any], chat: Chat) -> None:
    turns = list(chat.turns(values))
    # A long conversation scrolls in its own box, so the reply box and the studio stay in reach.
    box = st.container(height=chat.scroll_height) if len(turns) > chat.scroll_after else st.container()
    with box:
        render_turns(turns, chat)


def _record_question(chat: Chat, interrupt_id: str) -> None:
    # Bound when the reply box was drawn: a tab that drew it for an older question sends for that question.
    st.session_state[chat.reply_for_key] = interrupt_id


def _send_reply(session: Session, chat: Chat, waiting: list[PendingInterrupt]) -> None:
    """Send the reply submitted on the last run, before the box is drawn again; the box is emptied only once
    the message is sent. An over-long, empty or stale message stays in the box with the reason."""
    asked = st.session_state.pop(chat.reply_for_key, None)
    if asked is None:
        return
    message = str(st.session_state.get(chat.reply_key) or "")
    if problem := too_long(message, chat.max_chars, chat.too_long):
        st.error(problem)
        return
    try:
        session.resume(message, interrupt_id=asked)
    except RunBusy as exc:
        st.warning(escape_markdown(f"Not sent: {exc}. Your message is still in the box."), icon=":material/sync_problem:")
        return
    except ConcurrentChange:
        if waiting:
            st.warning(chat.stale_kept, icon=":material/sync_problem:")
        else:  # no box to keep it in: nothing is asked any more
            st.warning(chat.stale_gone, icon=":material/sync_problem:")
            st.code(message, language=None, wrap_lines=True)
        return
    except InvalidInput as exc:
        st.error(escape_markdown(str(exc)))
        return
    st.session_state[chat.reply_key] = ""
    run_on(session, chat)
    st.rerun()


def _reply_box(pending: PendingInterrupt, chat: Chat) -> None:
    with st.form(f"{chat.key}_reply"):
        message = st.text_area(chat.reply_label(pending), key=chat.reply_key, height=chat.reply_height)
        render_counter(message, chat.max_chars, chat.counter_from)
        st.form_submit_button(chat.send_label, type="primary", on_click=_record_question, args=(chat, pending.id))


def _ask_new_turn(chat: Chat) -> None:
    st.session_state[f"{chat.key}_new_turn"] = True


def _send_new_turn(session: Session, chat: Chat) -> None:
    """Start the next turn with the message submitted on the last run; the box is emptied only once it started."""
    if not st.session_state.pop(f"{chat.key}_new_turn", False) or chat.new_turn is None:
        return
    message = str(st.session_state.get(chat.reply_key) or "")
    if not message.strip():
        st.error("Write a message first.")
        return
    if problem := too_long(message, chat.max_chars, chat.too_long):
        st.error(problem)
        return
    if chat.new_turn(session, message):
        st.session_state[chat.reply_key] = ""
        run_when_opened(chat)
        st.rerun()


def _new_turn_box(chat: Chat) -> None:
    with st.form(f"{chat.key}_new_turn_form"):
        message = st.text_area(chat.new_turn_label, key=chat.reply_key, height=chat.reply_height)
        render_counter(message, chat.max_chars, chat.counter_from)
        st.form_submit_button(chat.send_label, type="primary", on_click=_ask_new_turn, args=(chat,))


def _streamed_reply(session: Session, chat: Chat) -> None:
    """The model's reply as its tokens arrive (a real provider streams them; the offline engine answers at once)."""
    run = services.background_runs().active(session.thread_id)
    if run is not None and run.streamed:
        with st.chat_message("assistant", avatar=chat.avatars.get("assistant")):
            st.markdown(escape_markdown(run.streamed) + " ▌")


def render_chat(session: Session, chat: Chat, *, header: Callable[[Mapping[str, Any]], None] | None = None,
                above_reply: Callable[[Session, Mapping[str, Any]], bool] | None = None) -> None:
    """The chat in a bordered box: `header(values)` first (a progress bar), then the conversation,
    `above_reply(session, values)` (the workflow's own part: a resume to attach, a card that waits for the user;
    True when it changed the run), then the reply box while the interrupt of `chat.kind` waits. What waits for the
    user comes right after the last turn, where the eye is, not under the box. While a background run goes on, no
    reply is taken; its turns show when it ends."""
    with st.container(border=True):
        _render_chat(session, chat, header, above_reply)


def _render_chat(session: Session, chat: Chat, header: Callable[[Mapping[str, Any]], None] | None,
                 above_reply: Callable[[Session, Mapping[str, Any]], bool] | None) -> None:
    values = session.values()
    if header is not None:
        header(values)
    running = services.background_runs().active(session.thread_id) is not None
    if st.session_state.pop(chat.autorun_key, False) and session.status() == "ready" and not running:
        run_on(session, chat)
        st.rerun()
    render_conversation(values, chat)
    if above_reply is not None and above_reply(session, values):
        st.rerun()
    waiting = [p for p in session.pending_interrupts() if p.kind == chat.kind] if not running else []
    _send_reply(session, chat, waiting)
    if waiting:
        _reply_box(waiting[0], chat)
    elif chat.new_turn is not None and running:
        _streamed_reply(session, chat)
        st.caption("The assistant is answering; you can write again when it is done.")
    elif chat.new_turn is not None and session.status() != "ready":
        _send_new_turn(session, chat)
        _new_turn_box(chat)
    elif chat.continue_label and session.status() == "ready" and not running:
        if st.button(chat.continue_label, key=f"{chat.key}_continue", type="primary", help=chat.continue_help):
            run_on(session, chat)
            st.rerun()
