"""Settings: provider, model, base URL, API key (masked, memory only), data dir, knowledge base, connection test."""

import streamlit as st

from dashboard import services
from dashboard.state_keys import SESSION_API_KEY, SETTINGS_OVERRIDES
from pipelines.core.models import ModelCallError, ModelGateway
from pipelines.core.settings import ENV_VARS, PROVIDERS, SettingsError, env_overrides, save_settings_file

st.title("⚙️ Settings")
settings = services.current_settings()
fixed = env_overrides()


def _help(field: str, text: str) -> str:
    return text + (f" Fixed by the environment variable {ENV_VARS[field]}." if field in fixed else "")


with st.form("settings_form"):
    provider = st.selectbox("Provider", PROVIDERS, index=PROVIDERS.index(settings.provider), key="settings_provider",
                            disabled="provider" in fixed,
                            help=_help("provider", "offline = the deterministic engine, no network. openai = any "
                                       "OpenAI-compatible server (OpenAI, DeepSeek, Qwen, vLLM, LM Studio)."))
    model = st.text_input("Model", value=settings.model, placeholder=settings.effective_model, key="settings_model",
                          disabled="model" in fixed, help=_help("model", "Empty uses the provider's default."))
    base_url = st.text_input("Base URL", value=settings.base_url, placeholder=settings.effective_base_url,
                             key="settings_base_url", disabled="base_url" in fixed, help=_help("base_url", ""))
    api_key = st.text_input("API key", value="", type="password", key="settings_api_key",
                            placeholder="set" if settings.api_key else "not set",
                            help="Kept in this browser session's memory only: never saved, logged or put in run state. "
                                 "For a lasting key use STEPWISE_API_KEY / OPENAI_API_KEY or .streamlit/secrets.toml.")
    data_dir = st.text_input("Data directory", value=settings.data_dir, key="settings_data_dir",
                             disabled="data_dir" in fixed,
                             help=_help("data_dir", "Holds the checkpoints, the run database and Chroma's files."))
    cols = st.columns(3)
    timeout_s = cols[0].number_input("Timeout (s)", min_value=1.0, value=float(settings.timeout_s), key="settings_timeout")
    max_retries = cols[1].number_input("Retries", min_value=0, max_value=10, value=int(settings.max_retries),
                                       key="settings_retries")
    fallback = cols[2].toggle("Fall back to offline on failure", value=settings.fallback_to_offline,
                              key="settings_fallback")
    st.markdown("**Knowledge base and Flink queue**")
    chroma_url = st.text_input("Chroma server URL", value=settings.chroma_url, key="settings_chroma_url",
                               placeholder="empty: embedded Chroma in the data directory",
                               disabled="chroma_url" in fixed,
                               help=_help("chroma_url", "http://host:8000 to share one knowledge base between "
                                          "machines (`chroma run --path DIR --port 8000`)."))
    cols = st.columns(4)
    embedding_provider = cols[0].selectbox(
        "Embeddings", PROVIDERS, index=PROVIDERS.index(settings.embedding_provider), key="settings_embedding_provider",
        disabled="embedding_provider" in fixed,
        help=_help("embedding_provider", "offline = hashed word and character features, no download. Changing "
                   "the embedding model re-indexes the knowledge base."))
    embedding_model = cols[1].text_input("Embedding model", value=settings.embedding_model,
                                         key="settings_embedding_model", disabled="embedding_model" in fixed)
    threshold = cols[2].number_input("Accumulate at confidence ≥", min_value=0.0, max_value=1.0, step=0.05,
                                     value=float(settings.accumulate_threshold), key="settings_threshold",
                                     disabled="accumulate_threshold" in fixed)
    lease = cols[3].number_input("Claim lease (s)", min_value=1.0, value=float(settings.claim_lease_s),
                                 key="settings_lease", disabled="claim_lease_s" in fixed,
                                 help=_help("claim_lease_s", "A claimed exception not finished in this time goes "
                                            "back to pending."))
    st.markdown("**iCan career guidance**")
    guide_loops = st.number_input("Guide loop limit (dig_deeper passes per session)", min_value=1, max_value=50,
                                  step=1, value=int(settings.guide_max_loops), key="settings_guide_loops",
                                  disabled="guide_max_loops" in fixed,
                                  help=_help("guide_max_loops", "The guide hands off to the analysis when it has "
                                             "dug this many times (seed 003: 8)."))
    apply = st.form_submit_button("Apply to this session", type="primary")
    save = st.form_submit_button("Apply and save as defaults (without the key)")

if apply or save:
    overrides = {"provider": provider, "model": model, "base_url": base_url, "data_dir": data_dir,
                 "timeout_s": timeout_s, "max_retries": int(max_retries), "fallback_to_offline": fallback,
                 "chroma_url": chroma_url.strip(), "embedding_provider": embedding_provider,
                 "embedding_model": embedding_model.strip(), "accumulate_threshold": float(threshold),
                 "claim_lease_s": float(lease), "guide_max_loops": int(guide_loops)}
    try:
        st.session_state[SETTINGS_OVERRIDES] = {k: v for k, v in overrides.items() if k not in fixed}
        if api_key:
            st.session_state[SESSION_API_KEY] = api_key
        settings = services.current_settings()
    except SettingsError as exc:
        st.error(str(exc))
    else:
        if save:
            path = save_settings_file(settings)
            st.success(f"Saved to {path}. The API key was not written.")
        else:
            st.success(f"Applied: {settings.provider_label}.")

st.subheader("Test connection")
if st.button("Test connection", key="settings_test"):
    try:
        seconds, answer = ModelGateway(services.current_settings()).ping()
    except (ModelCallError, SettingsError) as exc:
        st.error(f"Connection failed: {exc}")
    except Exception as exc:  # noqa: BLE001 - a provider client that cannot even be built is a failed connection
        st.error(f"Connection failed: {type(exc).__name__}: {exc}")
    else:
        st.success(f"{settings.provider_label} answered in {seconds:.2f} s: {answer!r}")

st.subheader("Where things are")
st.json({k: v for k, v in settings.to_public().items()} | {
    "checkpoints": settings.effective_checkpoint_url, "run database": settings.effective_db_url}, expanded=False)
