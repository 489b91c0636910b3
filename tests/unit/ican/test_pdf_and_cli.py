"""The iCan PDF (pypdf reads back the Chinese report and the Holland code) and the headless CLI run."""

import io
import json

from pypdf import PdfReader

from pipelines.cli import main
from pipelines.ican.pdf_report import ican_pdf
from tests.support.driving import run_with_answers
from tests.unit.ican.conftest import ican_scenario


def pdf_text(data: bytes) -> tuple[str, int]:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages), len(reader.pages)


def test_the_chinese_pdf_carries_the_report_code_radar_and_page_numbers(start_ican):
    session = start_ican("zh_teacher_to_design")
    run_with_answers(session, ican_scenario("zh_teacher_to_design")["answers"])
    state = session.values()
    data = ican_pdf(state, date="2026-11-21")
    assert data.startswith(b"%PDF")
    text, pages = pdf_text(data)
    compact = text.replace(" ", "").replace("\n", "")
    assert state["holland_code"] in text
    assert "iCan职业发展报告" in compact and "RIASEC兴趣雷达图" in compact
    assert "2026-11-21" in text and f"Page {pages} of {pages}" in text
    assert "发展建议" in compact and "下一步" in compact
    top = state["career_matches"][0]
    assert top["title_zh"].replace(" ", "") in compact
    assert "O*NET" in text
    assert "你提到的目标" in compact and "UI设计师" in compact  # the career she named, wherever it ranks


def test_a_pdf_before_the_analysis_says_it_is_incomplete(start_ican):
    session = start_ican("en_lab_to_data")
    session.run("end")
    text, _ = pdf_text(ican_pdf(session.values()))
    assert "has not finished" in text and "Conversation" in text


def test_cli_runs_a_session_headless_with_trace_and_pdf(tmp_path, capsys):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(ican_scenario("zh_teacher_to_design")["answers"], ensure_ascii=False), encoding="utf-8")
    trace, pdf = tmp_path / "trace.json", tmp_path / "out" / "report.pdf"
    code = main(["run", "ican", "--scenario", "zh_teacher_to_design", "--answers", str(answers), "--trace", str(trace),
                 "--pdf", str(pdf), "--data-dir", str(tmp_path / "data")])
    assert code == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["status"] == "completed"
    final = json.loads(trace.read_text(encoding="utf-8"))["final_state"]
    assert {"riasec_scores", "holland_code", "career_matches", "final_report"} <= set(final)
    assert final["final_report"].startswith("# iCan 职业发展报告")
    text, _ = pdf_text(pdf.read_bytes())
    assert final["holland_code"] in text


def test_cli_input_file_with_a_first_message(tmp_path, capsys):
    source = tmp_path / "in.json"
    source.write_text(json.dumps({"raw_input": "I'm a carpenter with 12 years in the trade; I love building "
                                               "furniture and want to teach woodworking."}), encoding="utf-8")
    assert main(["run", "ican", "--input", str(source), "--data-dir", str(tmp_path / "d")]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["status"] in ("interrupted", "completed")


def test_cli_rejects_pdf_for_a_workflow_without_one(tmp_path, capsys):
    code = main(["run", "career_navigator", "--scenario", "clear_goal", "--pdf", str(tmp_path / "x.pdf"),
                 "--data-dir", str(tmp_path / "d")])
    assert code == 1 and "has no PDF report" in capsys.readouterr().err


def test_a_headless_run_whose_resume_file_cannot_be_used_stops_with_the_reason(tmp_path, capsys):
    not_a_resume = tmp_path / "shopping.txt"
    not_a_resume.write_text("eggs\nmilk\nbread\n", encoding="utf-8")
    unreadable = tmp_path / "locked.pdf"
    unreadable.write_bytes(b"%PDF-1.4 broken")
    for path, reason in [(tmp_path / "missing.pdf", "missing.pdf: no such file"),
                         (not_a_resume, "shopping.txt does not look like a resume"),
                         (unreadable, "locked.pdf")]:
        source = tmp_path / "in.json"
        source.write_text(json.dumps({"raw_input": "I want to change careers", "resume_file": str(path)}))
        code = main(["run", "ican", "--input", str(source), "--data-dir", str(tmp_path / "d")])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 1 and len(err) == 1, err
        assert err[0].startswith("error: invalid iCan career guidance input: the resume was not used: ") and reason in err[0]
        assert "goes on without" not in err[0]
    from pipelines.core.storage.runstore import RunStore
    assert RunStore(f"sqlite:///{tmp_path}/d/stepwise.sqlite").list_threads() == []  # nothing was started
