"""The candidate matcher as a recruiter sees it: the right people first, missing skills named, filters explained,
keyword stuffing not rewarded, single-signal baselines, stored vectors re-used, Chinese reasons."""

from __future__ import annotations

import pytest

from pipelines.core.knowledge.store import OfflineEmbedding, open_knowledge
from pipelines.core.settings import load_settings
from pipelines.recruiter.matching import COLLECTION, CandidateIndex
from pipelines.recruiter.records import Candidate, Job

JAVA_JOB = Job("J1", "Senior Java Backend Engineer",
               "Build and run Java services with Spring Boot and Kafka for our payments platform; model data in "
               "PostgreSQL. You will own microservices in production and mentor other engineers.",
               "Berlin", ("Java", "Spring Boot", "Kafka", "PostgreSQL"), 5)
GO_JOB = Job("J2", "高级 Go 后端开发工程师",
             "负责电商交易系统的后端开发，使用 Go 语言开发高并发微服务，设计 MySQL 表结构，使用 Redis 做缓存。",
             "杭州", ("Golang", "微服务", "MySQL", "Redis"), 3)

JAVA_RESUME = ("{name}\nBackend Engineer\n\nExperience\n2017 - present  Backend Engineer, Paylane\n"
               "- Built Java services on Spring Boot that publish payment events to Kafka\n"
               "- Designed the PostgreSQL schema for settlements and tuned slow queries\n"
               "2015 - 2017  Software Developer, Shopware\n- Java and Spring web services\n\n"
               "Skills: Java, Spring Boot, Kafka, PostgreSQL\nEducation: BSc Computer Science, 2015{extra}")


def java_dev(cid: str, name: str, years: float | None = 8, location: str | None = "Berlin", extra: str = "") -> Candidate:
    return Candidate(cid, name, JAVA_RESUME.format(name=name, extra=extra), f"{cid.lower()}@example.com",
                     skills=("Java", "Spring Boot", "Kafka", "PostgreSQL"), years_experience=years, location=location)


PEOPLE = [
    java_dev("C1", "Anna Schmidt"),
    Candidate("C2", "Ben Okoro", "Ben Okoro\nFrontend Developer\n\nExperience\n2018 - present  Frontend Developer, Pixelhaus\n"
              "- React and TypeScript single-page apps, CSS design system\n\nSkills: React, TypeScript, CSS",
              skills=("React", "TypeScript", "CSS"), years_experience=7, location="Berlin"),
    Candidate("C3", "Clara Diaz", "Clara Diaz\nData Scientist\n\nExperience\n2019 - present  Data Scientist, Insight\n"
              "- Python, pandas and scikit-learn models for churn\n\nSkills: Python, SQL, machine learning",
              skills=("Python", "SQL"), years_experience=6, location="Berlin"),
    Candidate("C4", "Dora Nagy", "Dora Nagy\nRegistered Nurse\n\nExperience\n2014 - present  Staff Nurse, Charité Berlin\n"
              "- Patient care on a surgical ward, BLS certified", years_experience=11, location="Berlin"),
    Candidate("C5", "Erik Lund", "Erik Lund\nBackend Developer\n\nExperience\n2016 - present  Backend Developer, Kontor\n"
              "- Java and Spring Boot services, MySQL, REST APIs\n\nSkills: Java, Spring Boot, MySQL",
              skills=("Java", "Spring Boot", "MySQL"), years_experience=9, location="Berlin"),
    Candidate("C6", "陈浩", "陈浩　Go 后端开发　杭州\n\n工作经历\n2019.07 – 至今　杭州某电商公司　高级 Go 开发工程师\n"
              "· 使用 Golang 开发订单微服务，gRPC 通信，MySQL 分库分表，Redis 缓存\n\n技能：Golang、微服务、MySQL、Redis",
              skills=("Golang", "微服务", "MySQL", "Redis"), years_experience=6, location="杭州"),
    Candidate("C7", "王芳", "王芳　产品经理　杭州\n\n工作经历\n2018.03 – 至今　杭州某 SaaS 公司　产品经理\n"
              "· 负责需求分析、产品规划和用户研究", years_experience=7, location="杭州"),
    Candidate("C8", "李强", "李强　Java 开发工程师　杭州\n\n工作经历\n2018.03 – 至今　杭州某物流公司　Java 开发\n"
              "· 使用 Java、Spring Boot 开发运单系统，MySQL、Redis", skills=("Java", "MySQL", "Redis"),
              years_experience=7, location="杭州"),
]


