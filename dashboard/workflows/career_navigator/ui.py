"""CareerNavigator's dashboard hooks: the generic studio page, plus the Satisfaction tab of the Metrics page."""

from dashboard.studio.plugins import MetricsTab, WorkflowUI
from dashboard.workflows.career_navigator.metrics import render_satisfaction_tab

UI = WorkflowUI(metrics_tabs=(MetricsTab("Satisfaction", render_satisfaction_tab),))
