"""Settings: a TOML file in the home dir, overridden by the environment (CONTRACT section 1).

The home dir holds everything the app keeps (calendar, journal, history, lessons, the Google
token), so `CALENDAR_ASSISTANT_HOME` moves all of it at once: tests and the contract checker
point it at a temporary directory and never touch a person's calendar.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from tools.events import EventFieldError, zone

CONFIG_NAME = "config.toml"
DEFAULT_MODEL = "claude-sonnet-4-5"
DEFAULT_REFLECTION_MODEL = "claude-haiku-4-5"


class SettingsError(ValueError):
    """The config file or an environment variable holds something unusable."""


def home_dir() -> Path:
    env = os.environ.get("CALENDAR_ASSISTANT_HOME")
    return Path(env).expanduser() if env else Path(user_data_dir("calendar-assistant", False))


def system_timezone() -> str:
    """The machine's IANA zone (TZ, then /etc/localtime), else UTC."""
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz:
        try:
            zone(tz)
            return tz
        except EventFieldError:
            pass
    try:
        target = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in target:
            name = target.split("zoneinfo/", 1)[1]
            zone(name)
            return name
    except (OSError, EventFieldError):
        pass
    return "UTC"


@dataclass
class Settings:
    home: Path = field(default_factory=home_dir)
    timezone: str = field(default_factory=system_timezone)
    home_address: str | None = None
    places: dict[str, str] = field(default_factory=dict)
    backend: str = "local"
    calendar_id: str | None = None
    api_key: str | None = None
    model: str = DEFAULT_MODEL
    reflection_model: str = DEFAULT_REFLECTION_MODEL
    max_tokens: int = 2048
    max_rounds: int = 8
    turn_token_budget: int = 60000
    context_token_budget: int = 24000
    reflection_mode: str = "auto"  # auto | always | symbolic
    reflection_votes: int = 1
    geocoder: str = "off"  # off | nominatim
    geocoder_user_agent: str = ""
    google_api_endpoint: str | None = None
    google_token_uri: str | None = None
    google_client_secrets: str | None = None
    lesson_recency_days: int = 14
    lesson_min_seen: int = 2
    lessons_max_surfaced: int = 3
    constitution_every: int = 10

    @property
    def config_path(self) -> Path:
        return self.home / CONFIG_NAME

    @property
    def calendar_db(self) -> Path:
        return self.home / "calendar.db"

    @property
    def state_db(self) -> Path:
        return self.home / "assistant.db"

    @property
    def google_token_path(self) -> Path:
        return self.home / "google-token.json"

    def validate(self) -> "Settings":
        try:
            zone(self.timezone)
        except EventFieldError:
            raise SettingsError(f"timezone: unknown time zone {self.timezone!r}") from None
        if self.backend not in ("local", "google"):
            raise SettingsError(f"backend: {self.backend!r} is not 'local' or 'google'")
        if self.reflection_mode not in ("auto", "always", "symbolic"):
            raise SettingsError(f"reflection_mode: {self.reflection_mode!r} is not auto, always or symbolic")
        if self.geocoder not in ("off", "nominatim"):
            raise SettingsError(f"geocoder: {self.geocoder!r} is not 'off' or 'nominatim'")
        return self


_ENV = {
    "CALENDAR_ASSISTANT_BACKEND": "backend",
    "CALENDAR_ASSISTANT_CALENDAR": "calendar_id",
    "CALENDAR_ASSISTANT_GOOGLE_API_ENDPOINT": "google_api_endpoint",
    "CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI": "google_token_uri",
    "CALENDAR_ASSISTANT_TIMEZONE": "timezone",
    "ANTHROPIC_API_KEY": "api_key",
}


def load_settings(home: Path | None = None) -> Settings:
    """File values, then environment values, then validation with messages naming the key."""
    settings = Settings(home=home or home_dir())
    path = settings.config_path
    if path.exists():
        try:
            data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SettingsError(f"{path}: {exc}") from None
        known = {f.name: f for f in fields(Settings)}
        for key, value in data.items():
            if key not in known or key == "home":
                raise SettingsError(f"{path}: unknown setting {key!r}")
            default = getattr(settings, key)
            if isinstance(default, bool) or (isinstance(default, int) and not isinstance(value, int)):
                if not isinstance(value, type(default)):
                    raise SettingsError(f"{path}: {key} should be {type(default).__name__}")
            setattr(settings, key, value)
    for env, key in _ENV.items():
        if os.environ.get(env):
            setattr(settings, key, os.environ[env])
    return settings.validate()


def save_setting(settings: Settings, key: str, value: Any) -> None:
    """Write one key to the config file, keeping the others (used by first-run setup)."""
    path = settings.config_path
    data: dict[str, Any] = {}
    if path.exists():
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    data[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for k, v in data.items():
        if isinstance(v, dict):
            continue
        lines.append(f"{k} = {_toml_value(v)}")
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f"\n[{k}]")
            lines.extend(f"{_toml_key(kk)} = {_toml_value(vv)}" for kk, vv in v.items())
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    setattr(settings, key, value)


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else _toml_value(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
