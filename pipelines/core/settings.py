"""Stepwise settings: defaults, a local settings file, environment variables and secrets, in that order."""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

PROVIDERS = ("offline", "openai", "ollama")
DEFAULT_MODELS = {"offline": "offline-engine", "openai": "gpt-4o-mini", "ollama": "llama3.1"}
DEFAULT_BASE_URLS = {"offline": "", "openai": "https://api.openai.com/v1", "ollama": "http://127.0.0.1:11434"}

# Environment variable for each non-secret field; the keys are handled apart (see _find_secret).
ENV_VARS = {
    "provider": "STEPWISE_PROVIDER",
    "model": "STEPWISE_MODEL",
    "base_url": "STEPWISE_BASE_URL",
    "data_dir": "STEPWISE_DATA_DIR",
    "timeout_s": "STEPWISE_TIMEOUT",
    "max_retries": "STEPWISE_MAX_RETRIES",
    "backoff_s": "STEPWISE_BACKOFF",
    "fallback_to_offline": "STEPWISE_FALLBACK_TO_OFFLINE",
    "structured_method": "STEPWISE_STRUCTURED_METHOD",
    "checkpoint_url": "STEPWISE_CHECKPOINT_URL",
    "db_url": "STEPWISE_DB_URL",
    "chroma_url": "STEPWISE_CHROMA_URL",
    "embedding_provider": "STEPWISE_EMBEDDING_PROVIDER",
    "embedding_model": "STEPWISE_EMBEDDING_MODEL",
    "claim_lease_s": "STEPWISE_CLAIM_LEASE",
    "accumulate_threshold": "STEPWISE_ACCUMULATE_THRESHOLD",
    "guide_max_loops": "STEPWISE_GUIDE_MAX_LOOPS",
    "langsmith_tracing": "STEPWISE_LANGSMITH_TRACING",
    "langsmith_project": "STEPWISE_LANGSMITH_PROJECT",
    "langsmith_endpoint": "STEPWISE_LANGSMITH_ENDPOINT",
}
SETTINGS_FILE_ENV = "STEPWISE_SETTINGS_FILE"
API_KEY_ENV_VARS = ("STEPWISE_API_KEY", "OPENAI_API_KEY")
LANGSMITH_KEY_ENV_VARS = ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY")
# Read in this order after the environment; shown as written here when the page says where a key came from.
SECRETS_FILES = (".streamlit/secrets.toml", "~/.streamlit/secrets.toml")
SECRET_FIELDS = ("api_key", "langsmith_api_key")


class SettingsError(ValueError):
    """A setting has a value Stepwise cannot use."""


@dataclass(frozen=True)
class Settings:
    provider: str = "offline"
    model: str = ""
    base_url: str = ""
    # Never logged, never written to a file or to graph state: repr and to_public() leave it out.
    api_key: str = field(default="", repr=False)
    data_dir: str = "data"
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 0.5
    fallback_to_offline: bool = True
    structured_method: str = "function_calling"
    checkpoint_url: str = ""
    db_url: str = ""
    # Empty: embedded Chroma under the data dir; http://host:port: a shared Chroma server.
    chroma_url: str = ""
    embedding_provider: str = "offline"
    embedding_model: str = ""
    # A claimed exception whose worker has not finished within the lease goes back to pending.
    claim_lease_s: float = 600.0
    accumulate_threshold: float = 0.8
    # iCan's guide digs at most this many times per session (seed 003: the comment says 2, the code 8).
    guide_max_loops: int = 8
    # Per session, through callbacks (pipelines/core/tracing.py); empty endpoint: LangSmith's own.
    langsmith_tracing: bool = False
    langsmith_project: str = "stepwise"
    langsmith_endpoint: str = ""
    langsmith_api_key: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise SettingsError(f"unknown provider {self.provider!r}; choose one of {', '.join(PROVIDERS)}")
        if self.timeout_s <= 0:
            raise SettingsError("timeout must be a positive number of seconds")
        if self.max_retries < 0:
            raise SettingsError("max_retries cannot be negative")
        if self.embedding_provider not in PROVIDERS:
            raise SettingsError(f"unknown embedding provider {self.embedding_provider!r}; "
                                f"choose one of {', '.join(PROVIDERS)}")
        if self.claim_lease_s <= 0:
            raise SettingsError("the claim lease must be a positive number of seconds")
        if not 0 <= self.accumulate_threshold <= 1:
            raise SettingsError("the accumulate threshold is a confidence between 0 and 1")
        if not 1 <= self.guide_max_loops <= 50:
            raise SettingsError("the guide's loop limit must be between 1 and 50")
        if self.langsmith_endpoint and not self.langsmith_endpoint.startswith(("http://", "https://")):
            raise SettingsError(f"the LangSmith endpoint must be an http(s) URL, got {self.langsmith_endpoint!r}")

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()

    @property
    def effective_model(self) -> str:
        return self.model or DEFAULT_MODELS[self.provider]

    @property
    def effective_base_url(self) -> str:
        return self.base_url or DEFAULT_BASE_URLS[self.provider]

    @property
    def effective_checkpoint_url(self) -> str:
        return self.checkpoint_url or f"sqlite:///{(self.data_path / 'checkpoints.sqlite').as_posix()}"

    @property
    def effective_db_url(self) -> str:
        return self.db_url or f"sqlite:///{(self.data_path / 'stepwise.sqlite').as_posix()}"

    @property
    def chroma_path(self) -> Path:
        return self.data_path / "chroma"

    @property
    def provider_label(self) -> str:
        return "offline engine" if self.provider == "offline" else f"{self.provider} · {self.effective_model}"

    def with_overrides(self, **overrides: Any) -> Settings:
        clean = {k: v for k, v in overrides.items() if v is not None and v != ""}
        return replace(self, **clean)

    def to_public(self) -> dict[str, Any]:
        """Everything but the keys: what may be shown, saved or written to a report."""
        data = asdict(self)
        for name in SECRET_FIELDS:
            data[f"{name}_set"] = bool(data.pop(name))
        return data


