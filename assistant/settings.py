"""Settings: a TOML file in the home dir, overridden by the environment (CONTRACT section 1).

The home dir holds everything the app keeps (calendar, journal, history, lessons, the Google
token), so `CALENDAR_ASSISTANT_HOME` moves all of it at once: tests and the contract checker
point it at a temporary directory and never touch a person's calendar.
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import tomli_w
from platformdirs import user_data_dir

from reflection.findings import GUARD_MODES, GuardMode
from tools.calendar.events import EventFieldError, zone
from tools.masking import mask_url, remember_secret, url_password
from tools.store.files import write_private_file

CONFIG_NAME = "config.toml"
DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_REFLECTION_MODEL = "claude-haiku-5-5"
"""The newest Sonnet and Haiku the installed SDK lists (`assistant.models`); a test fails when
either is in the SDK's list of retiring models."""


class SettingsError(ValueError):
    """The config file or an environment variable holds something unusable."""

    speaks_for_itself = True
    """Its message is written for the person (`tools.backends.errors.person_message` shows it)."""


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
    reflection_mode: GuardMode = "auto"
    reflection_votes: int = 1
    geocoder: str = "off"  # off | nominatim
    geocoder_user_agent: str = ""
    google_api_endpoint: str | None = None
    google_token_uri: str | None = None
    google_client_secrets: str | None = None
    caldav_url: str | None = None
    caldav_username: str | None = None
    caldav_password: str | None = None
    lesson_recency_days: int = 14
    lesson_min_seen: int = 2
    lessons_max_surfaced: int = 3
    database_url: str | None = None  # a SQLAlchemy URL for the whole store (CONTRACT section 9)
    theme: str = ""  # the chat's Textual theme, remembered when the person picks one

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

    def validate(self) -> Settings:
        """Refuse values that would only fail later, deep inside a turn, with a message naming
        the key (a negative budget or an empty model name is a typo, not a choice)."""
        try:
            zone(self.timezone)
        except EventFieldError:
            raise SettingsError(f"timezone: unknown time zone {self.timezone!r}") from None
        if self.backend not in ("local", "google", "caldav"):
            raise SettingsError(f"backend: {self.backend!r} is not 'local', 'google' or 'caldav'")
        if self.database_url:
            from sqlalchemy.engine import make_url
            from sqlalchemy.exc import ArgumentError
            try:
                make_url(self.database_url)
            except (ArgumentError, ValueError):  # ValueError: a port that is not a number
                raise SettingsError(f"database_url: {mask_url(self.database_url)!r} is not a "
                                    "database URL (e.g. postgresql+psycopg://user@host/dbname)") from None
        if self.reflection_mode not in GUARD_MODES:
            raise SettingsError(f"reflection_mode: {self.reflection_mode!r} is not auto, always or symbolic")
        if self.geocoder not in ("off", "nominatim"):
            raise SettingsError(f"geocoder: {self.geocoder!r} is not 'off' or 'nominatim'")
        for key in ("model", "reflection_model"):
            value = getattr(self, key)
            if not isinstance(value, str) or not value.strip():
                raise SettingsError(f"{key}: must name a model, got {value!r}")
        for key, lowest in _LOWEST.items():
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
                raise SettingsError(f"{key}: must be a whole number of at least {lowest}, got {value!r}")
        return self


# The smallest value each number setting can sensibly take.
_LOWEST = {"max_tokens": 1, "max_rounds": 1, "turn_token_budget": 1, "context_token_budget": 1,
           "reflection_votes": 1, "lesson_recency_days": 1, "lesson_min_seen": 1,
           "lessons_max_surfaced": 0}


_ENV = {
    "CALENDAR_ASSISTANT_BACKEND": "backend",
    "CALENDAR_ASSISTANT_CALENDAR": "calendar_id",
    "CALENDAR_ASSISTANT_GOOGLE_API_ENDPOINT": "google_api_endpoint",
    "CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI": "google_token_uri",
    "CALENDAR_ASSISTANT_TIMEZONE": "timezone",
    "CALENDAR_ASSISTANT_CALDAV_URL": "caldav_url",
    "CALENDAR_ASSISTANT_CALDAV_USERNAME": "caldav_username",
    "CALENDAR_ASSISTANT_CALDAV_PASSWORD": "caldav_password",
    "ANTHROPIC_API_KEY": "api_key",
    "DATABASE_URL": "database_url",
}


def _check_type(path: Path, key: str, value: Any, default: Any) -> None:
    """The file's value has the type of the setting's default (a str setting may be unset)."""
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, dict):
        ok = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    else:  # str settings, and the optional ones whose default is None
        ok = isinstance(value, str)
    if not ok:
        kind = "a table of strings" if isinstance(default, dict) else \
            "a whole number" if isinstance(default, int) else "a string"
        got = "a value of another type" if key in SECRET_SETTINGS else repr(value)
        raise SettingsError(f"{path}: {key} should be {kind}, got {got}")  # a secret is not shown



