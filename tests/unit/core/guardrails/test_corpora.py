"""The guardrail corpora: every shipped row says what it is, where it comes from and under which licence; the model
is fitted only on rows whose licence lets it be shipped, and never on the blind validation set."""

from __future__ import annotations

import json

from pipelines.core.guardrails.corpora import CORPORA_DIR, blind_rows, deduplicated, shipped_rows
from pipelines.core.guardrails.train_model import training_rows

FIELDS = {"id", "text", "label", "category", "lang", "source_mode", "source", "licence"}


def test_every_shipped_row_is_labelled_sourced_and_licensed():
    ids: set[str] = set()
    for path in sorted(CORPORA_DIR.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").rstrip("\n").split("\n"), 1):
            row = json.loads(line)
            assert FIELDS <= set(row), (path.name, number, FIELDS - set(row))
            assert row["label"] in ("attack", "benign") and row["source_mode"] in ("user", "document"), (path.name, number)
            assert row["text"].strip() and row["source"] and row["licence"], (path.name, number)
            assert row["id"] not in ids, (path.name, row["id"])
            ids.add(row["id"])
    assert len(ids) > 5000


def test_the_model_is_fitted_on_shippable_licences_only_and_never_on_the_blind_set():
    rows = training_rows()
    assert rows and all(row.shippable for row in rows)
    assert not any(row.licence.upper().startswith("GPL") for row in rows)
    blind = {" ".join(row.text.casefold().split()) for row in blind_rows()}
    assert len(blind) >= 600
    assert not blind & {" ".join(row.text.casefold().split()) for row in rows}
    assert {row.lang for row in rows if row.attack} >= {"en", "zh"}


def test_duplicates_are_kept_once_whatever_their_spacing_and_case():
    rows = shipped_rows()[:3]
    twin = rows[0].__class__(f"  {rows[0].text.upper()}  ", *[getattr(rows[0], f) for f in
                                                               ("attack", "category", "lang", "mode", "group", "licence")])
    assert deduplicated([*rows, twin]) == rows
