"""Estimated model-call cost: prefix matching, local models at 0, unknown models unpriced, the override file."""

import json

import pytest

from pipelines.core.models.pricing import PRICING_FILE_ENV, Price, PricingError, call_cost, load_prices, price_for


def call(provider, model, input_tokens=0, output_tokens=0):
    return {"provider": provider, "model": model, "input_tokens": input_tokens, "output_tokens": output_tokens}


def test_the_longest_matching_prefix_prices_a_model():
    assert price_for("openai", "gpt-4o-mini-2024-07-18") == Price(0.15, 0.60)
    assert price_for("openai", "gpt-4o-2024-08-06") == Price(2.50, 10.00)
    assert price_for("openai", "openai/gpt-4.1-mini") == Price(0.40, 1.60)
    assert price_for("openai", "DeepSeek-Chat") == price_for("openai", "deepseek-chat")
    assert call_cost(call("openai", "gpt-4o", 1_000_000, 1_000_000)) == pytest.approx(12.5)
    assert call_cost(call("openai", "qwen-plus", 2_000, 500)) == pytest.approx((2_000 * 0.40 + 500 * 1.20) / 1e6)


def test_local_models_cost_nothing_and_unknown_models_have_no_price():
    assert call_cost(call("offline", "offline-engine", 10, 10)) == 0.0
    assert call_cost(call("ollama", "llama3.1", 5_000, 5_000)) == 0.0
    assert call_cost(call("openai", "llama-3-70b-instruct", 5_000, 5_000)) is None  # served remotely: unknown
    assert call_cost(call("openai", "mystery-model", 100, 40)) is None
    assert price_for("openai", "") is None


def test_the_pricing_file_overrides_and_extends_the_table(tmp_path, monkeypatch):
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({"gpt-4o": {"input": 1, "output": 2}, "My-Finetune": {"input": 0.5, "output": 0.5}}),
                    encoding="utf-8")
    monkeypatch.setenv(PRICING_FILE_ENV, str(path))
    prices = load_prices()
    assert price_for("openai", "gpt-4o-2024-08-06", prices) == Price(1.0, 2.0)
    assert price_for("openai", "gpt-4o-mini", prices) == Price(0.15, 0.60)  # the longer built-in prefix still wins
    assert call_cost(call("openai", "my-finetune-v2", 1_000_000, 0), prices) == pytest.approx(0.5)
    monkeypatch.delenv(PRICING_FILE_ENV)
    assert price_for("openai", "my-finetune-v2", load_prices()) is None


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ('["gpt-4o"]', "must hold an object"),
    ('{"gpt-4o": {"input": 1}}', "needs numbers for \"input\" and \"output\""),
    ('{"gpt-4o": {"input": "cheap", "output": 1}}', "needs numbers"),
    ('{"gpt-4o": {"input": -1, "output": 1}}', "negative price"),
])
def test_a_bad_pricing_file_is_named_and_explained(tmp_path, content, message):
    path = tmp_path / "prices.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(PricingError, match=message) as failure:
        load_prices(path)
    assert str(path) in str(failure.value)
    with pytest.raises(PricingError, match="cannot read the pricing file"):
        load_prices(tmp_path / "missing.json")
