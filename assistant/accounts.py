"""Several accounts from `config.toml` (CONTRACT section 1): the `[[accounts]]` tables, the
`calendars` the assistant reads and the `default_calendar` new events go to.

    calendars = ["home/Family", "home/Leo", "dad/dad@gmail.com", "mom/Home"]   # default: all
    default_calendar = "home/Family"    # both above the first [[accounts]] line

    [[accounts]]
    name = "home"            # letters, digits, '.', '_' or '-': it is part of calendar ids
    backend = "local"        # the calendars on this machine
    calendars = ["Family", "Leo"]   # local only: calendars to keep here (made on first use)

    [[accounts]]
    name = "dad"
    backend = "google"       # signed in with `calendar-assistant login --account dad`
    owner = "Dad"

    [[accounts]]
    name = "mom"
    backend = "caldav"
    caldav_url = "https://caldav.icloud.com/"
    caldav_username = "mom@icloud.com"
    caldav_password = "app-specific-password"

Why it is read here and not in `assistant.settings`: the single-account settings stay exactly
as they were (one account named `default`, calendar ids unprefixed), and everything that only
several accounts need (the composite backend, choosing calendars by name, the per-account Google
token) loads only when `[[accounts]]` is there. A mistake in these tables is one line naming the
table and the key (`SettingsError`, exit 2), never a traceback.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.settings import SettingsError
from tools.backends.accounts import Account, AccountsBackend, CalendarChoice, calendar_facts, short_names, split_id
from tools.backends.base import CalendarBackend, CalendarError
from tools.calendar.events import CalendarInfo
from tools.masking import remember_secret, url_password

if TYPE_CHECKING:
    from assistant.services import Stores
    from assistant.settings import Settings

LOG = logging.getLogger("calendar_assistant.recovery")

ACCOUNT_KEYS = ("accounts", "calendars", "default_calendar")
"""The config file's keys for several accounts (read here, not as ordinary settings)."""

BACKENDS = ("local", "google", "caldav")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
"""An account name: part of every calendar id and of the Google token's file name, so it can
neither hold the id separator `/` nor climb out of the home dir."""

_KEYS: dict[str, tuple[str, ...]] = {
    "local": ("path", "calendars"),
    "google": ("calendar", "google_api_endpoint", "google_token_uri"),
    "caldav": ("calendar", "caldav_url", "caldav_username", "caldav_password"),
}
_COMMON = ("name", "backend", "owner")


@dataclass(frozen=True)
class AccountSettings:
    """One `[[accounts]]` table, checked."""

    name: str
    backend: str
    owner: str | None = None
    path: str | None = None
    """local: a SQLite file of its own (relative to the home dir); default: the app's store."""
    local_calendars: tuple[str, ...] = ()
    """local: the calendars this account keeps, made on first use (its main one is "Family")."""
    calendar: str | None = None
    """google, caldav: the account's main calendar (an id, or a CalDAV display name or URL)."""
    caldav_url: str | None = None
    caldav_username: str | None = None
    caldav_password: str | None = None
    google_api_endpoint: str | None = None
    google_token_uri: str | None = None

    @property
    def token_file(self) -> str:
        from tools.backends.google.auth import account_token_file

        return account_token_file(self.name)


def _text(where: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"{where}: {key} should be a non-empty string, got "
                            f"{'a value of another type' if 'password' in key else repr(value)}")
    return value


