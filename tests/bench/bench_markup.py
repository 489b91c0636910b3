"""What making outside text safe costs: escape_markdown and sanitize_markdown (parsing the text as CommonMark + GFM
and writing it back; its first read, not the cache a page's rerun hits) against html.escape of the same text (1 k,
20 k and 200 k characters of hostile Markdown), and a fork's validation with the start form's rules and the counters'
limits against the state schema alone.

Prints a table of medians and ratios; asserts nothing. Run with `make bench` or `python -m tests.bench.bench_markup`.
"""

from __future__ import annotations

import html
import statistics
import time
from pathlib import Path


from pipelines.core import markup
from pipelines.core.markup import escape_markdown, sanitize_markdown
from pipelines.core.registry import get_spec
from pipelines.core.settings import load_settings
from pipelines.core.runtime.state_edit import validate_state_edits
from pipelines.core.runtime.studio import Studio

ROOT = Path(__file__).resolve().parents[2]

UNIT = ("Line one: ![p](http://evil.example/p.png) [c](javascript:alert(1)) <img src=x> **b** _e_ :red[r] $x$ "
        "user_profile.age www.example.org me@example.org\n# heading\n- item\n1. first | a | b |\n")


def median_ms(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def text_rows() -> list[tuple[str, float, float, float]]:
    rows = []
    for size in (1_000, 20_000, 200_000):
        text = (UNIT * (size // len(UNIT) + 1))[:size]
        repeat = 200 if size <= 20_000 else 20
        base = median_ms(lambda text=text: html.escape(text), repeat)
        rows.append((f"{size:,} chars", base, median_ms(lambda text=text: escape_markdown(text), repeat),
                     median_ms(lambda text=text: _first_read(text), max(3, repeat // 10))))
    return rows


def _first_read(text: str) -> str:
    """The sanitiser parsing the text, not its cache answering for a page's rerun."""
    markup._remembered.cache_clear()
    return sanitize_markdown(text)


def fork_rows() -> tuple[float, float]:
    spec = get_spec("career_navigator")
    studio = Studio.in_memory()
    try:
        session = studio.new_session(spec, spec.scenario("seed_example").input, load_settings(data_dir="/tmp/bench"))
        session.step()
        current = session.values()
        edits = {"user_profile": {**current["user_profile"], "age": 30}, "iteration_count": 1, "max_iterations": 4}
        graph = session.graph
        schema_only = median_ms(lambda: validate_state_edits(graph, edits), 300)
        with_rules = median_ms(lambda: validate_state_edits(graph, edits, rules=spec.field_rules,
                                                            counters=spec.counters, current=current), 300)
        return schema_only, with_rules
    finally:
        studio.close()


def main() -> None:
    print("| outside text | html.escape (baseline) | escape_markdown | ratio | sanitize_markdown | ratio |")
    print("|---|---|---|---|---|---|")
    for label, base, escaped, sanitized in text_rows():
        print(f"| {label} | {base:.3f} ms | {escaped:.3f} ms | {escaped / base:.1f} | {sanitized:.3f} ms | "
              f"{sanitized / base:.1f} |")
    schema_only, with_rules = fork_rows()
    print()
    print("| fork validation (CareerNavigator, 3 fields) | median |")
    print("|---|---|")
    print(f"| state schema only (baseline) | {schema_only:.3f} ms |")
    print(f"| + start form's rules and counters' limits | {with_rules:.3f} ms (ratio {with_rules / schema_only:.2f}) |")


if __name__ == "__main__":
    main()
