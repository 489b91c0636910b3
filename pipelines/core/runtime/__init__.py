"""The stepping runtime: the studio, sessions stepped one super-step at a time, time travel, state edits,
branches, background runs."""
