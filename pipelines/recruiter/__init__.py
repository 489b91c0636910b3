"""Open Recruiter (seed 002): the router, the guarded chat graph and the recruiting data."""

from pipelines.recruiter.spec import SPEC

__all__ = ["SPEC"]
