"""The single-turn guide's sufficiency rule (seed 003's run_guide_single_turn), with English and Chinese keywords."""

from __future__ import annotations

import re

from pipelines.ican.schemas import SufficiencyJudgement

# The seed's list, and the Chinese it was written in.
KEYWORDS_EN = ("year", "industry", "position", "job title", "skill", "experience", "company", "major", "degree",
               "direction", "expectation", "confusion", "work", "development", "engineer", "manager", "operations",
               "product", "design", "data", "architecture", "management", "project", "responsible",
               "participated", "university", "undergraduate", "master", "phd")
KEYWORDS_ZH = ("年", "行业", "岗位", "职位", "技能", "经验", "公司", "专业", "学历", "方向", "期望", "困惑", "工作",
               "发展", "工程师", "经理", "运营", "产品", "设计", "数据", "架构", "管理", "经历", "项目", "负责",
               "参与", "大学", "本科", "硕士", "博士")
MIN_KEYWORDS, MIN_KEYWORDS_WITH_LENGTH, MIN_LENGTH = 6, 4, 50
# English keywords must start a word ("work" in "network" is not about work); Chinese ones are substrings.
_EN_PATTERNS = {kw: re.compile(rf"\b{re.escape(kw)}", re.IGNORECASE) for kw in KEYWORDS_EN}


def found_keywords(user_text: str) -> list[str]:
    text = user_text or ""
    return [kw for kw, pattern in _EN_PATTERNS.items() if pattern.search(text)] + \
        [kw for kw in KEYWORDS_ZH if kw in text]


def keyword_sufficiency(user_text: str) -> tuple[bool, list[str]]:
    """At least 6 keywords, or at least 4 and 50 characters, across everything the client said."""
    keywords = found_keywords(user_text)
    enough = len(keywords) >= MIN_KEYWORDS or (len(keywords) >= MIN_KEYWORDS_WITH_LENGTH
                                               and len(user_text or "") >= MIN_LENGTH)
    return enough, keywords


def keyword_judgement(user_text: str, missing_fields: list[str]) -> SufficiencyJudgement:
    """The offline engine's judgement: the keyword rule alone, as the seed's single-turn guide decides."""
    enough, keywords = keyword_sufficiency(user_text)
    return SufficiencyJudgement(
        is_sufficient=enough, missing_fields=[] if enough else list(missing_fields),
        reason=f"{len(keywords)} keywords ({', '.join(keywords[:10]) or 'none'}), {len(user_text or '')} characters")
