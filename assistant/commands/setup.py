"""`calendar-assistant setup caldav`: connect a CalDAV account (iCloud, Fastmail, Nextcloud,
Radicale) in one step.

Setting `backend`, `caldav_url`, `caldav_username` and `caldav_password` one `config set` at a
time is four commands in an order that matters to nobody but us; this asks for the four (or takes
them as options, for scripts), tries them by connecting, and only then saves them together, so a
mistyped password is found now, in one line (exit 2, nothing saved), and not at the first turn.
The password is saved as every secret is: in the config file, mode 0600 (`save_settings`).
"""
from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers, fail
from assistant.settings import Settings, load_settings, remember_secrets, save_settings

if TYPE_CHECKING:  # the CalDAV client loads only when this command runs
    from tools.backends.caldav.backend import CalDAVBackend

ASKED = (("url", "Server URL (e.g. https://caldav.icloud.com/)"),
         ("username", "User name"),
         ("password", "Password (an app password for iCloud and Fastmail)"),
         ("calendar", "Calendar name (Enter for the account's first)"))
"""What is asked, in order, when it was not given as an option."""


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("setup", help="connect a calendar account (setup caldav)")
    kinds = parser.add_subparsers(dest="setup_kind", parser_class=type(parser), required=True)
    caldav = kinds.add_parser("caldav", help="connect a CalDAV account: asks URL, user, password, "
                                             "calendar, checks them, saves them")
    caldav.add_argument("--url", help="the server's (or one calendar's) URL")
    caldav.add_argument("--username", help="the account's user name")
    caldav.add_argument("--password", help="its password (asked without echo when left out)")
    caldav.add_argument("--calendar", help="the calendar to use, by display name or URL "
                                           "(default: the account's first)")
    parser.set_defaults(run=run)


def ask(key: str, label: str) -> str:
    """One answer from the person (the password without echo at a terminal); at the end of input
    (a script gave fewer answers) the command stops naming the option it needed."""
    try:
        if key == "password" and sys.stdin.isatty():
            return getpass.getpass(f"{label}: ").strip()
        return input(f"{label}: ").strip()
    except EOFError:
        fail(f"setup caldav: no {key} given (use --{key} when not at a terminal)")


def answers(args: argparse.Namespace) -> dict[str, str]:
    """The four answers: each option given, else asked (only the calendar may be left empty)."""
    given: dict[str, str] = {}
    for key, label in ASKED:
        value = getattr(args, key)
        if value is None:
            value = ask(key, label)
        if not value and key == "url":
            fail("setup caldav: the server's URL is needed")
        given[key] = value
    return given


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    given = answers(args)
    remember_secrets(Settings(home=settings.home, caldav_password=given["password"] or None))
    calendar, created = connect(settings, given)
    save_settings(settings, {"backend": "caldav", "caldav_url": given["url"],
                             "caldav_username": given["username"] or None,
                             "caldav_password": given["password"] or None,
                             "calendar_id": given["calendar"] or None})
    if created:
        print(f"Created the calendar {calendar!r} on your CalDAV account.")
    print(f"Connected: new events go to {calendar!r}. Saved to {settings.config_path} "
          "(readable only by you).")
    return 0


def connect(settings: Settings, given: dict[str, str]) -> tuple[str, bool]:
    """Sign in and find (or, on an account with none, make) the calendar; the calendar's name and
    whether it was made. A failure is one line naming it, exit 2, and nothing saved."""
    from tools.backends.caldav.backend import DEFAULT_CALENDAR_NAME
    from tools.calendar.events import CalendarError

    backend = _backend(settings, given)
    try:
        infos = backend.calendars()
        wanted = given["calendar"]
        for info in infos:
            if wanted in (info.name, info.id) or (not wanted and info.primary):
                return info.name, False
        if infos:
            names = ", ".join(repr(i.name) for i in infos)
            fail(f"setup caldav: no calendar named {wanted!r} on the account (it has {names})")
        made = backend.add_calendar("family", wanted or DEFAULT_CALENDAR_NAME)
        return made.name, True
    except CalendarError as exc:
        fail(f"setup caldav: {exc}")
    finally:
        backend.close()


def _backend(settings: Settings, given: dict[str, str]) -> CalDAVBackend:
    from tools.backends.caldav.backend import CalDAVBackend

    return CalDAVBackend(given["url"], given["username"] or None, given["password"] or None,
                         default_timezone=settings.timezone, timeout=15.0)