def has_credentials(settings: Settings) -> bool:
    """Whether a model call can be made: a key, or a base URL pointing at a local compatible
    server. Here, not beside the model client, so a command can say "no key" before it loads the
    model SDK (seconds of CPU on a small machine)."""
    return bool(settings.api_key or os.environ.get("ANTHROPIC_API_KEY")
                or os.environ.get("ANTHROPIC_BASE_URL"))


def load_settings(home: Path | None = None) -> Settings:
    """File values, then environment values, then validation with messages naming the key."""
    settings = Settings(home=home or home_dir())
    path = settings.config_path
    data = _read_config(path)
    known = {f.name for f in fields(Settings)}
    for key, value in data.items():
        if key not in known or key == "home":
            raise SettingsError(f"{path}: unknown setting {key!r}")
        _check_type(path, key, value, getattr(settings, key))
        setattr(settings, key, value)
    for env, key in _ENV.items():
        if os.environ.get(env):
            setattr(settings, key, os.environ[env])
    remember_secrets(settings)
    return settings.validate()


SECRET_SETTINGS = ("api_key", "caldav_password")
"""Settings whose whole value is a secret: shown as "(set)", never printed."""
URL_SETTINGS = ("database_url", "caldav_url", "google_api_endpoint", "google_token_uri")
"""Settings that are URLs: shown with any password in them masked (`tools.masking.mask_url`)."""


def remember_secrets(settings: Settings) -> None:
    """Every secret the settings hold is masked wherever it shows up from now on: in any
    message, tool result or log line (`tools.masking`)."""
    for key in SECRET_SETTINGS:
        remember_secret(getattr(settings, key))
    for key in URL_SETTINGS:
        remember_secret(url_password(getattr(settings, key)))


def _read_config(path: Path) -> dict[str, Any]:
    """The config file as a dict ({} when there is none), or a SettingsError naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot be read ({exc})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: {exc}") from None


CONFIG_HEADER = "# calendar-assistant settings (see README, \"Configuration\")\n"


def caldav_missing(settings: Settings) -> str | None:
    """What a CalDAV calendar still lacks before it can be reached, in one line naming the
    setting, or None. Checked when the backend is built, not when a setting is saved, so the
    settings can be given in any order (`config set backend caldav` before the URL)."""
    if not settings.caldav_url:
        return ("backend is caldav but caldav_url is not set: run 'calendar-assistant setup "
                "caldav', or 'calendar-assistant config set caldav_url URL'")
    if settings.caldav_username and not settings.caldav_password:
        return ("backend is caldav but caldav_password is not set for "
                f"{settings.caldav_username!r}: run 'calendar-assistant config set caldav_password "
                "PASSWORD' (an app password for iCloud and Fastmail)")
    return None


def save_setting(settings: Settings, key: str, value: Any) -> None:
    """Write one key to the config file, keeping the others (used by first-run setup)."""
    save_settings(settings, {key: value})


def save_settings(settings: Settings, values: dict[str, Any]) -> None:
    """Write some keys to the config file at once, keeping the others (`setup caldav` saves its
    four together, so a failure never leaves half an account behind). A value of None takes the
    key out of the file (TOML has no null): the setting goes back to its default.

    The file may hold an API key, so it is written 0600 and atomically
    (`tools.store.files.write_private_file`): never readable by others, never half-written. Values are
    serialized by `tomli-w`. When the key is already a line of its own at the top level, only
    that line is replaced, so the person's comments survive; otherwise (a new key, or a value
    spread over several lines) the file is rewritten by `tomli-w`, which cannot keep comments.
    Either way the result is parsed back and must equal the intended settings.
    """
    path = settings.config_path
    data = _read_config(path)
    wanted = {k: v for k, v in {**data, **values}.items() if v is not None}
    edits = {k: v for k, v in values.items() if v is not None or k in data}
    text = (_edit_lines(path, edits, wanted) if None not in edits.values() else None) or \
        CONFIG_HEADER + tomli_w.dumps(wanted)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_private_file(path, text, prefix=".config-")
    for key, value in values.items():
        setattr(settings, key, value)  # None only for the settings whose default is None


def _edit_lines(path: Path, values: dict[str, Any], wanted: dict[str, Any]) -> str | None:
    """The file with each top-level line `key = ...` replaced, if that gives exactly `wanted`
    (None when a key has no line of its own above the first table)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    except OSError:
        return None
    for key, value in values.items():
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for index, line in enumerate(lines):
            if line.lstrip().startswith("["):
                return None  # tables begin: the key is not a top-level line of its own
            if pattern.match(line):
                lines[index] = tomli_w.dumps({key: value})
                break
        else:
            return None
    edited = "".join(lines)
    try:
        return edited if tomllib.loads(edited) == wanted else None
    except tomllib.TOMLDecodeError:
        return None
