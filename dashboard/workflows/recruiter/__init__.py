"""Open Recruiter's own dashboard pages: the recruiting data (jobs, candidates, pipeline, guardrail log, import)."""
