"""Metrics across runs: outcomes, loops, node latency, model usage and cost, one run's timeline, and each workflow's own tabs."""

import streamlit as st

from dashboard import services
from dashboard.studio.run_metrics_view import render_filters, render_headline, render_tabs
from pipelines.core.markup import escape_markdown
from pipelines.core.models.pricing import DEFAULT_PRICES, PricingError, load_prices
from pipelines.core.trace.run_metrics import filter_options, load_run_metrics

st.title("Metrics")
try:
    prices = load_prices()
except PricingError as exc:
    st.warning(escape_markdown(f"{exc}. The built-in prices are used instead."))
    prices = DEFAULT_PRICES
try:
    engine = services.studio().runs.engine
    options = filter_options(engine)
    if not options.workflows:
        st.info("No run is stored yet. Start one on a workflow page (or `python -m pipelines run career_navigator "
                "--scenario seed_example`), and its metrics appear here.", icon=":material/monitoring:")
        st.stop()
    st.caption("Across the stored runs of every workflow: filter them in the sidebar.")
    run_filter = render_filters(options)
    metrics = load_run_metrics(engine, run_filter, prices)
    if metrics.threads.empty:
        st.info("No run matches the filters: choose other workflows, providers or days in the sidebar.")
        st.stop()
    render_headline(metrics)
    render_tabs(metrics, run_filter, engine)
except services.storage_errors() as exc:
    services.storage_failure(exc)
