"""The workflow graph as DOT: visited, current and next nodes coloured, subgraphs as clusters, loops labelled."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dashboard.studio.dot import dot_quote

COLOURS = {"visited": "#dbeafe", "current": "#86efac", "next": "#fde68a", "waiting": "#fdba74",
           "breakpoint": "#fecaca", "idle": "#ffffff", "terminal": "#e5e7eb"}
# A subgraph's cluster takes a light tint of its parent node's colour, so its own nodes stay readable.
CLUSTER_TINTS = {"current": "#f0fdf4", "next": "#fefce8", "waiting": "#fff7ed"}


@dataclass
class GraphHighlights:
    visited: set[str] = field(default_factory=set)
    current: set[str] = field(default_factory=set)
    next: set[str] = field(default_factory=set)
    waiting: set[str] = field(default_factory=set)
    breakpoints: set[str] = field(default_factory=set)
    edge_labels: dict[tuple[str, str], str] = field(default_factory=dict)


def _fill(node: str, marks: GraphHighlights) -> str:
    for kind in ("waiting", "current", "next", "visited"):
        if node in getattr(marks, kind):
            return COLOURS[kind]
    return COLOURS["terminal"] if node.split(":")[-1] in ("__start__", "__end__") else COLOURS["idle"]


def graph_dot(nodes: Iterable[str], edges: Iterable[tuple[str, str, bool]], marks: GraphHighlights) -> str:
    """DOT for nodes and (source, target, conditional) edges. A node id `parent:child` (LangGraph's xray
    naming for subgraph nodes) is drawn inside a cluster named after its parent."""
    lines = ["digraph G {", '  rankdir=TB; bgcolor="transparent"; nodesep=0.3; ranksep=0.35; size="7,8.5";',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11, color="#64748b"];',
             '  edge [fontname="Helvetica", fontsize=9, color="#64748b"];']
    clusters: dict[str, list[str]] = {}
    for node in nodes:
        name = node.split(":")[-1]
        # A subgraph's own end hands control back to its parent node.
        label = {"__start__": "START", "__end__": "END"}.get(node) or \
            {"__start__": "start", "__end__": "return"}.get(name, name)
        shape = ', shape=oval' if name in ("__start__", "__end__") else ""
        border = ', penwidth=2.5, color="#dc2626"' if node in marks.breakpoints else ""
        bold = ', penwidth=2.5, color="#15803d"' if node in marks.current | marks.waiting and not border else ""
        decl = f"{dot_quote(node)} [label={dot_quote(label)}, fillcolor={dot_quote(_fill(node, marks))}{shape}{border}{bold}];"
        parent = node.rsplit(":", 1)[0] if ":" in node else None
        if parent:
            clusters.setdefault(parent, []).append(decl)
        else:
            lines.append("  " + decl)
    for index, (parent, decls) in enumerate(clusters.items()):
        # The parent node itself is not drawn (its subgraph is): the cluster carries its colour instead.
        role = next((r for r in ("waiting", "current", "next") if parent in getattr(marks, r)), None)
        fill = CLUSTER_TINTS[role] if role else None
        style = f'style="rounded,dashed,filled"; fillcolor={dot_quote(fill)};' if fill else 'style="rounded,dashed";'
        lines.append(f"  subgraph cluster_{index} {{ label={dot_quote(parent)}; {style} color=\"#94a3b8\";")
        lines += ["    " + d for d in decls] + ["  }"]
    for source, target, conditional in edges:
        attrs = ['style=dashed'] if conditional else []
        label = marks.edge_labels.get((source, target))
        if label:
            attrs += [f"label={dot_quote(label)}", 'fontcolor="#b45309"', 'color="#b45309"']
        suffix = f" [{', '.join(attrs)}]" if attrs else ""
        lines.append(f"  {dot_quote(source)} -> {dot_quote(target)}{suffix};")
    lines.append("}")
    return "\n".join(lines)


def graph_shape(compiled) -> tuple[list[str], list[tuple[str, str, bool]]]:
    """Nodes and edges of a compiled graph, subgraphs expanded (never draw_mermaid_png: it calls a web service)."""
    drawable = compiled.get_graph(xray=True)
    return list(drawable.nodes), [(e.source, e.target, bool(e.conditional)) for e in drawable.edges]


def counter_labels(counters: Iterable, current: Mapping[str, Mapping[str, Any]]) -> dict[tuple[str, str], str]:
    """The loop edges' labels, from the counters as Session.counters() gives them (the panel's own figures)."""
    labels = {}
    for counter in counters:
        if counter.loop_edge and counter.field in current:
            limit = current[counter.field].get("limit")
            labels[tuple(counter.loop_edge)] = f"{counter.field} {current[counter.field]['value']}/{limit if limit else '∞'}"
    return labels


def render_graph(where, compiled, marks: GraphHighlights) -> None:
    """Draw the graph into a container (a column, usually)."""
    nodes, edges = graph_shape(compiled)
    where.graphviz_chart(graph_dot(nodes, edges, marks), width="stretch")
    legend = " ".join(f"<span style='background:{COLOURS[k]};padding:1px 6px;border-radius:4px;border:1px solid #cbd5e1'>"
                      f"{k}</span>" for k in ("visited", "current", "next", "waiting"))
    where.caption(legend + " &nbsp; <span style='border:2px solid #dc2626;padding:0 5px;border-radius:4px'>breakpoint</span>",
               unsafe_allow_html=True)
