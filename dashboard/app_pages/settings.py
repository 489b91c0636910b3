"""Settings: provider, model, base URL, where the keys come from, data dir, knowledge base, each workflow's own
settings, tracing, connection test."""

import streamlit as st
from pydantic import BaseModel

from dashboard import services
from dashboard.state_keys import SETTINGS_OVERRIDES
from dashboard.studio.settings_form import render_workflow_settings
from pipelines.core.markup import escape_markdown
from pipelines.core.models.gateway import ModelCallError, ModelGateway
from pipelines.core.settings import (ENV_VARS, PROVIDERS, SettingsError, api_key_source, env_overrides,
                                     langsmith_key_source, save_settings_file)
from pipelines.core.registry import available_specs
from pipelines.core.spec import PipelineSpec
from pipelines.core.trace.langsmith import tracing_status

st.title("Settings")
settings = services.current_settings()
fixed = env_overrides()


def _help(field: str, text: str) -> str:
    return text + (f" Fixed by the environment variable {ENV_VARS[field]}." if field in fixed else "")


def _current(spec: PipelineSpec) -> BaseModel:
    """The workflow's settings in force, or its defaults when a value is refused (the page says which)."""
    try:
        return spec.settings(settings)
    except SettingsError as exc:
        st.error(escape_markdown(f"{exc}. Its defaults are shown below."))
        return spec.settings_model()


def _key_line(label: str, source: str, how_to_set: str) -> str:
    """Where a key comes from, by name only: the page never holds or shows a key's value."""
    return f"{label}: set (from {source})" if source else f"{label}: not set — {how_to_set}"


with st.form("settings_form"):
    provider = st.selectbox("Provider", PROVIDERS, index=PROVIDERS.index(settings.provider), key="settings_provider",
                            disabled="provider" in fixed,
                            help=_help("provider", "offline = the deterministic engine, no network. openai = any "
                                       "OpenAI-compatible server (OpenAI, DeepSeek, Qwen, vLLM, LM Studio)."))
    model = st.text_input("Model", value=settings.model, placeholder=settings.effective_model, key="settings_model",
                          disabled="model" in fixed, help=_help("model", "Empty uses the provider's default."))
    base_url = st.text_input("Base URL", value=settings.base_url, placeholder=settings.effective_base_url,
                             key="settings_base_url", disabled="base_url" in fixed, help=_help("base_url", ""))
    st.caption(":material/key: " + _key_line(
        "API key", api_key_source(), "set STEPWISE_API_KEY or OPENAI_API_KEY, or copy "
        ".streamlit/secrets.toml.example to .streamlit/secrets.toml"))
    data_dir = st.text_input("Data directory", value=settings.data_dir, key="settings_data_dir",
                             disabled="data_dir" in fixed,
                             help=_help("data_dir", "Holds the checkpoints, the run database and Chroma's files."))
    cols = st.columns(3)
    timeout_s = cols[0].number_input("Timeout (s)", min_value=1.0, value=float(settings.timeout_s), key="settings_timeout")
    max_retries = cols[1].number_input("Retries", min_value=0, max_value=10, value=int(settings.max_retries),
                                       key="settings_retries")
    fallback = cols[2].toggle("Fall back to offline on failure", value=settings.fallback_to_offline,
                              key="settings_fallback")
    st.markdown("**Knowledge base**")
    chroma_url = st.text_input("Chroma server URL", value=settings.chroma_url, key="settings_chroma_url",
                               placeholder="empty: embedded Chroma in the data directory",
                               disabled="chroma_url" in fixed,
                               help=_help("chroma_url", "http://host:8000 to share one knowledge base between "
                                          "machines (`chroma run --path DIR --port 8000`)."))
    cols = st.columns(2)
    embedding_provider = cols[0].selectbox(
        "Embeddings", PROVIDERS, index=PROVIDERS.index(settings.embedding_provider), key="settings_embedding_provider",
        disabled="embedding_provider" in fixed,
        help=_help("embedding_provider", "offline = hashed word and character features, no download. Changing "
                   "the embedding model re-indexes the knowledge base."))
    embedding_model = cols[1].text_input("Embedding model", value=settings.embedding_model,
                                         key="settings_embedding_model", disabled="embedding_model" in fixed)
    st.markdown("**Personal data**")
    phone_regions = st.text_input(
        "Phone regions", value=settings.phone_regions, key="settings_phone_regions", placeholder="e.g. GB, FR",
        disabled="phone_regions" in fixed,
        help=_help("phone_regions", "Countries whose national phone numbers (such as 07400 123456) are masked like "
                   "personal data. Numbers with a country code, and Chinese and US numbers, always are."))
    workflow_values = {}
    for spec in available_specs():
        if spec.settings_model is not None:
            workflow_values[spec.id] = render_workflow_settings(spec, _current(spec))
    st.markdown("**LangSmith tracing**")
    cols = st.columns([1, 2, 2])
    tracing = cols[0].toggle("Trace runs", value=settings.langsmith_tracing, key="settings_langsmith_tracing",
                             disabled="langsmith_tracing" in fixed,
                             help=_help("langsmith_tracing", "Sends every step's node runs and model calls to "
                                        "LangSmith, for the sessions of this browser tab."))
    project = cols[1].text_input("Project", value=settings.langsmith_project, key="settings_langsmith_project",
                                 disabled="langsmith_project" in fixed, help=_help("langsmith_project", ""))
    endpoint = cols[2].text_input("Endpoint", value=settings.langsmith_endpoint, key="settings_langsmith_endpoint",
                                  placeholder="empty: LangSmith's own", disabled="langsmith_endpoint" in fixed,
                                  help=_help("langsmith_endpoint", "For a self-hosted LangSmith."))
    st.caption(":material/key: " + _key_line(
        "LangSmith key", langsmith_key_source(), "set LANGSMITH_API_KEY or LANGCHAIN_API_KEY, or add "
        "[langsmith] api_key to .streamlit/secrets.toml"))
    apply = st.form_submit_button("Apply to this session", type="primary")
    save = st.form_submit_button("Apply and save as defaults (keys are never saved)")

