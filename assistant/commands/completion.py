"""`calendar-assistant completion [bash|zsh|fish]`: the shell completion script, by argcomplete.

Why argcomplete: it completes from the parser itself (every subcommand, option and choice, e.g.
`config set <TAB>` lists the settings), so completion can never drift from the commands, and it
is a small, well-kept library instead of a hand-written script per shell. Enable it with
`eval "$(calendar-assistant completion bash)"` (or `zsh`; `fish` pipes to `source`).
"""
from __future__ import annotations

import argparse

from assistant.commands.usage import Subparsers

SHELLS = ("bash", "zsh", "fish", "tcsh", "powershell")


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("completion", help="print the shell completion script")
    parser.add_argument("shell", nargs="?", default="bash", choices=SHELLS,
                        help="the shell to complete for (default bash)")
    parser.set_defaults(run=run)


def autocomplete(parser: argparse.ArgumentParser) -> None:
    """When the shell asks for completions (argcomplete's environment is set), print them and
    exit; otherwise return at once. argcomplete loads only then: other runs do not pay for it."""
    import os

    if "_ARGCOMPLETE" not in os.environ:
        return
    import argcomplete

    argcomplete.autocomplete(parser)


def run(args: argparse.Namespace) -> int:
    from argcomplete.shell_integration import shellcode

    print(shellcode(["calendar-assistant"], shell=args.shell))
    return 0
