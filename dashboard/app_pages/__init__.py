"""Thin Streamlit pages; the work is in dashboard/components and pipelines/."""
