"""Stepwise pipelines: the runtime (core) and one package per workflow; nothing here imports streamlit."""
