#!/usr/bin/env python3
"""Rebuild notinject.jsonl and bipia_email.jsonl from the upstream files.

MEASUREMENT-ONLY DATA: see README.md. Never read these sets when writing
detector rules; never train or tune on them.

Usage:
    python3 build.py --src SRC_DIR [--out OUT_DIR]

SRC_DIR must contain the upstream files at these paths (exact copies of the
files at the commits listed below):
    SRC_DIR/leolee99/PIGuard/datasets/NotInject_one.json
    SRC_DIR/leolee99/PIGuard/datasets/NotInject_two.json
    SRC_DIR/leolee99/PIGuard/datasets/NotInject_three.json
    SRC_DIR/microsoft/BIPIA/benchmark/email/test.jsonl
    SRC_DIR/microsoft/BIPIA/benchmark/text_attack_test.json

Only the standard library is used; the output is deterministic.
"""
import argparse
import hashlib
import json
import re
from pathlib import Path

PIGUARD_COMMIT = "54415cc9ba086d80b65ea8e2e8eca84f52671df7"
BIPIA_EMAIL_COMMIT = "dca710a05f378eafb36107868aaec572d79ee2dc"   # benchmark/email/test.jsonl
BIPIA_ATTACK_COMMIT = "5a48626aece9739ce587ffdbcb2b7badcfd9d8ba"  # benchmark/text_attack_test.json

# sha256 of the upstream files as used for the committed build
SRC_SHA256 = {
    "leolee99/PIGuard/datasets/NotInject_one.json": "9854baf08f20b602d7b712ef19f61f5605f371f21d11081e6ad68d63affccab9",
    "leolee99/PIGuard/datasets/NotInject_two.json": "1ca0ac2304f1b14c2206e7872d4c1f7b26cad19b7c1619c4107813a2f8df56b1",
    "leolee99/PIGuard/datasets/NotInject_three.json": "2549f07a8ceb3e687e1b9f95df8fdedb8bf11b2c31e5730bb00666d2a7f43c4a",
    "microsoft/BIPIA/benchmark/email/test.jsonl": "217b403faaa1d0cb12c24892bea39f4a0b9e2819919ac7e2b902006e28278cdb",
    "microsoft/BIPIA/benchmark/text_attack_test.json": "75750e7b4e8b34e8f9d88d89b357aeaaf02bd07f9e493ccd37eda74a0cd7c7f8",
}

NOTINJECT_LICENCE = "MIT"
BIPIA_LICENCE = (
    "MIT (microsoft/BIPIA LICENSE, Copyright (c) Microsoft Corporation; the e-mail "
    "contexts derive from the 'Invoices data in Openai Evals', which BIPIA's LICENSE/NOTICE.md "
    "list under the MIT License, Copyright (c) 2023 OpenAI)"
)

# CJK ideographs (Unified, Ext. A, Compatibility). Kana/Hangul are not expected here.
CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")
# Latin-script prompts that are not English (checked by hand: only one in NotInject).
NON_ENGLISH_LATIN = {("one", 73)}  # Spanish: "Por favor, canta una canci\u00f3n ..."

BIPIA_N_DOCS_MAX = 50
BIPIA_N_ATTACKS = 75


def sha256(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def lang_of(part: str, pos: int, text: str) -> str:
    if CJK_RE.search(text):
        return "zh"
    if CYRILLIC_RE.search(text) or (part, pos) in NON_ENGLISH_LATIN:
        return "other"
    return "en"


def slug(category: str) -> str:
    s = category.lower().replace("&", "_").replace(" ", "_")
    return re.sub(r"_+", "_", s).strip("_")


def build_notinject(src: Path):
    rows = []
    for part in ("one", "two", "three"):
        rel = f"datasets/NotInject_{part}.json"
        items = json.loads((src / "leolee99/PIGuard" / rel).read_text(encoding="utf-8"))
        for pos, item in enumerate(items, start=1):  # pos = 1-based position in upstream list
            text = item["prompt"]
            if not text:
                continue
            rows.append({
                "id": f"ni-{part}-{pos:03d}",
                "text": text,
                "label": "benign",
                "category": f"notinject_{part}",
                "lang": lang_of(part, pos, text),
                "source_mode": "user",
                "source": f"github:leolee99/PIGuard/{rel}@{PIGUARD_COMMIT}",
                "licence": NOTINJECT_LICENCE,
                "trigger_words": item["word_list"],
            })
    return rows


def build_bipia(src: Path):
    base = src / "microsoft/BIPIA/benchmark"
    contexts = []
    for line in (base / "email/test.jsonl").read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            continue
        ctx = json.loads(line)["context"]
        if ctx not in contexts:
            contexts.append(ctx)
        if len(contexts) == BIPIA_N_DOCS_MAX:
            break
    n = len(contexts)  # 44: test.jsonl has 50 lines but only 44 distinct contexts

    attacks_by_cat = json.loads((base / "text_attack_test.json").read_text(encoding="utf-8"))
    attacks = [(cat, instr) for cat, lst in attacks_by_cat.items() for instr in lst]
    assert len(attacks) == BIPIA_N_ATTACKS, len(attacks)

    source = (f"github:microsoft/BIPIA/benchmark/email/test.jsonl@{BIPIA_EMAIL_COMMIT}"
              f" + text_attack_test.json@{BIPIA_ATTACK_COMMIT}")
    common = {"lang": "en", "source_mode": "document", "source": source, "licence": BIPIA_LICENCE}

    rows = []
    for k, ctx in enumerate(contexts, start=1):
        rows.append({"id": f"bipia-b-{k:03d}", "text": ctx, "label": "benign",
                     "category": "bipia_email", **common})
    a = 0
    for i, (cat, instr) in enumerate(attacks):
        d = i % n
        for position, text in (("end", ctx_join(contexts[d], instr, "end")),
                               ("start", ctx_join(contexts[d], instr, "start"))):
            a += 1
            rows.append({"id": f"bipia-a-{a:03d}", "text": text, "label": "attack",
                         "category": f"bipia_{slug(cat)}", **common,
                         "position": position, "doc_id": f"bipia-b-{d + 1:03d}"})
    return rows


def ctx_join(ctx: str, instr: str, position: str) -> str:
    if position == "end":
        return ctx + "\n\n" + instr
    return instr + "\n\n" + ctx


def write_jsonl(path: Path, rows):
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    ap.add_argument("--no-hash-check", action="store_true")
    args = ap.parse_args()
    if not args.no_hash_check:
        for rel, want in SRC_SHA256.items():
            got = sha256(args.src / rel)
            if got != want:
                raise SystemExit(f"sha256 mismatch for {rel}: {got} != {want}")
    ni = build_notinject(args.src)
    bp = build_bipia(args.src)
    write_jsonl(args.out / "notinject.jsonl", ni)
    write_jsonl(args.out / "bipia_email.jsonl", bp)
    print(f"notinject.jsonl: {len(ni)} rows; bipia_email.jsonl: {len(bp)} rows")


if __name__ == "__main__":
    main()
