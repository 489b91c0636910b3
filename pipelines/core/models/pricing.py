"""Estimated USD cost of a model call from its tokens: a small price table matched by model-name prefix.

Prices are list prices in USD per 1M input and per 1M output tokens, as of `PRICES_AS_OF`. They are
estimates: providers change their prices, and cached-input or batch discounts are not counted. The offline
engine and every model served by Ollama run on this machine and cost 0. A model the table does not know
gets no price (None), which the dashboard shows as "not priced", never as 0.

Override or extend the table with a JSON file named by the `STEPWISE_PRICING_FILE` environment variable;
its keys are model-name prefixes, its values the two prices, and its entries win over the built-in ones:

    {"gpt-4o": {"input": 2.5, "output": 10.0}, "my-finetune": {"input": 0.3, "output": 1.2}}

The longest matching prefix wins (`gpt-4o-mini-2024-07-18` is priced as `gpt-4o-mini`, not `gpt-4o`), and
a routing prefix such as `openai/` in `openai/gpt-4o` is ignored.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

PRICING_FILE_ENV = "STEPWISE_PRICING_FILE"
PRICES_AS_OF = "2025-06"
LOCAL_PROVIDERS = frozenset({"offline", "ollama"})


class Price(NamedTuple):
    input_per_m: float
    output_per_m: float


DEFAULT_PRICES: dict[str, Price] = {
    "offline-engine": Price(0.0, 0.0),
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "deepseek-chat": Price(0.27, 1.10),
    "deepseek-reasoner": Price(0.55, 2.19),
    "qwen-max": Price(1.60, 6.40),
    "qwen-plus": Price(0.40, 1.20),
    "qwen-turbo": Price(0.05, 0.20),
}


class PricingError(ValueError):
    """The pricing override file cannot be read; the message names the file and what is wrong."""


def _read_overrides(path: Path) -> dict[str, Price]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PricingError(f"cannot read the pricing file {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise PricingError(f"the pricing file {path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise PricingError(f"the pricing file {path} must hold an object of model prefix -> prices")
    prices = {}
    for prefix, entry in data.items():
        try:
            price = Price(float(entry["input"]), float(entry["output"]))
        except (TypeError, KeyError, ValueError) as exc:
            raise PricingError(f"the pricing file {path}: {prefix!r} needs numbers for \"input\" and \"output\" "
                               f"(USD per 1M tokens)") from exc
        if price.input_per_m < 0 or price.output_per_m < 0:
            raise PricingError(f"the pricing file {path}: {prefix!r} has a negative price")
        prices[prefix.strip().lower()] = price
    return prices


def load_prices(path: str | Path | None = None) -> dict[str, Price]:
    """The built-in table with the overrides of `path` (default: `$STEPWISE_PRICING_FILE`, if set) on top."""
    path = path or os.environ.get(PRICING_FILE_ENV)
    prices = dict(DEFAULT_PRICES)
    if path:
        prices.update(_read_overrides(Path(path).expanduser()))
    return prices


def price_for(provider: str | None, model: str | None, prices: Mapping[str, Price] = DEFAULT_PRICES) -> Price | None:
    """The price of one model, or None when the table has no prefix of its name."""
    if provider in LOCAL_PROVIDERS:
        return Price(0.0, 0.0)
    name = (model or "").strip().lower().rsplit("/", 1)[-1]
    matches = [prefix for prefix in prices if name.startswith(prefix)]
    return prices[max(matches, key=len)] if name and matches else None


def call_cost(call: Mapping[str, Any], prices: Mapping[str, Price] = DEFAULT_PRICES) -> float | None:
    """Estimated USD of one recorded model call (a `ModelCall.to_dict()`), None when its model is not priced."""
    price = price_for(call.get("provider"), call.get("model"), prices)
    if price is None:
        return None
    return (int(call.get("input_tokens") or 0) * price.input_per_m
            + int(call.get("output_tokens") or 0) * price.output_per_m) / 1_000_000