def _one_account(path: Path, index: int, table: Any) -> AccountSettings:
    where = f"{path}: [[accounts]] table {index + 1}"
    if not isinstance(table, dict):
        raise SettingsError(f"{where}: should be a table (write it as [[accounts]])")
    name = table.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise SettingsError(f"{where}: name should be letters, digits, '.', '_' or '-' "
                            f"(it is part of every calendar id), got {name!r}")
    where = f"{path}: account {name!r}"
    backend = table.get("backend")
    if backend not in BACKENDS:
        raise SettingsError(f"{where}: backend should be 'local', 'google' or 'caldav', got {backend!r}")
    allowed = _COMMON + _KEYS[backend]
    for key in table:
        if key in ACCOUNT_KEYS[1:] and key not in allowed:
            raise SettingsError(f"{where}: {key!r} is read as part of this [[accounts]] table; "
                                "write it above the first [[accounts]] line")
        if key not in allowed:
            raise SettingsError(f"{where}: unknown setting {key!r} for a {backend} account "
                                f"(it takes {', '.join(allowed)})")
    values: dict[str, Any] = {}
    for key in allowed[2:]:
        if key in table and key != "calendars":
            values[key] = _text(where, key, table[key])
    if backend == "caldav" and "caldav_url" not in values:
        raise SettingsError(f"{where}: caldav_url is missing (the server's address)")
    calendars = table.get("calendars", [])
    if not isinstance(calendars, list) or not all(isinstance(c, str) and c.strip() for c in calendars):
        raise SettingsError(f"{where}: calendars should be a list of calendar names")
    return AccountSettings(name=name, backend=backend, local_calendars=tuple(calendars), **values)


def _reference(path: Path, key: str, value: Any, names: set[str]) -> str:
    """A `<account>/<calendar name>` the person wrote, with its account checked."""
    if not isinstance(value, str) or "/" not in value:
        raise SettingsError(f"{path}: {key} should name calendars as \"<account>/<calendar name>\", "
                            f"got {value!r}")
    account = value.split("/", 1)[0]
    if account not in names:
        raise SettingsError(f"{path}: {key}: no account {account!r} in {value!r} "
                            f"(the accounts are {', '.join(sorted(names)) or 'none'})")
    return value


def read_accounts(path: Path, data: dict[str, Any]
                  ) -> tuple[tuple[AccountSettings, ...], tuple[str, ...], str | None]:
    """The `accounts`, `calendars` and `default_calendar` keys of the config file, checked."""
    tables = data.get("accounts", [])
    if not isinstance(tables, list):
        raise SettingsError(f"{path}: accounts should be [[accounts]] tables, one per account")
    accounts = tuple(_one_account(path, i, t) for i, t in enumerate(tables))
    names: set[str] = set()
    for account in accounts:
        if account.name in names:
            raise SettingsError(f"{path}: two accounts are named {account.name!r}")
        names.add(account.name)
        remember_secret(account.caldav_password)
        remember_secret(url_password(account.caldav_url))
    if not accounts and ("calendars" in data or "default_calendar" in data):
        raise SettingsError(f"{path}: calendars and default_calendar choose among [[accounts]]; "
                            "add an [[accounts]] table for each account (see README)")
    local = [a for a in accounts if a.backend == "local" and a.path is None]
    if len(local) > 1:
        raise SettingsError(f"{path}: accounts {local[0].name!r} and {local[1].name!r} both keep "
                            "their calendars in the app's store; give the second a path")
    chosen = data.get("calendars", [])
    if not isinstance(chosen, list):
        raise SettingsError(f"{path}: calendars should be a list like [\"home/Family\"]")
    calendars = tuple(dict.fromkeys(_reference(path, "calendars", c, names) for c in chosen))
    default = data.get("default_calendar")
    if default is not None:
        default = _reference(path, "default_calendar", default, names)
    return accounts, calendars, default


# ---------------------------------------------------------------------------- building
def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "calendar"


