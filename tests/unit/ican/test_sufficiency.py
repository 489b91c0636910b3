"""The single-turn guide's sufficiency rule: six keywords, or four and 50 characters, in English and Chinese."""

from pipelines.ican.sufficiency import keyword_judgement, keyword_sufficiency


def test_six_keywords_are_enough_even_when_short():
    enough, found = keyword_sufficiency("PhD, data engineer, 5 years, skill: design, industry")
    assert enough and len(found) >= 6


def test_four_keywords_need_fifty_characters():
    short = "engineer, 3 years, data, project"
    assert not keyword_sufficiency(short)[0]
    assert keyword_sufficiency(short + " — and I would like a calmer place to grow in.")[0]


def test_chinese_keywords_count():
    enough, found = keyword_sufficiency("我本科毕业，在互联网公司做了三年产品经理，负责数据分析项目，想换个发展方向。")
    assert enough and {"本科", "公司", "产品", "经理", "负责", "数据", "项目", "方向"} <= set(found)


def test_words_inside_other_words_do_not_count():
    assert keyword_sufficiency("network homework artwork")[1] == []


def test_vague_messages_are_not_enough():
    judgement = keyword_judgement("我想找点方向。\n不太清楚。", ["education", "skills"])
    assert not judgement.is_sufficient and judgement.missing_fields == ["education", "skills"]
    assert "characters" in judgement.reason
