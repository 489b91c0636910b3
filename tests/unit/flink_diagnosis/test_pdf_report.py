"""The Flink diagnosis PDF, built from store-shaped rows and read back with pypdf."""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta

from pypdf import PdfReader

from pipelines.flink_diagnosis.categories import CATEGORIES, label
from pipelines.flink_diagnosis.pdf_report import MAX_SECTIONS, diagnosis_pdf

CATEGORY_IDS = list(CATEGORIES)
STACK = ("org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing.\n"
         "\tat org.apache.flink.runtime.checkpoint.CheckpointCoordinator.<init>(CheckpointCoordinator.java:2143)\n"
         "\tat org.apache.flink.runtime.checkpoint.CheckpointCoordinator$Canceller.run(Coordinator.java:2128)\n"
         "Caused by: java.util.concurrent.TimeoutException: <NUM> ms & counting")


def make_row(i: int, status: str = "completed", diagnosed: bool | None = None) -> dict:
    now = datetime(2025, 3, 1, 12, 0) + timedelta(minutes=i)
    diagnosed = status == "completed" if diagnosed is None else diagnosed
    category = CATEGORY_IDS[i % len(CATEGORY_IDS)] if i % 7 else "unknown"
    diagnosis = {"root_cause": f"Root cause {i}: checkpoint barriers are held up by backpressure",
                 "detailed_analysis": f"Analysis {i}. The sink is slow.\n\n- bullet one\n- bullet **two**",
                 "suggested_fix": "Raise `execution.checkpointing.timeout` and enable unaligned checkpoints.",
                 "priority": ("high", "medium", "low")[i % 3], "confidence": (i % 10) / 10 + 0.05,
                 "related_docs": [f"https://nightlies.apache.org/flink/doc-{i}.html"], "category": category}
    return {"id": i, "job_id": f"job-{i:04d}", "job_name": f"orders-etl-{i}" if i % 4 else None,
            "error_type": "CheckpointException", "error_message": STACK, "job_config": {"parallelism": 4},
            "status": status, "diagnosis": diagnosis if diagnosed else None,
            "error": "model timed out after 3 retries" if status == "failed" else None, "attempts": 1,
            "claimed_by": None, "claimed_at": None, "created_at": now, "updated_at": now}


def read(pdf: bytes) -> tuple[PdfReader, str]:
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_one_exception_report_has_the_diagnosis_and_its_category_label():
    row = make_row(1)
    row["diagnosis"]["root_cause"] = "检查点超时，作业重启: barriers are stuck behind a slow sink"
    row["job_config"] = {"parallelism": 4, "properties.sasl.password": "hunter2"}
    reader, text = read(diagnosis_pdf([row], date="2025-03-01"))
    assert "检查点超时，作业重启" in text
    assert label(row["diagnosis"]["category"]) in text
    for part in ("Exception #1", "orders-etl-1", "Root cause", "Suggested fix", "execution.checkpointing.timeout",
                 "doc-1.html", "CheckpointCoordinator.<init>", "<NUM> ms & counting", "Related documentation"):
        assert part in flat(text), part
    assert "hunter2" not in text
    assert f"Page 1 of {len(reader.pages)}" in text


def test_one_exception_keeps_the_first_sixty_lines_of_its_message():
    row = make_row(2)
    row["error_message"] = "\n".join(f"\tat frame.number{n}(X.java:{n})" for n in range(200))
    _, text = read(diagnosis_pdf([row]))
    assert "frame.number59" in text and "frame.number60(" not in text
    assert "140 more lines" in text


def test_a_batch_has_a_summary_a_table_and_a_section_per_diagnosis():
    rows = [make_row(i, status) for i, status in zip(range(30), ["completed"] * 24 + ["failed"] * 3 + ["pending"] * 3)]
    reader, text = read(diagnosis_pdf(rows, filters={"status": ["completed", "failed"], "search": "checkpoint"},
                                      date="2025-03-01"))
    text = flat(text)
    for part in ("30 exceptions", "Summary", "completed, failed", "checkpoint", "Diagnoses by category",
                 "Confidence of the diagnoses", "Exceptions", "Diagnoses", "Diagnosis failed",
                 "model timed out after 3 retries"):
        assert part in text, part
    assert text.count("Root cause ") >= 24  # each completed section has its own root cause
    for i in range(27):
        assert f"#{i} · " in text
    assert "#28 · " not in text  # pending rows are listed in the table but have no section
    assert len(reader.pages) >= 4
    assert f"Page {len(reader.pages)} of {len(reader.pages)}" in text


def test_rows_without_a_diagnosis_or_with_odd_values_still_build():
    rows = [make_row(1, "pending"), make_row(2, "in_progress"), make_row(3, "failed"),
            {**make_row(4), "diagnosis": {"root_cause": "only this", "confidence": None, "category": None}},
            {**make_row(5), "diagnosis": '{"root_cause": "from a JSON string", "priority": "low"}'},
            {"exception_id": 6, "job_id": "job-6", "error_message": "x" * 5000, "status": "completed",
             "diagnosis": None}]
    _, text = read(diagnosis_pdf(rows))
    assert "only this" in text and "from a JSON string" in text and "#6 · job-6" in flat(text)
    _, single = read(diagnosis_pdf([make_row(7, "pending")]))
    assert "Not diagnosed yet (status: pending)" in single


def test_no_rows_make_a_short_report():
    reader, text = read(diagnosis_pdf([], filters={"status": "failed"}))
    assert "No exception matches these filters." in text and len(reader.pages) == 1


def test_sections_are_capped():
    rows = [make_row(i) for i in range(MAX_SECTIONS + 5)]
    _, text = read(diagnosis_pdf(rows))
    assert f"The first {MAX_SECTIONS} of {MAX_SECTIONS + 5}" in flat(text)
    assert f"#{MAX_SECTIONS - 1} · " in text and f"#{MAX_SECTIONS + 1} · " not in text


def test_markup_in_a_users_or_a_models_text_is_printed_not_interpreted():
    hostile = '<a href="http://evil.example">click</a> <img src="x.png"/> <b>bold</b> ![x](http://evil.example/p.png)'
    row = make_row(3)
    row["job_name"], row["error_message"] = hostile, f"java.lang.OutOfMemoryError: {hostile}"
    row["diagnosis"].update(root_cause=hostile, suggested_fix=f"1. {hostile}", related_docs=[hostile, hostile])
    for pdf in (diagnosis_pdf([row]), diagnosis_pdf([row, make_row(4)], filters={"category": hostile})):
        reader, text = read(pdf)
        assert '<a href="http://evil.example">click</a>' in flat(text)
        assert not any("/Annots" in page for page in reader.pages)  # no link reached the PDF
