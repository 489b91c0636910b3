"""What a run leaves behind: step records and diffs, the evolution matrix, export, compare, metrics, LangSmith."""