def _build_one(settings: Settings, stores: Stores, account: AccountSettings,
               google_options: dict[str, Any]) -> Account:
    backend: CalendarBackend
    login: str | None = None
    if account.backend == "local":
        from tools.backends.local import LocalBackend

        backend = LocalBackend(stores.calendar if account.path is None else
                               settings.home / account.path, settings.timezone)
        have = {c.name.casefold() for c in backend.calendars()}
        for name in account.local_calendars:
            if name.casefold() not in have:
                backend.add_calendar(_slug(name), name, settings.timezone)
    elif account.backend == "google":
        from tools.backends.google.auth import LoginRequired
        from tools.backends.google.backend import backend_from_settings

        try:
            backend = backend_from_settings(
                settings.home, api_endpoint=account.google_api_endpoint or settings.google_api_endpoint,
                token_uri=account.google_token_uri or settings.google_token_uri,
                calendar_id=account.calendar, token_file=account.token_file,
                default_timezone=settings.timezone, **google_options)
        except LoginRequired:
            raise CalendarError(f"the Google account {account.name!r} is not signed in: run "
                                f"`calendar-assistant login --account {account.name}`") from None
    else:
        from tools.backends.caldav.backend import CalDAVBackend

        backend = CalDAVBackend(account.caldav_url or "", account.caldav_username,
                                account.caldav_password, calendar=account.calendar,
                                default_timezone=settings.timezone)
        login = account.caldav_username
    return Account(account.name, backend, owner=account.owner, login=login)


def build_accounts(settings: Settings, stores: Stores, **google_options: Any) -> AccountsBackend:
    """One backend per `[[accounts]]` table behind one `AccountsBackend`; `google_options`
    tune the Google clients (retries, timeouts). What was built is closed if a later account
    cannot be."""
    built: list[Account] = []
    try:
        for account in settings.accounts:
            built.append(_build_one(settings, stores, account, google_options))
    except BaseException:
        for done in built:
            done.backend.close()
        raise
    return AccountsBackend(built)


def _matches(info: CalendarInfo, account: str, name: str) -> bool:
    return info.extra.get("account") == account and (
        info.name.casefold() == name.casefold() or info.extra.get("calendar") == name)


def choose_calendars(settings: Settings, backend: AccountsBackend) -> tuple[CalendarChoice, str]:
    """The calendars the assistant reads (the `calendars` setting, else every calendar of every
    account) with their short names, and the calendar new events go to (`default_calendar`,
    else the first account's main calendar); the backend is told the latter.

    A calendar named that its account does not have is a settings error naming both; one on an
    account that cannot be reached now is kept under the name written, so a listing names it as
    not read instead of the app refusing to start (recovery of a killed turn must still run)."""
    infos = backend.calendars()
    down = {str(i.extra["account"]) for i in infos if i.extra.get("unreachable")}

    def resolve(reference: str, key: str) -> str:
        account, name = split_id(reference)
        found = [i for i in infos if _matches(i, account, name)]
        if found:
            return found[0].id
        if account in down:
            LOG.warning("the account %r cannot be reached now, so its calendar %r is not read",
                        account, name)
            return reference
        have = ", ".join(i.name for i in infos if i.extra.get("account") == account) or "none"
        raise SettingsError(f"{settings.config_path}: {key}: the account {account!r} has no "
                            f"calendar {name!r} (it has: {have})")

    ids = [resolve(r, "calendars") for r in settings.calendars] if settings.calendars else \
        [i.id for i in infos]
    if settings.default_calendar:
        default = resolve(settings.default_calendar, "default_calendar")
    else:
        first = settings.accounts[0].name
        mains = [i.id for i in infos if i.extra.get("account") == first and i.extra.get("main")]
        default = mains[0] if mains else (ids[0] if ids else backend.primary_calendar_id())
    backend.default_calendar = default
    # short names among the calendars read ("Family" when only one read is called that), the
    # account added where two calendars of that name are read or one is not read at all
    names = {**short_names(infos), **short_names([i for i in infos if i.id in ids])}
    for calendar_id in ids:
        names.setdefault(calendar_id, split_id(calendar_id)[1])
    facts = tuple(calendar_facts(i, default) for i in infos if i.id in ids)
    return CalendarChoice(tuple(dict.fromkeys(ids)), names, facts), default
