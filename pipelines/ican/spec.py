"""iCan career guidance (seed 003): its PipelineSpec for the runtime, the CLI and the dashboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pipelines.core.errors import validate_input
from pipelines.core.paths import input_path
from pipelines.core.runtime.state_edit import input_field_rules
from pipelines.core.spec import Counter, InterruptSpec, PipelineSpec, RuntimeDeps, lazy
from pipelines.ican.language import first_language
from pipelines.ican.schemas import ClientMessage, RunInput
from pipelines.ican.settings import ICanSettings, ican_settings
from pipelines.ican.state import CLIENT_MESSAGE, MAX_CLIENT_TURNS, ICanContext


# A session in the dashboard goes on without a resume it cannot use, and says so; a headless run stops instead.
GOES_ON = "; the session goes on without it."


def _resume_from_file(path_text: str) -> tuple[str, str, str]:
    """(text, name, issue): a resume that cannot be read is noted and the session goes on without it."""
    from pipelines.ican.resume import ResumeFileError, read_resume

    path = input_path(path_text)
    try:
        return read_resume(path.name, path.read_bytes()), path.name, ""
    except FileNotFoundError:
        return "", path.name, f"{path.name}: no such file{GOES_ON}"
    except ResumeFileError as exc:
        return "", path.name, f"{exc}{GOES_ON}"
    except OSError as exc:
        return "", path.name, f"{path.name} cannot be read ({exc.strerror}){GOES_ON}"


def input_issue(initial: Mapping[str, Any]) -> str | None:
    """Why a headless run cannot use its input as given: the resume it names could not be used."""
    issue = str(initial.get("resume_issue") or "")
    return f"the resume was not used: {issue.removesuffix(GOES_ON)}" if issue else None


def make_input(raw: Mapping[str, Any], thread_id: str) -> dict[str, Any]:
    """`{"raw_input": "<the client's first message>"}`, optionally with `resume_text` or `resume_file`, and the
    session's `language` (else the first message's)."""
    from pipelines.ican.resume import looks_like_resume, not_a_resume_message, screen

    data = validate_input(RunInput, raw, "iCan")
    state: dict[str, Any] = {
        "session_id": data.session_id or thread_id, "raw_input": data.raw_input,
        "conversation_history": [{"role": "user", "content": data.raw_input}],
        "language": data.language or first_language(data.raw_input), "progress": 0, "client_turns": 1,
    }
    if data.resume_file:
        text, name, issue = _resume_from_file(data.resume_file)
        if text and not looks_like_resume(text):
            text, issue = "", not_a_resume_message(name)
        state.update(resume_text=text, resume_name=name, resume_issue=issue)
    elif data.resume_text:
        ok = looks_like_resume(data.resume_text)
        state.update(resume_text=data.resume_text if ok else "", resume_name=data.resume_name or "pasted resume",
                     resume_issue="" if ok else not_a_resume_message("The pasted text"))
    if state.get("resume_text"):  # every resume goes through the documents' scan before anything reads it
        state.update(screen(state["resume_text"]))
    return state


def run_title(raw: Mapping[str, Any], limit: int = 60) -> str | None:
    """A run is named by the client's first words, so that a list of sessions tells them apart."""
    text = " ".join(str(raw.get("raw_input") or "").split())
    if len(text) <= limit:
        return text or None
    cut = text[:limit - 1]
    # at a word's end where there is one in the second half (Chinese has no spaces: cut anywhere)
    return (cut[:cut.rindex(" ")] if " " in cut[limit // 2:] else cut).rstrip(" ,;:") + "…"


def make_context(deps: RuntimeDeps) -> ICanContext:
    return ICanContext(gateway=deps.gateway, max_guide_loops=ican_settings(deps.settings).guide_max_loops)


SPEC = PipelineSpec(
    id="ican",
    build=lazy("pipelines.ican.graph", "build_graph"),
    make_context=make_context,
    make_input=make_input,
    input_issue=input_issue,
    report=lazy("pipelines.ican.report", "build_report"),
    counters=(
        Counter("client_turns", "Client messages (analysis forced at the limit)", limit=MAX_CLIENT_TURNS,
                loop_edge=("client_turn", "guide_node:welcome")),
        Counter("guide_loop_count", "Guide dig_deeper passes", limit_field="max_guide_loops", limit=8,
                loop_edge=("guide_node:check_sufficiency", "guide_node:dig_deeper")),
        Counter("progress", "Analysis progress (%)", limit=100),
    ),
    interrupts=(
        InterruptSpec(CLIENT_MESSAGE, "The client's next message", ClientMessage,
                      "Type or paste what the client answers; the guide replies, or starts the analysis once it "
                      "knows enough or this is the client's third message."),
    ),
    field_order=("session_id", "raw_input", "conversation_history", "needs_more_info", "current_agent", "progress",
                 "language", "collected_info", "missing_fields", "emotion_state", "client_turns", "guide_loop_count",
                 "resume_name", "resume_issue", "resume_text", "resume_flagged", "structured_profile", "riasec_scores",
                 "riasec_evidence", "holland_code", "career_matches", "target_match", "final_report"),
    done_message="The session is complete: the Results tab has the RIASEC profile, the matches, the report and the PDF.",
    pdf=lazy("pipelines.ican.pdf_report", "ican_pdf"),
    run_title=run_title,
    field_rules={**input_field_rules(RunInput, "raw_input", "resume_text", "resume_name"),
                 "language": Literal["en", "zh"]},
    settings_model=ICanSettings,
    personal_fields=("raw_input", "conversation_history", "resume_text", "resume_flagged"),
)