@pytest.fixture(scope="module")
def index() -> CandidateIndex:
    return CandidateIndex(PEOPLE)


def ids(matches) -> list[str]:
    return [m.candidate_id for m in matches]


def test_the_java_developer_ranks_first_for_the_english_job(index):
    matches = index.rank(JAVA_JOB, top=len(PEOPLE))
    assert ids(matches)[0] == "C1"
    best = matches[0]
    assert best.passes_filters and best.missing_skills == ()
    assert set(best.matched_skills) == {"Java", "Spring Boot", "Kafka", "PostgreSQL"}
    assert set(best.parts) == {"bm25", "skills", "embedding", "filter"} and best.parts["filter"] == 1.0
    assert all(0.0 <= value <= 1.0 for value in best.parts.values())
    assert 1 <= len(best.reasons) <= 3 and "4 required skills" in best.reasons[0]
    assert [m.score for m in matches] == sorted((m.score for m in matches), reverse=True)
    assert ids(matches).index("C5") < ids(matches).index("C4")  # a Java developer before the nurse


def test_the_go_developer_ranks_first_for_the_chinese_job(index):
    matches = index.rank(GO_JOB, top=4)
    assert ids(matches)[:2] == ["C6", "C8"]
    assert matches[0].missing_skills == ()


def test_missing_required_skills_are_listed(index):
    match = index.explain(JAVA_JOB, "C5")
    assert set(match.missing_skills) == {"Kafka", "PostgreSQL"}
    assert set(match.matched_skills) == {"Java", "Spring Boot"}
    assert "2 of 4 required skills" in match.reasons[0]


def test_too_little_experience_is_noted_and_ranks_below_an_equal_candidate():
    index = CandidateIndex([java_dev("A", "Senior Sam", years=8), java_dev("B", "Junior Jo", years=2)])
    first, second = index.rank(JAVA_JOB)
    assert (first.candidate_id, second.candidate_id) == ("A", "B")
    assert first.passes_filters and not second.passes_filters
    assert second.parts["filter"] < 1.0 and second.score < first.score
    assert second.filter_notes == ("Below the minimum experience: 2 years, the job asks 5",)


def test_another_city_is_noted_and_ranks_below_an_equal_candidate_unless_they_would_relocate():
    index = CandidateIndex([java_dev("M", "Max Maier", location="Munich"), java_dev("B", "Bea Berg", location="柏林"),
                            java_dev("R", "Rita Roth", location="München", extra="\nOpen to relocation.")])
    matches = {m.candidate_id: m for m in index.rank(JAVA_JOB)}
    assert ids(index.rank(JAVA_JOB))[-1] == "M"
    assert not matches["M"].passes_filters
    assert matches["M"].filter_notes == ("Based in Munich; the job is in Berlin",)
    assert matches["B"].passes_filters and matches["B"].filter_notes == ()  # 柏林 is Berlin
    assert matches["R"].passes_filters and "open to working in Berlin" in matches["R"].reasons[-1]
    assert all(not set(m.reasons) & set(m.filter_notes) for m in matches.values())  # a note is not said twice
    unfiltered = {m.candidate_id: m for m in index.rank(JAVA_JOB, filters=False)}
    assert unfiltered["M"].score > matches["M"].score and unfiltered["M"].filter_notes == matches["M"].filter_notes


def test_unknown_years_and_remote_jobs_do_not_fail_the_filters():
    undated = Candidate("U", "Una", "Una\nJava developer: Spring Boot, Kafka, PostgreSQL.", skills=("Java",))
    dated = java_dev("D", "Dan", years=None, location=None)
    index = CandidateIndex([undated, dated])
    remote = Job("R", "Java Engineer", "Java and Spring Boot services.", "Remote", ("Java",), 5)
    by_id = {m.candidate_id: m for m in index.rank(remote)}
    assert by_id["U"].passes_filters and "Years of experience unknown" in by_id["U"].filter_notes
    assert "Remote role: any location" in by_id["U"].reasons
    assert by_id["D"].passes_filters and by_id["D"].reasons[1].startswith(("10", "11", "12"))  # 2015 - present


