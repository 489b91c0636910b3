"""What the Flink pages, reports and exports say: confidence against the threshold, the engine's wording, run
titles, and the CSV a spreadsheet opens."""

import csv
import io
from datetime import datetime

from pipelines.cli import main
from pipelines.flink_diagnosis import SPEC
from pipelines.flink_diagnosis.display import confidence_text, exception_title, threshold_verdict
from pipelines.flink_diagnosis.offline import diagnose_offline
from pipelines.flink_diagnosis.report import build_report
from tests.unit.flink_diagnosis.conftest import flink_scenario


def test_a_confidence_just_below_the_threshold_never_reads_as_reaching_it():
    assert confidence_text(0.795) == "0.795" and confidence_text(0.7996) == "0.799"
    assert confidence_text(0.8) == "0.80" and confidence_text(0.85) == "0.85" and confidence_text(None) == "—"
    assert threshold_verdict(0.795, 0.8) == "confidence 0.795 is below the 0.80 threshold"
    assert threshold_verdict(0.8, 0.8) == "confidence 0.80 ≥ 0.80"
    report = build_report({"job_info": {"exception_id": 3, "job_id": "j", "error_message": "x"},
                           "diagnosis_result": {"category": "oom_heap", "priority": "high", "confidence": 0.795,
                                                "root_cause": "r", "detailed_analysis": "a", "suggested_fix": "f"}})
    assert "**Confidence:** 0.795" in report


def test_the_engine_names_the_exception_class_once_and_each_related_doc_once():
    docs = [{"title": "Troubleshooting (memory)", "url": "https://x/mem", "category": "oom_heap", "similarity": 0.6},
            {"title": "Troubleshooting (memory)", "url": "https://x/mem", "category": "oom_heap", "similarity": 0.5},
            {"title": "Set up TaskManager Memory", "url": "https://x/tm", "category": "oom_heap", "similarity": 0.4}]
    for message in ("java.lang.OutOfMemoryError", "java.lang.OutOfMemoryError: Java heap space",
                    "org.apache.flink.runtime.JobException: Recovery is suppressed\n"
                    "Caused by: java.lang.OutOfMemoryError: Java heap space\n\tat a.B.c(B.java:1)"):
        result = diagnose_offline({"error_message": message, "error_type": "java.lang.OutOfMemoryError"},
                                  {"docs": docs})
        text = f"{result.root_cause} {result.detailed_analysis}"
        assert "OutOfMemoryError: java.lang.OutOfMemoryError" not in text, text
        assert result.related_docs == ["Troubleshooting (memory) — https://x/mem",
                                       "Set up TaskManager Memory — https://x/tm"]


def test_runs_are_titled_after_their_exception_and_time():
    title = exception_title({"exception_id": 12, "job_name": "orders-etl", "error_message":
                             "2026-11-20 03:12:44,921 ERROR o.a.f.r.t.Task [] - org.apache.flink.runtime.JobException: "
                             "Recovery is suppressed\nCaused by: java.lang.OutOfMemoryError: Metaspace\n\tat x.Y(Y.java:1)"},
                            when=datetime(2026, 11, 20, 3, 13))
    assert title == "OutOfMemoryError: Metaspace · job orders-etl · #12 · 2026-11-20 03:13"
    scenario = SPEC.run_title(flink_scenario("checkpoint_expired"))
    assert scenario.startswith("CheckpointException: Checkpoint expired before completing. · job orders-enrichment · ")
    assert len(exception_title({"job_id": "j" * 128, "error_message": "E" * 5000})) <= 120
    assert SPEC.run_title({"exception_id": 4}) is None  # the studio's default title then


def test_the_csv_export_neutralises_formulas(tmp_path, capsys, flink_settings, store):
    exception_id = store.add_exception(job_id='=HYPERLINK("http://x","click")', job_name="@cmd",
                                       error_message="+1 java.lang.OutOfMemoryError: Java heap space")
    store.claim_by_id(exception_id, "w")
    store.complete(exception_id, {"root_cause": "-2+3", "detailed_analysis": "ok", "suggested_fix": "=1+1",
                                  "priority": "high", "confidence": 0.9, "category": "oom_heap",
                                  "related_docs": ["=A1", "docs"]}, worker_id="w")
    assert main(["flink", "results", "--format", "csv", "--data-dir", flink_settings.data_dir]) == 0
    [row] = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["job_id"] == '\'=HYPERLINK("http://x","click")' and row["job_name"] == "'@cmd"
    assert row["root_cause"] == "'-2+3" and row["suggested_fix"] == "'=1+1" and row["related_docs"] == "'=A1; docs"
    assert row["detailed_analysis"] == "ok" and row["confidence"] == "0.9"
