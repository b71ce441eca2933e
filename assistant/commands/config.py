"""`calendar-assistant config [show | get KEY | set KEY VALUE]`: read and change the settings file.

Values are checked like the file itself (the setting's type, then `Settings.validate`, with the
key named) before anything is written, and written by `assistant.settings.save_setting`: TOML by
`tomli-w`, atomically, mode 0600 (the file may hold an API key). Every secret is masked in what
is printed (`show`, `get`, and the line `set` answers with): the API key and the CalDAV password
read "(set)", and a URL's password reads `***` (`tools.masking`, the one masking helper).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tomllib
from typing import Any

from assistant.commands.usage import Subparsers, fail
from assistant.settings import (
    FILE_ONLY_SETTINGS,
    SECRET_SETTINGS,
    URL_SETTINGS,
    Settings,
    SettingsError,
    load_settings,
    remember_secrets,
    save_setting,
)
from tools.masking import mask_secrets, mask_url


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("config", help="show, get or set a setting (config.toml)")
    actions = parser.add_subparsers(dest="config_action", parser_class=type(parser))
    actions.add_parser("show", help="every setting and where the file is")
    get = actions.add_parser("get", help="print one setting")
    get.add_argument("key", choices=settable_keys(), metavar="KEY", help="the setting (see config show)")
    put = actions.add_parser("set", help="change one setting (written to config.toml, mode 0600)")
    put.add_argument("key", choices=settable_keys(), metavar="KEY", help="the setting (see config show)")
    put.add_argument("value", help="its new value, checked before it is saved")
    parser.set_defaults(run=run)


def settable_keys() -> list[str]:
    return [f.name for f in dataclasses.fields(Settings)
            if f.name != "home" and f.name not in FILE_ONLY_SETTINGS]


def shown(key: str, value: Any) -> str:
    """A setting's value as printed: secrets as "(set)", URLs with their password masked, and
    anything else with any known secret in it masked."""
    if key in SECRET_SETTINGS and value:
        return "(set)"
    if value is None:
        return "(not set)"
    if key in URL_SETTINGS and isinstance(value, str):
        return mask_url(value)
    return mask_secrets(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value)


def parse_value(settings: Settings, key: str, text: str) -> Any:
    """VALUE read as the setting's type: a number for a number setting, a table of strings
    (TOML inline, `{home = "1 Main St"}`) for `places`, else the text itself."""
    current = getattr(settings, key)
    if isinstance(current, bool):
        if text.lower() not in ("true", "false"):
            fail(f"config: {key}: expected true or false, got {text!r}")
        return text.lower() == "true"
    if isinstance(current, int):
        try:
            return int(text)
        except ValueError:
            fail(f"config: {key}: expected a whole number, got {text!r}")
    if isinstance(current, dict):
        try:
            value = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError as exc:
            fail(f"config: {key}: expected a TOML table like {{home = \"1 Main St\"}} ({exc})")
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            fail(f"config: {key}: expected a table of strings")
        return value
    return text


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    action = args.config_action or "show"
    if action == "show":
        print(f"# {settings.config_path}")
        for key in settable_keys():
            print(f"{key} = {shown(key, getattr(settings, key))}")
        return 0
    if action == "get":
        print(shown(args.key, getattr(settings, args.key)))
        return 0
    value = parse_value(settings, args.key, args.value)
    trial = dataclasses.replace(settings, **{args.key: value})
    remember_secrets(trial)  # the new value is masked in whatever is said about it
    try:
        trial.validate()
    except SettingsError as exc:
        fail(f"config: {exc}")
    save_setting(settings, args.key, value)
    print(f"{args.key} = {shown(args.key, value)}  (saved to {settings.config_path})")
    if args.key in ("model", "reflection_model"):
        warn_if_retiring(str(value))
    return 0


def warn_if_retiring(model: str) -> None:
    """Say so when the model chosen is on the SDK's list of retiring models (it is still saved:
    the choice is the person's)."""
    from assistant.models import retirement  # loads the model SDK: only when a model is set
    from assistant.settings import DEFAULT_MODEL

    date = retirement(model)
    if date:
        print(f"calendar-assistant: warning: {model} is being retired on {date}; a current one is "
              f"{DEFAULT_MODEL}", file=sys.stderr)
