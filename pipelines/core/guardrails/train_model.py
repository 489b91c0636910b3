"""Fits the injection model (`make guard-model`): logistic regression over hashed character n-grams of windows
of folded text, on the shippable corpora, written to assets/guardrails/ with its card. Same inputs, same bytes.

Long attacks are bags of windows of which only some carry the attack (a resume with one injected line), so the
fit runs twice: first every window of an attack counts for a share of its row, then only its strongest windows
count (multiple-instance learning's usual "max" assumption). Benign windows all count. Thresholds are set per
source mode on benign rows held back from the fit, so they hold on text the fit did not see.

Needs the dev requirements (scikit-learn, scipy); the product only reads the fitted weights (ngram_model.py)."""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pipelines.core.guardrails.corpora import Row, blind_rows, deduplicated, external_rows, own_benign_rows, shipped_rows
from pipelines.core.guardrails.ngram_model import MODEL_DIR, NGRAMS, NgramModel, feature_rows
from pipelines.core.guardrails.normalize import fold

BITS, WINDOW, STRIDE = 18, 320, 160
C = 4.0                 # inverse regularisation, chosen by leave-one-source-out on the training groups only
TOP_WINDOWS = 2         # of an attack's windows, how many count in the second fit
BENIGN_QUANTILE = 0.99  # thresholds: at most 1 % of held-back benign rows above them
CALIBRATION_EVERY = 5   # every fifth benign row (in a seeded order) is held back to set the thresholds
SEED = 20261127


def design(rows: Sequence[Row], weights_by_row: Sequence[Sequence[float]] | None = None):
    """The sparse window matrix of `rows`, its labels, sample weights and the row each window belongs to."""
    from scipy.sparse import csr_matrix

    data, indices, indptr, labels, weights, owner = [], [], [0], [], [], []
    for number, row in enumerate(rows):
        windows = feature_rows(fold(row.text), BITS, WINDOW, STRIDE)
        shares = weights_by_row[number] if weights_by_row is not None else \
            [1.0 / len(windows) if row.attack else 1.0] * len(windows)
        for (idx, scale), share in zip(windows, shares, strict=True):
            if share <= 0:
                continue
            indices.append(idx)
            data.append(np.full(len(idx), scale, dtype=np.float64))
            indptr.append(indptr[-1] + len(idx))
            labels.append(int(row.attack))
            weights.append(share)
            owner.append(number)
    matrix = csr_matrix((np.concatenate(data), np.concatenate(indices), np.array(indptr)),
                        shape=(len(labels), 1 << BITS))
    matrix.sum_duplicates()
    return matrix, np.array(labels), np.array(weights), np.array(owner)


def _fit(matrix, labels, weights):
    from sklearn.linear_model import LogisticRegression

    positive = weights[labels == 1].sum()
    balance = np.where(labels == 1, weights.sum() / (2 * positive), weights.sum() / (2 * (weights.sum() - positive)))
    model = LogisticRegression(C=C, solver="liblinear", max_iter=2000, random_state=0)
    model.fit(matrix, labels, sample_weight=weights * balance)
    return model.coef_.ravel().astype(np.float32), float(model.intercept_[0])


def fit(rows: Sequence[Row]) -> tuple[np.ndarray, float]:
    """Weights and bias from two fits (see the module's doc)."""
    matrix, labels, weights, owner = design(rows)
    coef, bias = _fit(matrix, labels, weights)
    scores = matrix @ coef + bias
    second = []
    for number, row in enumerate(rows):
        mine = scores[owner == number]
        if row.attack and len(mine) > TOP_WINDOWS:
            keep = set(np.argsort(-mine)[:TOP_WINDOWS].tolist())
            second.append([1.0 / TOP_WINDOWS if i in keep else 0.0 for i in range(len(mine))])
        else:
            second.append([1.0 / len(mine) if row.attack else 1.0] * len(mine))
    matrix, labels, weights, _ = design(rows, second)
    return _fit(matrix, labels, weights)


def row_scores(model: NgramModel, rows: Sequence[Row]) -> np.ndarray:
    """Each row's score as the product reads it: its best window's logit."""
    return np.array([model.best_window(fold(row.text)).score for row in rows])


def fitted_model(rows: Sequence[Row]) -> NgramModel:
    """A model fitted on `rows` but a share of their benign ones, whose thresholds (per source mode) let at most
    1 - BENIGN_QUANTILE of those held-back benign rows through: thresholds measured on text the fit did not see."""
    order = np.random.default_rng(SEED).permutation(len(rows))
    held = {int(i) for n, i in enumerate(order) if n % CALIBRATION_EVERY == 0 and not rows[int(i)].attack}
    coef, bias = fit([r for i, r in enumerate(rows) if i not in held])
    coef = coef.astype(np.float16)
    model = NgramModel(coef, {"bits": BITS, "window": WINDOW, "stride": STRIDE, "bias": bias, "thresholds": {"user": 0.0}})
    calibration = [rows[i] for i in sorted(held)]
    scores = row_scores(model, calibration)
    thresholds = {}
    for mode in ("user", "document"):
        mine = [s for row, s in zip(calibration, scores, strict=True) if row.mode == mode]
        thresholds[mode] = round(float(np.quantile(mine, BENIGN_QUANTILE)), 4) if mine else float("inf")
    return NgramModel(coef, {**model.card, "thresholds": thresholds, "calibration_rows": len(calibration)})


def training_rows() -> list[Row]:
    """The rows the shipped model is fitted on: shippable licences only, duplicates once, and none that is also in
    a blind or external validation set (two writers can write the same short line)."""
    held_out = {" ".join(r.text.casefold().split()) for r in [*blind_rows(), *external_rows()]}
    return [r for r in deduplicated(r for r in [*shipped_rows(), *own_benign_rows()] if r.shippable)
            if " ".join(r.text.casefold().split()) not in held_out]


def build(out: Path = MODEL_DIR) -> dict:
    rows = training_rows()
    model = fitted_model(rows)
    coef = model.weights.astype(np.float16)
    card = {"version": 1, "bits": BITS, "ngrams": list(NGRAMS), "window": WINDOW, "stride": STRIDE, "C": C,
            "bias": round(model.bias, 6), "thresholds": model.thresholds, "rows": len(rows),
            "attacks": sum(r.attack for r in rows), "groups": sorted({r.group for r in rows}),
            "weights_sha256": hashlib.sha256(coef.tobytes()).hexdigest()}
    out.mkdir(parents=True, exist_ok=True)
    with (out / "injection_model.npy").open("wb") as handle:
        np.save(handle, coef, allow_pickle=False)
    (out / "injection_model.json").write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return card


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    card = build(parser.parse_args(argv).out)
    print(json.dumps({k: v for k, v in card.items() if k != "groups"}, ensure_ascii=False))


if __name__ == "__main__":
    main()
