"""`calendar-assistant login`: connect a Google account (the OAuth flow, token in the home dir)."""
from __future__ import annotations

import argparse
import os
import shutil

from assistant.commands.usage import Subparsers, existing_file, fail
from assistant.settings import Settings, load_settings


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("login", help="connect a Google account")
    parser.add_argument("--client-secrets", type=existing_file, help="OAuth client JSON from Google Cloud")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the sign-in address instead of opening a browser")
    parser.add_argument("--port", type=int, default=0,
                        help="the local port Google redirects to after sign-in (default: any free one)")
    parser.add_argument("--account", metavar="NAME",
                        help="sign in the Google account of this [[accounts]] table (its token is "
                        "google-token-NAME.json)")
    parser.set_defaults(run=run)


def has_browser() -> bool:
    """Whether a browser can open here (not over SSH, not on a Linux box without a display)."""
    if os.environ.get("SSH_CONNECTION") or os.environ.get("SSH_TTY"):
        return False
    if os.name == "posix" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return bool(shutil.which("open"))  # macOS has no DISPLAY but can open a browser
    return True


def run(args: argparse.Namespace) -> int:
    from tools.backends.google.auth import login  # the Google libraries load only for this command

    settings = load_settings()
    secrets = args.client_secrets or settings.google_client_secrets
    if not secrets:
        fail("login: give --client-secrets FILE (an OAuth 'Desktop app' client JSON from Google "
             "Cloud Console), or set google_client_secrets in the config")
    if not os.path.isfile(secrets):
        fail(f"login: no such file: {secrets}")
    token_file, token_uri = account_token(settings, args.account)
    login(secrets, settings.home, open_browser=not args.no_browser and has_browser(),
          port=args.port, token_uri=token_uri, token_file=token_file)
    print(f"Signed in. The token is stored in {settings.home / token_file} (readable only by you).")
    if args.account is None:
        print("Set backend = \"google\" in the config (or CALENDAR_ASSISTANT_BACKEND=google) to use it.")
    elif not any(a.name == args.account for a in settings.accounts):
        print(f"Add an [[accounts]] table with name = \"{args.account}\" and backend = \"google\" "
              "to config.toml to use it.")
    return 0


def account_token(settings: Settings, account: str | None) -> tuple[str, str | None]:
    """The token file and token endpoint to sign in with: the single account's, or those of
    the `[[accounts]]` table named `account` (which must be a Google one when it is there)."""
    from assistant.accounts import NAME_RE
    from tools.backends.google.auth import TOKEN_FILENAME, account_token_file

    if account is None:
        return TOKEN_FILENAME, settings.google_token_uri
    if not NAME_RE.match(account):
        fail(f"login: --account: {account!r} is not an account name (letters, digits, '.', '_', '-')")
    table = next((a for a in settings.accounts if a.name == account), None)
    if table is not None and table.backend != "google":
        fail(f"login: the account {account!r} is a {table.backend} account, not a Google one")
    token_uri = (table.google_token_uri if table is not None else None) or settings.google_token_uri
    return account_token_file(account), token_uri
