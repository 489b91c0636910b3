"""Recall of the PII detector on the libraries' own example values (phonenumbers' example number of every region,
python-stdnum's IBAN registry and check digits, Chinese resident IDs, Luhn card numbers of seven brands, SSNs), in
English and Chinese sentences, and its false positives on benign text. Run with `-s` to see the table."""

from __future__ import annotations

import io

import pytest

from pipelines.core.guardrails.pii import find_pii
from tests.support.pii_examples import benign_sentences, false_positives, report

MIN_RECALL = 0.95
MAX_BENIGN_HITS = 0.01


@pytest.fixture(scope="module")
def measured():
    out = io.StringIO()
    table, fps, benign = report(find_pii, out)
    print("\n" + out.getvalue())
    return table, fps, benign


def test_each_type_is_found_in_95_percent_of_english_and_chinese_sentences(measured):
    table, _, _ = measured
    kinds = {kind for kind, _ in table}
    assert {"email", "credit_card", "cn_resident_id", "passport", "iban", "us_ssn", "phone_international",
            "phone_e164", "phone_national_named", "phone_national_region"} <= kinds
    low = {f"{kind}/{lang}": f"{found}/{total}, e.g. {[m.text for m in misses[:3]]}"
           for (kind, lang), (found, total, misses) in table.items() if found < MIN_RECALL * total}
    assert not low, low


def test_benign_sentences_rarely_hold_a_match(measured):
    _, fps, benign = measured
    assert benign > 2000
    assert len(fps) <= MAX_BENIGN_HITS * benign, [(source, [m.value for m in matches], text[:80])
                                                  for source, text, matches in fps]


def test_benign_sentences_stay_clean_when_the_user_names_regions():
    """The user's regions widen the national formats read; dates, money, versions and codes still do not match."""
    sentences = benign_sentences()
    fps = false_positives(sentences, lambda text: find_pii(text, regions=("GB", "DE", "FR", "IN", "JP")))
    assert len(fps) <= MAX_BENIGN_HITS * len(sentences), [(s, [m.value for m in ms], t[:80]) for s, t, ms in fps]
