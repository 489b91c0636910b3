"""Reusable widgets of the Stepwise dashboard."""
