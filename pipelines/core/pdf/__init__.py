"""PDF output: the ReportLab document builder, its Markdown and text handling, charts, and the run-trace report."""
