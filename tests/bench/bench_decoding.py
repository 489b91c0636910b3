"""What decoding costs before judging (`pipelines/core/guardrails/decoding.py`): time per KB of ordinary text (the real
benign corpus when it is there, and 1 KB / 64 KB resume-like texts), next to the whole injection check.

Run with `python -m tests.bench.bench_decoding`. Prints figures; asserts no time.
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path

from pipelines.core.guardrails.decoding import decoded_variants
from pipelines.core.guardrails.injection import detect_injection
from tests.bench.bench_recruiter import latency_ms, texts_of

BENIGN = Path(__file__).resolve().parents[3] / "shared" / "data" / "guardrails_real" / "benign.jsonl"


def main() -> None:
    decoded_variants("warm-up: SGVsbG8gd29ybGQsIGhvdyBhcmUgeW91Pw== and Uryyb jbeyq")
    print(f"{'texts':<22} {'n':>4} {'decode p50':>11} {'decode p95':>11} {'check p50':>10} {'check p95':>10}  (ms)")
    sets = [(f"resume-like {size // 1000} KB", texts_of(size, count)) for size, count in ((1_000, 200), (64_000, 20))]
    image = base64.b64encode(random.Random(1).randbytes(47_000)).decode()
    sets.append(("64 KB page with image", [f'<p>Logo {i}</p><img src="data:image/png;base64,{image}">' for i in range(10)]))
    if BENIGN.exists():
        rows = [json.loads(line) for line in BENIGN.read_text(encoding="utf-8").splitlines() if line.strip()]
        sets.insert(0, ("benign corpus (per KB)", [r["text"] for r in rows]))
    for label, items in sets:
        per_kb = label.endswith("(per KB)")
        scale = (lambda t: 1000 / max(len(t.encode()), 1)) if per_kb else (lambda t: 1.0)
        decode = _scaled(lambda t: decoded_variants(t), items, scale)
        check = _scaled(lambda t: detect_injection(t), items, scale)
        print(f"{label:<22} {len(items):>4} {decode[0]:>11.3f} {decode[1]:>11.3f} {check[0]:>10.2f} {check[1]:>10.2f}")


def _scaled(fn, items, scale) -> tuple[float, float]:
    """p50 and p95 of `fn` over `items`, each time multiplied by the item's scale (1000 / bytes for per-KB)."""
    times = sorted(latency_ms(fn, [item], repeat=3)[0] * scale(item) for item in items)
    return times[len(times) // 2], times[int(0.95 * (len(times) - 1))]


if __name__ == "__main__":
    main()
