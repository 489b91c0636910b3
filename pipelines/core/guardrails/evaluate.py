"""Measures the injection check on labelled corpora (`make guard-eval`): block rates by source, category and
language, every false block on benign text, leave-one-source-out for the fitted model, and latency of the whole
input check. Prints Markdown tables; nothing here is tuned on what it measures."""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence

from pipelines.core.guardrails.corpora import (Row, blind_rows, deduplicated, external_rows, own_benign_rows,
                                               shared_real_rows, shipped_rows, zh_dev_rows)
from pipelines.core.guardrails.ngram_model import NgramModel

Judge = Callable[[str, str], bool]  # (text, source mode) → blocked


def product_judge(text: str, mode: str) -> bool:
    from pipelines.core.guardrails.injection import detect_injection

    return bool(detect_injection(text, source="document" if mode == "document" else "user"))


def rules_alone_judge(text: str, mode: str) -> bool:
    from pipelines.core.guardrails.learned import rules_alone

    with rules_alone():
        return product_judge(text, mode)


def verdicts(rows: Sequence[Row], judge: Judge) -> list[bool]:
    return [judge(row.text, row.mode) for row in rows]


def rate_table(rows: Sequence[Row], blocked: Sequence[bool], key: Callable[[Row], str]) -> list[tuple[str, int, int]]:
    """(key, rows, blocked) per value of `key`, attacks and benign apart."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row, hit in zip(rows, blocked, strict=True):
        name = f"{'attack' if row.attack else 'benign'} · {key(row)}"
        counts[name][0] += 1
        counts[name][1] += int(hit)
    return [(name, n, b) for name, (n, b) in sorted(counts.items())]


def markdown(title: str, table: Sequence[tuple[str, int, int]]) -> str:
    lines = [f"### {title}", "", "| set | rows | blocked | rate |", "|---|---|---|---|"]
    lines += [f"| {name} | {n} | {b} | {100 * b / n:.1f} % |" for name, n, b in table if n]
    return "\n".join(lines)


def false_blocks(rows: Sequence[Row], blocked: Sequence[bool]) -> list[str]:
    return [f"- {row.group} {row.id or ''} ({row.category}, {row.lang}): {' '.join(row.text.split())[:140]!r}"
            for row, hit in zip(rows, blocked, strict=True) if hit and not row.attack]


def held_out_fits(rows: Sequence[Row], min_rows: int = 20) -> list[tuple[str, list[Row], NgramModel]]:
    """For each source with enough rows: its name, its rows, and the model fitted on all other sources (with the
    thresholds that fit set on its own held-back benign rows). A fit takes half a minute: both tables use these."""
    from pipelines.core.guardrails.train_model import fitted_model

    fits = []
    for group in sorted({r.group for r in rows}):
        held = [r for r in rows if r.group == group]
        if len(held) >= min_rows:
            fits.append((group, held, fitted_model([r for r in rows if r.group != group])))
    return fits


def leave_one_source_out(fits: Sequence[tuple[str, list[Row], NgramModel]]) -> list[tuple[str, int, int]]:
    """The model alone, fitted without each source, judging that source's attacks and benign rows apart."""
    from pipelines.core.guardrails.normalize import fold

    table = []
    for group, held, model in fits:
        for attack in (True, False):  # a source may hold both (the self-written sets)
            mine = [r for r in held if r.attack == attack]
            if mine:
                blocked = sum(model.best_window(fold(r.text)).score >= model.threshold(r.mode) for r in mine)
                table.append((f"{'attack' if attack else 'benign'} · {group}", len(mine), int(blocked)))
    return table


def leave_one_source_out_check(fits: Sequence[tuple[str, list[Row], NgramModel]]) -> str:
    """For each source, the whole check on its rows twice: the rules alone, and the rules with the model fitted
    without the source. What the model adds on a source it never saw."""
    from pipelines.core.guardrails.learned import using

    lines = ["### Leave one source out: the whole check (rules + a model fitted without the source)", "",
             "| source | label | rows | rules alone | rules + model |", "|---|---|---|---|---|"]
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for group, held, model in fits:
        alone = verdicts(held, rules_alone_judge)
        with using(model):
            whole = verdicts(held, product_judge)
        for label in ("attack", "benign"):
            mine = [i for i, r in enumerate(held) if r.attack == (label == "attack")]
            if mine:
                n, a, w = len(mine), sum(alone[i] for i in mine), sum(whole[i] for i in mine)
                lines.append(f"| {group} | {label} | {n} | {100 * a / n:.1f} % | {100 * w / n:.1f} % |")
                totals[label] = [totals[label][0] + n, totals[label][1] + a, totals[label][2] + w]
    for label, (n, a, w) in sorted(totals.items()):
        lines.append(f"| **all sources** | {label} | {n} | {100 * a / n:.1f} % | {100 * w / n:.1f} % |")
    return "\n".join(lines)


def latency(judge_text: Callable[[str], object], rounds: int = 30) -> dict[str, tuple[float, float]]:
    """p50 and p95 in ms of the whole input check on 1 KB and 64 KB of real benign text."""
    body = "\n\n".join(r.text for r in own_benign_rows())
    out = {}
    for name, size, n in (("1 KB", 1024, rounds * 10), ("64 KB", 64 * 1024, rounds)):
        sample = (body * (1 + size // max(len(body), 1)))[:size]
        judge_text(sample)
        times = []
        for _ in range(n):
            start = time.perf_counter()
            judge_text(sample)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        out[name] = (statistics.median(times), times[int(0.95 * (len(times) - 1))])
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loso", action="store_true", help="also fit once per source, without it (minutes)")
    parser.add_argument("--latency", action="store_true")
    args = parser.parse_args(argv)
    sets = {"shared real (dev-visible)": deduplicated(shared_real_rows()),
            "Chinese dev set (blind-written, not fitted on)": zh_dev_rows(),
            "blind (never tuned on)": blind_rows(),
            "external public sets (never tuned on)": external_rows(),
            "shipped corpora": deduplicated(shipped_rows())}
    for title, rows in sets.items():
        if not rows:
            continue
        blocked = verdicts(rows, product_judge)
        print(markdown(f"{title}: by category and language", rate_table(rows, blocked, lambda r: f"{r.category} · {r.lang}")))
        print()
        print(markdown(f"{title}: by source", rate_table(rows, blocked, lambda r: r.group)))
        print()
        validation = rows[0].group.startswith(("blind:", "external:"))
        if validation or rows[0].group.startswith("zh-dev:"):
            alone = verdicts(rows, rules_alone_judge)
            print(markdown(f"{title}: the rules alone, without the learned model", rate_table(rows, alone, lambda r: r.group)))
            print()
        wrong = false_blocks(rows, blocked)
        print(f"False blocks on benign text in {title}: {len(wrong)}")
        if validation:
            # Their texts are not shown: a rule written after reading them would tune on the validation set.
            print("- (texts of the validation set are not listed; the tables above give their categories)")
        else:
            print("\n".join(wrong) or "- none")
        print()
    if args.loso:
        from pipelines.core.guardrails.train_model import training_rows

        fits = held_out_fits(training_rows())
        print(markdown("Leave one source out, the model alone (fit without the source, judge it)",
                       leave_one_source_out(fits)))
        print()
        print(leave_one_source_out_check(fits))
        print()
    if args.latency:
        from pipelines.core.guardrails.input_validator import validate_input_text

        for name, (p50, p95) in latency(lambda text: validate_input_text(text, source="document")).items():
            print(f"- whole input check, {name}: p50 {p50:.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