def test_a_keyword_stuffed_resume_does_not_top_the_list():
    stuffer = Candidate("S", "Sly Stone", "Sly Stone\nFull Stack / Cloud / AI Engineer\n\nPassionate about Java, Spring Boot, "
                        "Kafka, PostgreSQL, Kubernetes, React, TypeScript, AWS, Terraform, machine learning, Docker, Go.\n\n"
                        "Experience\n2016 - present  IT Support Technician, Officeworks\n- Set up laptops, reset passwords\n\n"
                        "Keywords: Java, Spring Boot, Kafka, PostgreSQL, Microservices, Kubernetes, React, AWS",
                        skills=("Java", "Spring Boot", "Kafka", "PostgreSQL", "Kubernetes", "React", "AWS", "Docker"),
                        years_experience=9, location="Berlin")
    index = CandidateIndex([stuffer, *PEOPLE])
    ranked = index.rank(JAVA_JOB)
    assert ids(ranked)[0] == "C1"
    assert ids(ranked).index("S") > ids(ranked).index("C1")
    stuffed = index.explain(JAVA_JOB, "S")
    assert stuffed.parts["skills"] < index.explain(JAVA_JOB, "C1").parts["skills"] / 2
    assert "listed, not in work experience" in stuffed.reasons[0]


def test_parts_give_single_signal_rankings(index):
    for part in ("bm25", "embedding", "skills"):
        matches = index.rank(JAVA_JOB, top=len(PEOPLE), parts=(part,))
        assert all(set(m.parts) == {part, "filter"} for m in matches)
        expected = sorted(matches, key=lambda m: -m.parts[part] * m.parts["filter"])
        assert [round(m.score, 3) for m in matches] == [round(m.parts[part] * m.parts["filter"], 3) for m in expected]
    assert index.rank(JAVA_JOB, parts=("bm25",))[0].parts["bm25"] == 1.0  # normalised to the best candidate
    with pytest.raises(ValueError, match="unknown match parts"):
        index.rank(JAVA_JOB, parts=("vibes",))


def test_explain_gives_the_same_match_as_rank(index):
    for job in (JAVA_JOB, GO_JOB):
        for lang in ("en", "zh"):
            for match in index.rank(job, top=len(PEOPLE), lang=lang):
                assert index.explain(job, match.candidate_id, lang=lang) == match
    assert index.explain(JAVA_JOB, "nobody") is None


def test_reasons_are_in_chinese_when_asked(index):
    match = index.explain(GO_JOB, "C8", lang="zh")
    assert match.reasons[0] == "具备 4 项必备技能中的 2 项：MySQL、Redis"
    assert match.missing_skills == ("Go语言", "微服务")
    assert "年工作经验" in match.reasons[1] and match.reasons[2] == "现居杭州"
    far = CandidateIndex([java_dev("M", "Max", location="Munich")]).explain(JAVA_JOB, "M", lang="zh")
    assert far.filter_notes == ("现居慕尼黑，岗位在柏林",)


def test_an_empty_index_or_no_room_returns_nothing(index):
    assert CandidateIndex([]).rank(JAVA_JOB) == []
    assert CandidateIndex([]).explain(JAVA_JOB, "C1") is None
    assert index.rank(JAVA_JOB, top=0) == []


def test_building_does_not_change_the_inputs():
    people = list(PEOPLE)
    CandidateIndex(people).rank(JAVA_JOB)
    assert people == PEOPLE


class CountingEmbedding(OfflineEmbedding):
    """The offline embedding, counting the texts it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.texts = 0

    def embed(self, texts):
        self.texts += len(texts)
        return super().embed(texts)


def test_a_chroma_backed_index_reuses_stored_vectors(tmp_path):
    embedder = CountingEmbedding()
    knowledge = open_knowledge(load_settings(data_dir=str(tmp_path)), embedder=embedder)
    try:
        first = CandidateIndex(PEOPLE, knowledge=knowledge)
        assert embedder.texts == len(PEOPLE) and knowledge.count(COLLECTION) == len(PEOPLE)
        second = CandidateIndex(PEOPLE, knowledge=knowledge)
        assert embedder.texts == len(PEOPLE)  # nothing embedded again
        assert second.rank(JAVA_JOB) == first.rank(JAVA_JOB) == CandidateIndex(PEOPLE).rank(JAVA_JOB)
        changed = [java_dev("C1", "Anna Schmidt", extra="\nAlso: Kubernetes."), *PEOPLE[1:]]
        before = embedder.texts
        CandidateIndex(changed, knowledge=knowledge)
        assert embedder.texts == before + 1  # only the changed resume
        assert knowledge.count(COLLECTION) == len(PEOPLE)
    finally:
        knowledge.close()
