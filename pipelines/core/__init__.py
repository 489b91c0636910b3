"""The Stepwise runtime shared by all workflows: registry, sessions, traces, models, checkpoints, settings."""
