"""Importing jobs and candidates: bad rows named by line, good rows in, a re-import updates, resume files read."""

from __future__ import annotations

import json

from pipelines.recruiter.importing import candidates_from_text, jobs_from_text
from pipelines.recruiter.store import RecruitingStore
from tests.support.resume_files import make_docx, make_pdf

RESUME = ("Experience\n2019 - 2024 Backend Engineer, Acme\nBuilt Java and Spring Boot services.\n"
          "Skills\nJava, Kafka, MySQL\nEducation\nBSc Computer Science, 2018")


def test_bad_job_rows_are_reported_by_line_and_the_good_ones_kept():
    text = "\n".join([
        json.dumps({"id": "J1", "title": "Backend engineer", "description": "Java services", "skills": ["Java"]}),
        "{not json",
        json.dumps({"id": "J2", "title": "", "description": "x"}),
        "",
        json.dumps({"id": "J3", "title": "Nurse", "description": "Ward care", "min_years": -1}),
        json.dumps(["a list"]),
        json.dumps({"id": "J4", "title": "数据工程师", "description": "负责数据仓库", "location": "上海", "min_years": 3}),
    ])
    report = jobs_from_text(text, "jobs.jsonl")
    assert [job.id for job in report.rows] == ["J1", "J4"]
    assert [e.split(":")[0] for e in report.errors] == ["line 2", "line 3", "line 5", "line 6"]
    assert "title" in report.errors[1] and "min_years" in report.errors[2]


def test_csv_rows_with_lists_and_blanks():
    text = ("id,name,email,resume_text,skills,years_experience,location\n"
            f"C1,Ana Li,ana@example.com,\"{RESUME}\",Java; Kafka,5,Berlin\n"
            "C2,Bo,not-an-email,text,,,\n"
            "C3,Cy,,,,,\n")
    report = candidates_from_text(text, "people.csv", None)
    assert [c.id for c in report.rows] == ["C1"]
    assert report.rows[0].skills == ("Java", "Kafka") and report.rows[0].years_experience == 5
    # the first row's quoted resume spans lines 2-8, so the bad rows are on lines 9 and 10
    assert report.errors == ["line 9: email: not an email address",
                             "line 10: a candidate needs resume_text or resume_file"]


def test_resume_files_go_through_the_shared_loaders(tmp_path):
    (tmp_path / "a.pdf").write_bytes(make_pdf(RESUME))
    (tmp_path / "b.docx").write_bytes(make_docx(RESUME))
    (tmp_path / "c.txt").write_text("just a note", encoding="utf-8")
    rows = [{"id": "P1", "name": "A", "resume_file": "a.pdf"}, {"id": "P2", "name": "B", "resume_file": "b.docx"},
            {"id": "P3", "name": "C", "resume_file": "c.txt"}, {"id": "P4", "name": "D", "resume_file": "gone.pdf"}]
    report = candidates_from_text("\n".join(json.dumps(r) for r in rows), "c.jsonl", tmp_path)
    assert [c.id for c in report.rows] == ["P1", "P2"]
    assert "Spring Boot" in report.rows[0].resume_text and report.rows[1].source_file == "b.docx"
    assert "line 3: c.txt does not look like a resume" in report.errors[0]
    assert report.errors[1] == "line 4: resume_file 'gone.pdf' not found"


def test_reimporting_an_id_updates_it(tmp_path):
    store = RecruitingStore(f"sqlite:///{tmp_path / 'app.sqlite'}")
    first = jobs_from_text(json.dumps({"id": "J1", "title": "Old", "description": "d"}), "a.jsonl")
    assert store.upsert_jobs(first.rows) == (1, 0)
    second = jobs_from_text(json.dumps({"id": "J1", "title": "New", "description": "d2", "skills": "Go|SQL"}), "b.jsonl")
    assert store.upsert_jobs(second.rows) == (0, 1)
    job = store.job("J1")
    assert job.title == "New" and job.skills == ("Go", "SQL") and store.counts()["jobs"] == 1


def test_an_address_the_masker_would_not_recognise_is_refused(tmp_path):
    from pipelines.recruiter.importing import candidates_from_text

    text = ('{"id": "P1", "name": "周婷", "email": ".@example.com", "resume_text": "Nurse"}\n'
            '{"id": "P2", "name": "Ana", "email": "ana.costa@example.com", "resume_text": "Nurse"}\n')
    report = candidates_from_text(text, "people.jsonl", tmp_path)
    assert [c.id for c in report.rows] == ["P2"]
    assert "line 1" in report.errors[0] and "not an email address" in report.errors[0]


def test_a_csv_cell_too_long_for_csv_is_named_in_plain_words(tmp_path):
    report = candidates_from_text("id,name,resume_text\nC1,Ann,Nurse\nC2,Bo," + "x" * 200_000 + "\n", "people.csv", tmp_path)
    assert [c.id for c in report.rows] == ["C1"]
    assert any("has a cell longer than 131,072 characters" in e for e in report.errors)
    assert not any("field limit" in e for e in report.errors)  # not the csv module's own words
