"""Offline coder: a pandas program that sums up the tables a processing step names — the columns the task's words
point at, described, and grouped by the first matching category."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

_TEMPLATE = '''import pandas as pd

WORDS = {words}
FILES = {files}
pd.set_option("display.width", 120)
for name in FILES:
    df = pd.read_excel(name) if name.endswith((".xlsx", ".xls")) else pd.read_csv(name)
    print(f"== {{name}}: {{len(df)}} rows, {{len(df.columns)}} columns")
    picked = [c for c in df.columns if any(w in str(c).lower() for w in WORDS)]
    numbers = df.select_dtypes("number")
    focus = [c for c in numbers.columns if c in picked] or list(numbers.columns)[:6]
    if focus:
        print(df[focus].describe().round(2).to_string())
    groups = [c for c in picked if c not in numbers.columns] or [c for c in df.columns if c not in numbers.columns
                                                                and 1 < df[c].nunique() <= 30][:1]
    if groups and focus:
        table = df.groupby(groups[0])[focus].mean().round(2).sort_values(focus[0], ascending=False)
        print(f"-- mean by {{groups[0]}}")
        print(table.head(15).to_string())
'''


def offline_program(task: str, files: Sequence[str]) -> str:
    words = sorted({w for w in re.findall(r"[a-z]{3,}", task.lower())} | set(re.findall(r"[\u4e00-\u9fff]{2,}", task)))
    return _TEMPLATE.format(words=json.dumps(words, ensure_ascii=False), files=json.dumps(list(files), ensure_ascii=False))
