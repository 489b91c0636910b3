"""Stepwise dashboard: a multipage Streamlit studio over the pipelines runtime."""
