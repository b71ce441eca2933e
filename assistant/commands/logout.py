"""`calendar-assistant logout`: forget the stored Google token."""
from __future__ import annotations

import argparse

from assistant.commands.usage import Subparsers
from assistant.settings import load_settings


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("logout", help="forget the Google token")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tools.backends.google.auth import logout  # the Google libraries load only for this command

    removed = logout(load_settings().home)
    print("Signed out: the stored Google token was deleted." if removed else "No Google sign-in was stored.")
    return 0
