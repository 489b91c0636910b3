"""Deep research (seed 004): plan, review, delegate and report with checked citations, over your own documents."""

from pipelines.deep_research.spec import SPEC

__all__ = ["SPEC"]
