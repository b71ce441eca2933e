"""`calendar-assistant mcp [--http HOST:PORT]`: serve the guarded tools to MCP clients (CONTRACT
section 7). Stdio by default, as Claude Desktop and Claude Code start it; streamable HTTP with
`--http`. The SDK loads only here, so every other command starts without it."""
from __future__ import annotations

import argparse

from assistant.commands.usage import Subparsers, fail, fixed_now
from assistant.settings import load_settings


def host_port(text: str) -> tuple[str, int]:
    """`HOST:PORT` (e.g. `127.0.0.1:8765`), the port from 1 to 65535."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT (e.g. 127.0.0.1:8765), got {text!r}")
    return host.strip("[]"), int(port)


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("mcp", help="serve the guarded calendar tools to MCP clients")
    parser.add_argument("--http", type=host_port, metavar="HOST:PORT",
                        help="serve streamable HTTP at HOST:PORT instead of stdio")
    parser.add_argument("--now", help=argparse.SUPPRESS)  # tests: judge as if it were this time
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.mcp.server import build_server, serve

    settings = load_settings()
    fixed = fixed_now(args.now, settings.timezone)
    if args.http is not None and args.http[0] not in ("127.0.0.1", "localhost", "::1"):
        fail("mcp: --http serves without authentication; use a loopback host such as 127.0.0.1")
    server = build_server(settings, now=(lambda: fixed) if fixed is not None else None)
    serve(server, args.http)
    return 0
