"""Stepwise settings: defaults, a local settings file, environment variables and secrets, in that order."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from pipelines.core.errors import format_validation_error

WorkflowModel = TypeVar("WorkflowModel", bound=BaseModel)

PROVIDERS = ("offline", "openai", "ollama")
DEFAULT_MODELS = {"offline": "offline-engine", "openai": "gpt-4o-mini", "ollama": "llama3.1"}
DEFAULT_BASE_URLS = {"offline": "", "openai": "https://api.openai.com/v1", "ollama": "http://127.0.0.1:11434"}

# Environment variable for each non-secret field; the keys are handled apart (see find_secret).
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
    "langsmith_tracing": "STEPWISE_LANGSMITH_TRACING",
    "langsmith_project": "STEPWISE_LANGSMITH_PROJECT",
    "langsmith_endpoint": "STEPWISE_LANGSMITH_ENDPOINT",
    "run_lease_s": "STEPWISE_RUN_LEASE",
    "storage_wait_s": "STEPWISE_STORAGE_WAIT",
    "phone_regions": "STEPWISE_PHONE_REGIONS",
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
    # Per session, through callbacks (pipelines/core/tracing.py); empty endpoint: LangSmith's own.
    langsmith_tracing: bool = False
    langsmith_project: str = "stepwise"
    langsmith_endpoint: str = ""
    langsmith_api_key: str = field(default="", repr=False)
    # How long a claim on a run lasts unless its holder renews it (a killed process's claim lapses after it), and
    # how long a step waits for a SQLite file another program has locked before it says the storage is busy.
    run_lease_s: float = 30.0
    storage_wait_s: float = 30.0
    # The regions whose national phone formats ("07400 123456" in GB) are masked as personal data, besides China's,
    # the United States' and those the text's script points at: "GB, FR", as ISO 3166 codes.
    phone_regions: str = ""
    # Each workflow's own settings (PipelineSpec.settings_model), by workflow id: as the settings file has them,
    # and as the page or the CLI set them. Resolved, with the environment between the two, by workflow_settings.
    workflow_file: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False, compare=False)
    workflow_overrides: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False, compare=False)

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise SettingsError(f"unknown provider {self.provider!r}; choose one of {', '.join(PROVIDERS)}")
        if self.timeout_s <= 0:
            raise SettingsError("timeout must be a positive number of seconds")
        if self.max_retries < 0:
            raise SettingsError("max_retries cannot be negative")
        if self.run_lease_s <= 0 or self.storage_wait_s <= 0:
            raise SettingsError("the run lease and the storage wait must be positive numbers of seconds")
        if self.embedding_provider not in PROVIDERS:
            raise SettingsError(f"unknown embedding provider {self.embedding_provider!r}; "
                                f"choose one of {', '.join(PROVIDERS)}")
        if unknown := [code for code in self.phone_region_codes if code not in _phone_regions()]:
            raise SettingsError(f"unknown phone region {', '.join(unknown)}: use two-letter country codes such as GB or FR")
        if self.langsmith_endpoint and not self.langsmith_endpoint.startswith(("http://", "https://")):
            raise SettingsError(f"the LangSmith endpoint must be an http(s) URL, got {self.langsmith_endpoint!r}")

    @property
    def phone_region_codes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(code.upper() for code in self.phone_regions.replace(";", ",").replace(" ", ",")
                                   .split(",") if code))

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

    def for_workflow(self, workflow_id: str, **values: Any) -> Settings:
        """These settings with some of one workflow's own settings set (as the page or `--set` would)."""
        merged = {**self.workflow_overrides, workflow_id: {**self.workflow_overrides.get(workflow_id, {}), **values}}
        return replace(self, workflow_overrides=merged)

    def to_public(self) -> dict[str, Any]:
        """Everything but the keys: what may be shown, saved or written to a report."""
        data = asdict(self)
        for name in SECRET_FIELDS:
            data[f"{name}_set"] = bool(data.pop(name))
        data.pop("workflow_file"), data.pop("workflow_overrides")
        return data


def _phone_regions() -> frozenset[str]:
    import phonenumbers  # only when regions are set: it loads its metadata

    return frozenset(phonenumbers.SUPPORTED_REGIONS)


