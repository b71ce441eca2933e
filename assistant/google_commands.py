"""`login`, `logout`, `calendars`: connecting a Google account from the command line."""
from __future__ import annotations

import argparse
import os
import shutil

from assistant.settings import load_settings


def _has_browser() -> bool:
    if os.environ.get("SSH_CONNECTION") or os.environ.get("SSH_TTY"):
        return False
    if os.name == "posix" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return bool(shutil.which("open"))  # macOS has no DISPLAY but can open a browser
    return True


def login(args: argparse.Namespace) -> int:
    from assistant.cli import fail
    from tools.google_auth import login as run_login

    settings = load_settings()
    secrets = args.client_secrets or settings.google_client_secrets
    if not secrets:
        fail("login: give --client-secrets FILE (an OAuth 'Desktop app' client JSON from Google "
             "Cloud Console), or set google_client_secrets in the config")
    if not os.path.isfile(secrets):
        fail(f"login: no such file: {secrets}")
    run_login(secrets, settings.home, open_browser=not args.no_browser and _has_browser(),
              port=args.port, token_uri=settings.google_token_uri)
    print(f"Signed in. The token is stored in {settings.google_token_path} (readable only by you).")
    print("Set backend = \"google\" in the config (or CALENDAR_ASSISTANT_BACKEND=google) to use it.")
    return 0


def logout(args: argparse.Namespace) -> int:
    from tools.google_auth import logout as run_logout

    settings = load_settings()
    removed = run_logout(settings.home)
    print("Signed out: the stored Google token was deleted." if removed else "No Google sign-in was stored.")
    return 0


def calendars(args: argparse.Namespace) -> int:
    from assistant.services import build_backend

    settings = load_settings()
    backend = build_backend(settings)
    current = settings.calendar_id or backend.primary_calendar_id()
    for cal in backend.calendars():
        mark = "*" if cal.id == current else " "
        primary = " (primary)" if cal.primary else ""
        print(f"{mark} {cal.id}\t{cal.name}{primary}")
    return 0