if apply or save:
    overrides = {"provider": provider, "model": model, "base_url": base_url, "data_dir": data_dir,
                 "timeout_s": timeout_s, "max_retries": int(max_retries), "fallback_to_offline": fallback,
                 "chroma_url": chroma_url.strip(), "embedding_provider": embedding_provider,
                 "embedding_model": embedding_model.strip(), "langsmith_tracing": tracing,
                 "langsmith_project": project.strip(), "langsmith_endpoint": endpoint.strip(),
                 "phone_regions": phone_regions.strip()}
    previous = st.session_state.get(SETTINGS_OVERRIDES)
    try:
        st.session_state[SETTINGS_OVERRIDES] = {**{k: v for k, v in overrides.items() if k not in fixed},
                                                "workflow_overrides": workflow_values}
        settings = services.current_settings()
        for spec in available_specs():
            spec.settings(settings)  # a value a workflow refuses is refused here, with its reason
    except SettingsError as exc:
        # The choices that worked before stay in force; the form still shows what was typed.
        st.session_state[SETTINGS_OVERRIDES] = previous or {}
        st.error(escape_markdown(str(exc)))
    else:
        if save:
            path = save_settings_file(settings)
            st.success(escape_markdown(f"Saved to {path}. No key was written."))
        else:
            st.success(escape_markdown(f"Applied: {settings.provider_label}."))

st.caption(f":material/monitoring: LangSmith tracing: {tracing_status(settings)}")

st.subheader("Test connection")
if st.button("Test connection", key="settings_test"):
    try:
        seconds, answer = ModelGateway(services.current_settings()).ping()
    except (ModelCallError, SettingsError) as exc:
        st.error(escape_markdown(f"Connection failed: {exc}"))
    except Exception as exc:  # noqa: BLE001 - a provider client that cannot even be built is a failed connection
        st.error(escape_markdown(f"Connection failed: {type(exc).__name__}: {exc}"))
    else:
        st.success(escape_markdown(f"{settings.provider_label} answered in {seconds:.2f} s: {answer!r}"))

st.subheader("Where things are")
st.json({k: v for k, v in settings.to_public().items()} | {
    "checkpoints": settings.effective_checkpoint_url, "run database": settings.effective_db_url}, expanded=False)
