"""`calendar-assistant calendars`: every calendar of every account, one line each, in words.

Each line says the calendar's name (with several accounts, as `<account>/<calendar name>`,
which is how `calendars` and `default_calendar` in config.toml name it), the kind of account it
is on, whose it is when known, and whether the assistant can change it; `*` marks where new
events go and `-` a calendar the assistant does not read. An account that cannot be reached
is said so, with the reason, instead of failing the whole list.

On CalDAV these are the account's calendars by display name; the setting
`CALENDAR_ASSISTANT_CALENDAR` may name one by its name or its URL.
"""
from __future__ import annotations

import argparse

from assistant.commands.usage import Subparsers
from assistant.settings import load_settings

KINDS = {"local": "on this computer", "google": "Google", "caldav": "CalDAV"}


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("calendars", help="list the calendars of every account")
    parser.set_defaults(run=run)


def describe(facts: dict[str, str | bool], service: str, several: bool) -> str:
    """`Google account "dad", owner dad@example.com, can be changed`."""
    kind = KINDS.get(service, service)
    where = f"{kind} account \"{facts['account']}\"" if service != "local" else \
        f"local account \"{facts['account']}\" ({kind})" if several else f"a calendar {kind}"
    parts = [where]
    if facts.get("owner"):
        parts.append(f"owner {facts['owner']}")
    if facts.get("unreachable"):
        parts.append(f"cannot be reached now ({facts['unreachable']})")
    else:
        parts.append("can be changed" if facts["writable"] else "read only")
    return ", ".join(parts)


def run(args: argparse.Namespace) -> int:
    from assistant.services import build_services
    from tools.backends.accounts import calendar_facts
    from tools.calendar.events import plain_text

    settings = load_settings()
    with build_services(settings, recover=False) as services:
        infos = services.backend.calendars()
        several = bool(settings.accounts)
        current = services.calendar_id
        if not several and settings.backend == "caldav":  # the setting may be a display name
            current = services.backend.primary_calendar_id()
        elif not several and current == "primary":  # the alias: the backend's main calendar
            current = next((i.id for i in infos if i.primary), current)
        chosen = set(services.calendars.ids)
        rows = []
        for info in infos:
            facts = calendar_facts(info, current)
            service = str(info.extra.get("service") or services.backend.name)
            name = plain_text(f"{facts['account']}/{info.name}" if several else info.name)
            mark = "*" if facts["primary"] else "-" if several and info.id not in chosen else " "
            rows.append((mark, name, describe(facts, service, several)))
    width = max((len(name) for _, name, _ in rows), default=0)
    print("Calendars (* new events go here" + ("; - not read by the assistant" if several else "")
          + "):")
    for mark, name, words in rows:
        print(f"{mark} {name.ljust(width)}  {plain_text(words)}")
    return 0
