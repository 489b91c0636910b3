"""The studio every workflow shares: the workflow page and its tabs, runs, compare, metrics widgets."""
