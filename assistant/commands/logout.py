"""`calendar-assistant logout`: forget the stored Google token."""
from __future__ import annotations

import argparse

from assistant.commands.usage import Subparsers
from assistant.settings import load_settings


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("logout", help="forget the Google token")
    parser.add_argument("--account", metavar="NAME",
                        help="forget the token of this [[accounts]] table's Google account")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.commands.login import account_token
    from tools.backends.google.auth import logout  # the Google libraries load only for this command

    settings = load_settings()
    token_file, _ = account_token(settings, args.account)
    removed = logout(settings.home, token_file=token_file)
    print("Signed out: the stored Google token was deleted." if removed else "No Google sign-in was stored.")
    return 0