def parse_assignments(assignments: list[str] | None) -> dict[str, str]:
    """`["name=value", ...]` (the CLI's `--set`) as a dict; the workflow's settings model checks the values."""
    parsed = {}
    for assignment in assignments or ():
        name, equals, value = assignment.partition("=")
        if not equals or not name.strip():
            raise SettingsError(f"--set takes NAME=VALUE, got {assignment!r}")
        parsed[name.strip()] = value.strip()
    return parsed


def env_var(model: type[BaseModel], name: str) -> str | None:
    """The environment variable a workflow setting names in its field's json_schema_extra, if any."""
    extra = model.model_fields[name].json_schema_extra
    return extra.get("env") if isinstance(extra, dict) else None


def workflow_env(model: type[BaseModel]) -> dict[str, str]:
    """The workflow settings an environment variable fixes, by field name."""
    return {name: os.environ[var] for name in model.model_fields
            if (var := env_var(model, name)) and os.environ.get(var)}


def workflow_settings(workflow_id: str, model: type[WorkflowModel], settings: Settings) -> WorkflowModel:
    """One workflow's own settings: defaults < settings file < environment < the page's or the CLI's values."""
    overrides = settings.workflow_overrides.get(workflow_id, {})
    unknown = sorted(set(overrides) - set(model.model_fields))
    if unknown:
        raise SettingsError(f"{workflow_id} has no setting {', '.join(unknown)} (known: {', '.join(model.model_fields)})")
    values = {**settings.workflow_file.get(workflow_id, {}), **workflow_env(model), **overrides}
    try:
        return model.model_validate({k: v for k, v in values.items() if k in model.model_fields})
    except ValidationError as exc:
        raise SettingsError(f"{model.model_config.get('title') or workflow_id} settings: {format_validation_error(exc)}") from exc


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
    if not isinstance(data, dict):
        return {}
    known = {f.name for f in fields(Settings)} - set(SECRET_FIELDS) - {"workflow_file", "workflow_overrides"}
    read = {k: v for k, v in data.items() if k in known}
    sections = data.get("workflows")
    read["workflow_file"] = {k: dict(v) for k, v in sections.items() if isinstance(v, dict)} \
        if isinstance(sections, dict) else {}
    return read


def save_settings_file(settings: Settings, path: Path | None = None) -> Path:
    """Write the non-secret settings; no key ever goes to disk from here."""
    path = path or settings_file_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = settings.to_public()
    for name in SECRET_FIELDS:
        data.pop(f"{name}_set")
    sections: dict[str, dict[str, Any]] = {}
    for source in (settings.workflow_file, settings.workflow_overrides):
        for workflow_id, values in source.items():
            sections.setdefault(workflow_id, {}).update(values)
    data["workflows"] = sections
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def env_overrides() -> dict[str, str]:
    """The settings an environment variable fixes, by field name."""
    return {name: os.environ[var] for name, var in ENV_VARS.items() if os.environ.get(var)}


def find_secret(env_vars: tuple[str, ...], section: str) -> tuple[str, str]:
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
    return find_secret(API_KEY_ENV_VARS, "stepwise")[1]


def langsmith_key_source() -> str:
    """The variable or file the LangSmith API key comes from ("" when none): its name, never its value."""
    return find_secret(LANGSMITH_KEY_ENV_VARS, "langsmith")[1]


def load_settings(**overrides: Any) -> Settings:
    """Defaults < settings file < environment < explicit overrides (CLI flags, the settings page)."""
    values: dict[str, Any] = {}
    values.update(read_settings_file())
    values.update(env_overrides())
    values.update({k: v for k, v in overrides.items() if v is not None and v != ""})
    workflow_file = values.pop("workflow_file", {})
    workflow_overrides = values.pop("workflow_overrides", {})
    api_key = values.pop("api_key", "") or find_secret(API_KEY_ENV_VARS, "stepwise")[0]
    langsmith_api_key = values.pop("langsmith_api_key", "") or find_secret(LANGSMITH_KEY_ENV_VARS, "langsmith")[0]
    typed = {name: _coerce(name, raw) for name, raw in values.items()}
    return Settings(api_key=api_key, langsmith_api_key=langsmith_api_key, workflow_file=workflow_file,
                    workflow_overrides=workflow_overrides, **typed)
