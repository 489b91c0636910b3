"""The studio anatomy every workflow page shares: graph, controls, interrupt form and the tabs."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

import streamlit as st

from dashboard import services
from dashboard.studio.checkpoints import render_checkpoints
from dashboard.studio.evolution import render_evolution, thread_evolution
from dashboard.studio.flash import show_flash
from dashboard.studio.graph_view import GraphHighlights, counter_labels, graph_shape, render_graph
from dashboard.studio.interrupt_forms import (apply_submitted_answer, render_interrupt_form,
                                                   render_unapplied_answer)
from dashboard.studio.iterations import render_counter_bar, render_iterations
from dashboard.studio.live_run import render_ended_run, render_live_run, report_watched_run
from dashboard.studio.metrics_charts import (make_latency_figure, make_timeline_figure, make_usage_figure,
                                                 task_frame)
from dashboard.studio.report_download import render_report_downloads
from dashboard.studio.run_sidebar import render_run_sidebar, start_run
from dashboard.studio.state_panel import render_changes, render_state
from dashboard.studio.step_controls import render_step_controls
from dashboard.studio.view_guard import guarded
from dashboard.state_keys import THREAD_PARAM
from pipelines.core.markup import escape_markdown, sanitize_markdown
from pipelines.core.errors import InvalidInput
from pipelines.core.spec import PipelineSpec
from pipelines.core.runtime.session import Session

TABS = ["State", "Changes", "Evolution", "Iterations", "Metrics", "Checkpoints", "Report"]


def demote_headings(markdown: str, levels: int = 2) -> str:
    """Report headings one or two levels down, so a report inside a tab does not outshout the page."""
    return re.sub(r"^(#{1,6}) ", lambda m: "#" * min(6, len(m.group(1)) + levels) + " ", markdown, flags=re.M)


def _highlights(session: Session, records, breakpoints: list[str]) -> GraphHighlights:
    completed = [r for r in records if r.status in ("completed", "substep")]
    visited = {n for r in completed for n in r.graph_nodes if n != "__input__"}
    current = completed[-1].graph_nodes - {"__input__"} if completed else set()
    next_nodes = set(session.next_nodes())
    waiting = {t.name for t in session.snapshot().tasks if t.interrupts}
    return GraphHighlights(visited=visited, current=current, next=next_nodes - waiting, waiting=waiting,
                           breakpoints=set(breakpoints), edge_labels=counter_labels(session.spec.counters, session.counters()))


def _sample_answer(session: Session, records) -> dict | None:
    info = session.thread
    if not info or not info.scenario:
        return None
    try:
        answers = session.spec.scenario(info.scenario).answers
    except InvalidInput:
        return None
    asked = sum(1 for r in records if r.status == "interrupted") - 1
    return answers[asked] if 0 <= asked < len(answers) else None


def render_workflow_page(spec: PipelineSpec, extra_tabs: Mapping[str, Callable[[Session], None]] | None = None,
                         start_form: Callable[[PipelineSpec], None] | None = None,
                         lead: Callable[[Session], None] | None = None,
                         lead_answers: Collection[str] = ()) -> None:
    """The studio page of a workflow; `extra_tabs` (title → renderer) come first, for what is special to it;
    `start_form` is drawn when no run is open, beside the scenario picker of the sidebar; `lead` above the
    studio, for a page whose users work in it first (a counselor's chat), answering the interrupts of the
    kinds in `lead_answers` itself."""
    try:
        _render(spec, dict(extra_tabs or {}), start_form, lead, set(lead_answers))
    except services.storage_errors() as exc:
        services.storage_failure(exc)


def _render(spec: PipelineSpec, extra_tabs: dict[str, Callable[[Session], None]],
            start_form: Callable[[PipelineSpec], None] | None, lead: Callable[[Session], None] | None,
            lead_answers: set[str]) -> None:
    key = spec.id  # prefix of every widget key on this page
    st.title(spec.title)
    render_about(spec)
    runs = services.background_runs()
    # Messages that come and go (a flash, a finished run's summary, the rewound note, a background run, a workflow's
    # lead) each draw into a slot that is always there, so what is below keeps its place from one rerun to the next
    # instead of being drawn anew one lower.
    with st.container():
        flashed = show_flash()
    ended_slot = st.empty()  # where a background run's end is said, once the run is open
    settings = services.current_settings()
    studio = services.studio(settings)
    compiled = studio.compiled(spec)
    node_names = [n for n in graph_shape(compiled)[0] if not n.startswith("__")]
    thread_id = st.query_params.get(THREAD_PARAM)
    thread = studio.runs.get_thread(thread_id) if thread_id else None
    if thread is not None and thread.pipeline != spec.id:
        thread = None
    breakpoints = render_run_sidebar(spec, thread, node_names)
    if thread is None:
        render_ended_run(None, None, flashed)
        if thread_id:
            st.warning(f"No {spec.title} run with id {escape_markdown(thread_id)}; pick one in the sidebar or start a new one.")
        st.info("Choose a scenario under **New run** in the sidebar (edit its input if you like) and press "
                "**Start run**. Then step through the graph one super-step at a time.")
        left, right = st.columns([3, 2])
        render_graph(left, compiled, GraphHighlights(breakpoints=set(breakpoints)))
        if start_form is not None:
            with right:
                start_form(spec)
        return

    session = services.open_session(spec, thread.thread_id, breakpoints)
    st.markdown(f"**{escape_markdown(thread.title)}** · thread `{thread.thread_id}` · "
                f"{escape_markdown(thread.provider)}")
    with st.container():
        if session.cursor:
            st.info(rewound_message(session.status()), icon=":material/history:")
    # Asked once, before the end is looked for: a run that ends after this is found by the live view below.
    running = runs.active(thread.thread_id) is not None
    if not running:
        report_watched_run(runs, thread)
    records = session.records()
    with ended_slot:
        render_ended_run(thread.thread_id, (session.head_checkpoint_id(), len(records)), flashed)
    with st.container():
        if running:
            render_live_run(runs, thread.thread_id, {n: c["limit"] for n, c in session.counters().items()}, key)
    if lead is not None:
        with st.container():
            lead(session)
        records = session.records()  # the lead may have moved the run
    changed = render_step_controls(session, key, on_reset=lambda: start_run(spec, thread.input or {}, thread.scenario),
                                   runs=runs, open_worker_session=services.worker_session_opener(
                                       spec, thread.thread_id, breakpoints))
    left, right = st.columns([3, 2], gap="medium")
    with right:
        changed = apply_submitted_answer(session, key, running) or changed
        open_kinds = set()
        for pending in [] if running or changed else session.pending_interrupts():
            if lead_answers and pending.kind in lead_answers:
                asked = pending.spec.title if pending.spec else pending.kind
                st.info(f":material/pause_circle: Waiting for **{asked}**: answer above.")
                continue
            open_kinds.add(pending.kind)
            with guarded("The answer form"):
                render_interrupt_form(session, pending, _sample_answer(session, records), key)
        render_unapplied_answer(key, open_kinds)
        for name, counter in session.counters().items():
            render_counter_bar(name, counter)
        if session.status() == "completed":
            st.success(spec.done_message)
    if changed:
        st.rerun()
    with guarded("The graph"):
        render_graph(left, compiled, _highlights(session, records, breakpoints))

    # A keyed, state-tracking tab bar: the chosen tab survives reruns, and only the open tab is computed.
    names = [*extra_tabs, *TABS]
    tabs = dict(zip(names, st.tabs(names, key=f"{key}_tab", on_change="rerun")))
    renderers: dict[str, Callable[[], object]] = {name: (lambda r=renderer: r(session))
                                                   for name, renderer in extra_tabs.items()}
    renderers |= {
        "State": lambda: render_state(session.values(), spec.field_order, f"{key}_state_field"),
        "Changes": lambda: render_changes(records, f"{key}_changes_step"),
        "Evolution": lambda: render_evolution(
            thread_evolution(thread.thread_id, session.head_checkpoint_id(), records, spec.field_order),
            key=f"{key}_evolution_window"),
        "Iterations": lambda: render_iterations(session.counters(), records, f"{key}_counter_chart"),
        "Metrics": lambda: _render_metrics(records, key),
        "Checkpoints": lambda: render_checkpoints(session, key, read_only=running),
        "Report": lambda: _render_report(session, thread.provider, key),
    }
    for name, render in renderers.items():
        with tabs[name]:
            if tabs[name].open:
                moved = False  # stays False when the tab failed and `guarded` showed why
                with guarded(f"The {name} tab"):
                    moved = render()
                if name == "Checkpoints" and moved:
                    st.rerun()


def rewound_message(status: str) -> str:
    """Where a rewound run stands, and the one thing that moves it on from there."""
    then = {"waiting": "It waits for an answer there: answer the question to continue on a new branch.",
            "completed": "That checkpoint is the end of its branch: rewind to an earlier one to go another way.",
            "failed": "A step failed there: Step retries it on a new branch."}
    return ("Rewound: the run stands at an earlier checkpoint. "
            + then.get(status, "Step to continue from it on a new branch; the later steps stay on their branch."))


def render_about(spec: PipelineSpec) -> None:
    """What the workflow does, with its seed for those who want the source, out of the way of the work."""
    with st.expander("About this workflow", icon=":material/info:"):
        st.write(spec.summary)
        st.caption(f"Specified by seed `{spec.seed}`; the Evolution tab follows its state field by field.")


def _render_report(session: Session, provider: str, key: str) -> None:
    st.caption(f"Produced by: {escape_markdown(provider)}")
    render_report_downloads(session, key)
    with st.container(border=True):
        # Reports escape what they quote; the sanitiser also keeps a model's own links and images out.
        st.markdown(demote_headings(sanitize_markdown(session.spec.report(session.values()))))


def _render_metrics(records, key: str) -> None:
    frame = task_frame(records)
    cols = st.columns(4)
    cols[0].metric("Steps", sum(1 for r in records if r.status == "completed"))
    cols[1].metric("Node runs", len(frame))
    cols[2].metric("Model calls", int(frame["calls"].sum()) if not frame.empty else 0)
    cols[3].metric("Tokens", int(frame[["input_tokens", "output_tokens"]].sum().sum()) if not frame.empty else 0)
    st.markdown("**Per-node latency**")
    st.plotly_chart(make_latency_figure(frame), key=f"{key}_latency", width="stretch")
    st.markdown("**Timeline** — parallel tasks of one super-step overlap in time")
    st.plotly_chart(make_timeline_figure(frame), key=f"{key}_timeline", width="stretch")
    st.markdown("**Model calls and tokens**")
    st.plotly_chart(make_usage_figure(frame), key=f"{key}_usage", width="stretch")