def _coerce(name: str, raw: Any) -> Any:
    kind = {f.name: f.type for f in fields(Settings)}[name]
    try:
        if kind == "bool":
            return raw if isinstance(raw, bool) else str(raw).strip().lower() in ("1", "true", "yes", "on")
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
    except (TypeError, ValueError) as exc:
        raise SettingsError(f"setting {name} must be a {kind}, got {raw!r}") from exc
    return str(raw)


def settings_file_path() -> Path:
    return Path(os.environ.get(SETTINGS_FILE_ENV, ".stepwise/settings.json")).expanduser()


def read_settings_file(path: Path | None = None) -> dict[str, Any]:
    path = path or settings_file_path()
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SettingsError(f"settings file {path} is not valid JSON: {exc}") from exc
    known = {f.name for f in fields(Settings)} - set(SECRET_FIELDS)
    return {k: v for k, v in data.items() if k in known} if isinstance(data, dict) else {}


def save_settings_file(settings: Settings, path: Path | None = None) -> Path:
    """Write the non-secret settings; no key ever goes to disk from here."""
    path = path or settings_file_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = settings.to_public()
    for name in SECRET_FIELDS:
        data.pop(f"{name}_set")
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def env_overrides() -> dict[str, str]:
    """The settings an environment variable fixes, by field name."""
    return {name: os.environ[var] for name, var in ENV_VARS.items() if os.environ.get(var)}


def _find_secret(env_vars: tuple[str, ...], section: str) -> tuple[str, str]:
    """(value, where it came from): the first environment variable set, else the first secrets file with
    `[section] api_key` or a top-level entry named like one of the variables."""
    for var in env_vars:
        if os.environ.get(var):
            return os.environ[var], var
    for shown in SECRETS_FILES:
        path = Path(shown).expanduser()
        if not path.exists():
            continue
        try:
            secrets = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            continue
        table = secrets.get(section) if isinstance(secrets.get(section), dict) else {}
        for value in (table.get("api_key"), *(secrets.get(var) for var in env_vars)):
            if value:
                return str(value), shown
    return "", ""


def api_key_source() -> str:
    """The variable or file the model API key comes from ("" when none): its name, never its value."""
    return _find_secret(API_KEY_ENV_VARS, "stepwise")[1]


def langsmith_key_source() -> str:
    """The variable or file the LangSmith API key comes from ("" when none): its name, never its value."""
    return _find_secret(LANGSMITH_KEY_ENV_VARS, "langsmith")[1]


def load_settings(**overrides: Any) -> Settings:
    """Defaults < settings file < environment < explicit overrides (CLI flags, the settings page)."""
    values: dict[str, Any] = {}
    values.update(read_settings_file())
    values.update(env_overrides())
    values.update({k: v for k, v in overrides.items() if v is not None and v != ""})
    api_key = values.pop("api_key", "") or _find_secret(API_KEY_ENV_VARS, "stepwise")[0]
    langsmith_api_key = values.pop("langsmith_api_key", "") or _find_secret(LANGSMITH_KEY_ENV_VARS, "langsmith")[0]
    typed = {name: _coerce(name, raw) for name, raw in values.items()}
    return Settings(api_key=api_key, langsmith_api_key=langsmith_api_key, **typed)
