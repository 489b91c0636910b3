"""The career matcher over O*NET 30.2: data loaded, interest fit, skill overlap, Chinese titles."""

from pipelines.ican.occupations import client_skills, interest_fit, match_careers, occupations

INVESTIGATIVE = {"R": 30, "I": 92, "A": 35, "S": 20, "E": 15, "C": 45}


def test_all_occupations_load_with_chinese_titles_and_skills():
    occs = occupations()
    assert len(occs) == 923
    assert all(o.title_zh for o in occs)
    assert sum(1 for o in occs if o.skills) / len(occs) >= 0.85


def test_interest_fit_compares_shape_not_level():
    assert interest_fit([10, 80, 10, 10, 10, 10], [1, 7, 1, 1, 1, 1]) > 0.99
    assert interest_fit([10, 80, 10, 10, 10, 10], [1, 1, 1, 1, 7, 1]) < 0
    assert interest_fit([50] * 6, [1, 7, 1, 1, 1, 1]) == 0.0


def test_an_investigative_profile_matches_mostly_investigative_occupations():
    matches = match_careers(INVESTIGATIVE, [], "en")
    assert len(matches) == 10
    assert sum(m.high_point_code.startswith("I") for m in matches) >= 8
    assert matches == sorted(matches, key=lambda m: -m.score)
    assert all(m.reason and 0 <= m.score <= 1 for m in matches)


def test_shared_skills_lift_an_occupation():
    plain = match_careers(INVESTIGATIVE, [], "en", limit=923)
    skills = client_skills("I write Python and SQL and do statistics and data analysis every day.")
    lifted = match_careers(INVESTIGATIVE, skills, "en", limit=923)
    rank = lambda ms, title: next(i for i, m in enumerate(ms) if m.title == title)  # noqa: E731
    assert rank(lifted, "Data Scientists") < rank(plain, "Data Scientists")
    top = next(m for m in lifted if m.title == "Data Scientists")
    assert top.skill_overlap and "uses your skills" in top.reason


def test_chinese_sessions_get_chinese_titles_and_reasons():
    matches = match_careers(INVESTIGATIVE, client_skills("我会写代码，做数据分析"), "zh")
    assert all(m.title_zh for m in matches)
    assert "兴趣契合度" in matches[0].reason
    assert match_careers(INVESTIGATIVE, [], "en")[0].title_zh is None


def test_a_named_target_is_favoured():
    base = match_careers({"R": 20, "I": 40, "A": 85, "S": 30, "E": 40, "C": 20}, [], "en", limit=923)
    aimed = match_careers({"R": 20, "I": 40, "A": 85, "S": 30, "E": 40, "C": 20}, [], "en",
                          target="graphic designer", limit=923)
    rank = lambda ms: next(i for i, m in enumerate(ms) if m.title == "Graphic Designers")  # noqa: E731
    assert rank(aimed) < rank(base)


def test_the_named_target_is_ranked_even_far_from_the_top():
    from pipelines.ican.occupations import career_matches
    profile = {"R": 0, "I": 0, "A": 94, "S": 49, "E": 0, "C": 0}
    top, found = career_matches(profile, [], "zh", "UI设计师")
    assert top == match_careers(profile, [], "zh", "UI设计师")
    assert found["title"] == "Web and Digital Interface Designers" and found["title_zh"] == "UI设计师"
    assert found["rank"] > 10 and found["of"] == 923
    assert career_matches(profile, [], "zh", "")[1] is None and career_matches(profile, [], "zh", "宇航员之王")[1] is None
