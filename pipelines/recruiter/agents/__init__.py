"""The Open Recruiter's specialist agents (seed §5): each a compiled subgraph with its own input, working and output
state, which the planner dispatches."""
