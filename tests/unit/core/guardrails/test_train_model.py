"""Fitting the learned injection model: the same rows give the same bytes, thresholds come from benign rows the fit
did not see, and a model fitted on a sample of the corpora tells held-out attacks from held-out benign text."""

from __future__ import annotations

import numpy as np

from pipelines.core.guardrails.train_model import fitted_model, row_scores, training_rows


def _sample(rows, attack: bool, every: int, offset: int = 0):
    return [r for r in rows if r.attack == attack][offset::every]


def test_the_same_rows_give_the_same_model_and_thresholds_hold_on_unseen_benign_text():
    rows = training_rows()
    sample = _sample(rows, True, 40) + _sample(rows, False, 40)
    first, second = fitted_model(sample), fitted_model(sample)
    assert first.weights.tobytes() == second.weights.tobytes() and first.thresholds == second.thresholds
    assert set(first.thresholds) == {"user", "document"} and first.card["calibration_rows"] > 10
    unseen_attacks, unseen_benign = _sample(rows, True, 40, offset=20), _sample(rows, False, 40, offset=20)
    attack_scores, benign_scores = row_scores(first, unseen_attacks), row_scores(first, unseen_benign)
    assert np.median(attack_scores) > np.median(benign_scores)
    caught = np.mean([s >= first.threshold(r.mode) for r, s in zip(unseen_attacks, attack_scores, strict=True)])
    passed = np.mean([s < first.threshold(r.mode) for r, s in zip(unseen_benign, benign_scores, strict=True)])
    assert caught > 0.3 and passed > 0.8, (caught, passed)  # the n-gram model is weak out of sample (issue 24)
