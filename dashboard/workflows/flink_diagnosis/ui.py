"""The Flink diagnosis's dashboard hooks: two studio tabs, the queue, results and knowledge pages, a Metrics tab."""

from pathlib import Path

from dashboard.studio.plugins import MetricsTab, WorkflowPage, WorkflowUI
from dashboard.workflows.flink_diagnosis.metrics import render_flink_tab
from dashboard.workflows.flink_diagnosis.views import render_context_tab, render_diagnosis_tab

PAGES = Path(__file__).parent / "pages"

UI = WorkflowUI(
    extra_tabs={"Diagnosis": render_diagnosis_tab, "Retrieved context": render_context_tab},
    section="Flink",
    pages=(WorkflowPage(PAGES / "queue.py", "Exception queue", ":material/inbox:", "flink_queue"),
           WorkflowPage(PAGES / "results.py", "Diagnosis results", ":material/bar_chart:", "flink_results"),
           WorkflowPage(PAGES / "knowledge.py", "Knowledge base", ":material/menu_book:", "knowledge")),
    metrics_tabs=(MetricsTab("Flink diagnoses", render_flink_tab),),
)
