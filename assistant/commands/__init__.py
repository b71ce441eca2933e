"""The subcommands of `calendar-assistant`, one module each (see `assistant.cli`).

Every module exposes `register(subparsers)`, which adds its parser and sets `run` as the parser's
default, and `run(args) -> int`, the exit code. `assistant.cli` imports them by name, so mypy and
"find usages" follow every command from the console script to its code.
"""
