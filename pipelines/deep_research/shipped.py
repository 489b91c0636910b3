"""The collections Stepwise ships as ready-made examples: the Flink knowledge base, O*NET occupations, career market."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable

from pipelines.core.paths import ASSETS_DIR
from pipelines.deep_research.documents import LoadedDocument, Section

FLINK_DIR = ASSETS_DIR / "knowledge" / "flink"
OCCUPATIONS_DIR = ASSETS_DIR / "occupations"
MARKET_FILE = ASSETS_DIR / "market" / "career_market.json"


def _jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def flink_documents() -> list[LoadedDocument]:
    """Each Flink doc page one document; the seeded diagnosis cases one document, a section per case."""
    docs = [LoadedDocument(f"{d['doc_id']}.md", d.get("title", ""), "Markdown",
                           [Section(d["text"], None, d.get("title", ""))]) for d in _jsonl(FLINK_DIR / "docs.jsonl")]
    cases = [Section(f"{c.get('error_type', '')}: {c.get('root_cause') or c.get('diagnosis') or ''} "
                     f"Fix: {c.get('solution') or c.get('fix') or ''}".strip(), None, c.get("case_id", ""))
             for c in _jsonl(FLINK_DIR / "cases.jsonl")]
    return docs + [LoadedDocument("flink_cases.jsonl", "Seeded Flink diagnosis cases", "text", cases)]


def occupation_documents() -> list[LoadedDocument]:
    """O*NET occupations: one document per major group (the SOC code's first two digits), a section each."""
    with (OCCUPATIONS_DIR / "onet_titles_zh.csv").open(encoding="utf-8") as f:
        chinese = {row["onet_soc_code"]: row["title_zh"] for row in csv.DictReader(f)}
    groups: dict[str, list[Section]] = {}
    with (OCCUPATIONS_DIR / "occupation_interests.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            code = row["onet_soc_code"]
            text = (f"{row['title']} ({chinese.get(code, '')}), O*NET {code}. Holland code {row['high_point_code']}. "
                    f"{row['description']}")
            groups.setdefault(code[:2], []).append(Section(text, None, row["title"]))
    return [LoadedDocument(f"onet_{group}.csv", f"O*NET occupations, SOC major group {group}", "CSV", sections)
            for group, sections in sorted(groups.items())]


def market_documents() -> list[LoadedDocument]:
    data = json.loads(MARKET_FILE.read_text(encoding="utf-8"))
    industries = [Section(f"{i['en']} ({i['zh']}): demand index {i.get('demand_index')}, growth "
                          f"{i.get('growth_rate_pct')}% a year, outlook {i.get('outlook')}. "
                          + " ".join(i.get("trends_en", [])) + " " + "；".join(i.get("trends_zh", [])), None, i["en"])
                  for i in data.get("industries", [])]
    roles = []
    for role in data.get("roles", []):
        pay = "; ".join(f"{country} {level} {low}-{high}" for country, levels in (role.get("salary") or {}).items()
                        for level, (low, high) in levels.items())
        roles.append(Section(f"{role['en']} ({role['zh']}): demand index {role.get('demand_index')}, openings "
                             f"{role.get('openings_trend')}. Salary ranges: {pay}. Required skills: "
                             f"{', '.join(role.get('required_skills', []))}. {role.get('summary_en', '')} "
                             f"{role.get('summary_zh', '')}".strip(), None, role["en"]))
    title = data.get("meta", {}).get("title", "Career market data")
    return [LoadedDocument("career_market_industries.json", title, "text", industries),
            LoadedDocument("career_market_roles.json", title, "text", roles)]


SHIPPED: dict[str, Callable[[], list[LoadedDocument]]] = {
    "flink-kb": flink_documents, "onet-occupations": occupation_documents, "career-market": market_documents}
SHIPPED_TITLES = {"flink-kb": "Flink knowledge base (docs and seeded cases)",
                  "onet-occupations": "O*NET 30.2 occupations", "career-market": "Career market data (illustrative)"}
SHIPPED_TABLES = {"onet-occupations": [OCCUPATIONS_DIR / "occupation_interests.csv"]}
