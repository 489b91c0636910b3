"""Degrees as clients write them, in English and Chinese, reach the guide, the resume parser and the profile."""

import pytest

from pipelines.ican.education import degree_in, field_after_degree
from pipelines.ican.offline import extract_basic_info
from pipelines.ican.resume import profile_from


@pytest.mark.parametrize("text,degree", [
    ("I have a B.Sc. in Biology", "Bachelor's"), ("BSc (Hons) Physics", "Bachelor's"),
    ("B.S. in Nursing", "Bachelor's"),
    ("a BA in History", "Bachelor's"), ("B.A. English", "Bachelor's"), ("BEng, 2015", "Bachelor's"),
    ("my bachelor's degree", "Bachelor's"), ("an undergraduate degree in law", "Bachelor's"),
    ("M.Sc. in Data Science", "Master's"), ("MSc Finance", "Master's"), ("MA in English", "Master's"),
    ("an MBA from INSEAD", "Master's"), ("MEng in Civil Engineering", "Master's"), ("M.S. in CS", "Master's"),
    ("master of arts", "Master's"), ("PhD in chemistry", "PhD"), ("Ph.D. candidate", "PhD"), ("DPhil at Oxford", "PhD"),
    ("a doctorate in education", "PhD"), ("an associate degree in nursing", "Associate"),
    ("high school diploma", "High school"), ("I finished secondary school", "High school"),
    ("我本科学的是生物", "Bachelor's"), ("学士学位", "Bachelor's"), ("硕士毕业", "Master's"), ("研究生学历", "Master's"),
    ("博士在读", "PhD"), ("大专学历", "Associate"), ("专科毕业", "Associate"), ("高中毕业", "High school"),
    ("中专毕业", "High school"), ("本科毕业后读了硕士", "Master's"), ("BSc in 2012, then an MSc", "Master's"),
])
def test_degrees_are_recognised_in_both_languages(text, degree):
    assert degree_in(text) == degree


@pytest.mark.parametrize("text", [
    "I want to master Python", "I use MS Office every day", "I almost went to med school", "ma and pa shop",
    "I am a high school teacher", "我是高中老师", "I like basketball and BASIC programming",
])
def test_words_that_only_look_like_degrees_are_not_degrees(text):
    assert degree_in(text) is None


@pytest.mark.parametrize("text,field", [
    ("I have a B.Sc. in Biology.", "Biology"), ("BSc (Hons) in Physics, 2019", "Physics"),
    ("Bachelor of Science in Chemistry, Lakeside University", "Chemistry"),
    ("I got my M.Sc. in Data Science at UCL", "Data Science"), ("I have a bachelor's in nursing.", "nursing"),
    ("MSc Statistics, University of Leeds, 2016", "Statistics"), ("MA English Literature — King's College",
                                                                   "English Literature"),
    ("MBA, 2010", None), ("PhD Candidate, MIT", None), ("MS Office skills", None),
])
def test_the_field_after_a_degree(text, field):
    assert field_after_degree(text) == field


def test_the_guide_knows_the_education_of_a_client_who_wrote_an_abbreviation():
    info = extract_basic_info("I'm a lab technician. I have a B.Sc. in Biology and 4 years in the lab.", "en")
    assert info.education == "Bachelor's" and info.major == "Biology"
    assert extract_basic_info("我是研究生学历，学的是计算机专业。", "zh").education == "Master's"


def test_the_resume_parser_reads_abbreviated_degrees():
    resume = "Ana Li\nEducation\nMSc Data Science, City University, 2019\nBSc (Hons) in Mathematics, 2017\n" \
             "Experience\nAnalyst at Acme 2019 - present"
    profile = profile_from(resume, "", {}, "en")
    assert [e.degree for e in profile.education] == ["Master's", "Bachelor's"]
    assert profile.education[1].field == "Mathematics" and profile.education[0].field == "Data Science"
    assert [e.title for e in profile.experience] == ["Analyst"]  # the degree lines are not jobs


def test_a_session_does_not_ask_for_education_a_client_gave_as_an_abbreviation(start_ican):
    session = start_ican(raw_input="Hi, I'm a lab technician and I feel stuck.")
    session.run("end")
    session.resume("I have a B.Sc. in Biology and I've worked in the lab for 4 years.")
    session.run("end")
    state = session.values()
    assert state["collected_info"]["education"] == "Bachelor's" and state["collected_info"]["major"] == "Biology"
    assert "education" not in state["missing_fields"]
    asked = [t["content"] for t in state["conversation_history"] if t["role"] == "assistant"]
    assert not any("highest degree" in question for question in asked[-1:])
