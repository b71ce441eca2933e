"""`calendar-assistant mcp [--http HOST:PORT]`: serve the guarded tools to MCP clients (CONTRACT
section 7). Stdio by default, as Claude Desktop and Claude Code start it; streamable HTTP with
`--http`. The SDK loads only here, so every other command starts without it.

`--print-config` prints the block a client needs, with the absolute path of this console script:
a client (Claude Desktop, Claude Code) starts the server with its own PATH, which does not hold
the virtual environment the script was installed in, so a bare `calendar-assistant` fails there
with "file not found"."""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
from pathlib import Path

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
    parser.add_argument("--print-config", action="store_true",
                        help="print the Claude Desktop configuration block (with this program's "
                        "absolute path) and the matching `claude mcp add` line, then exit")
    parser.add_argument("--now", help=argparse.SUPPRESS)  # tests: judge as if it were this time
    parser.set_defaults(run=run)


SCRIPT = "calendar-assistant"


def server_command() -> list[str]:
    """The command line that starts this server from anywhere: the absolute path of the running
    console script, else the one on PATH, else the one beside this Python (a venv's bin), else
    this Python running the CLI module (always there, if less pretty)."""
    candidates = [Path(sys.argv[0]) if sys.argv and sys.argv[0] else None,
                  Path(found) if (found := shutil.which(SCRIPT)) else None,
                  Path(sys.executable).with_name(SCRIPT)]
    for candidate in candidates:
        if candidate is not None and candidate.name == SCRIPT and candidate.is_file() \
                and os.access(candidate, os.X_OK):
            return [str(candidate.resolve()), "mcp"]
    return [str(Path(sys.executable).absolute()), "-m", "assistant.cli", "mcp"]


def client_env() -> dict[str, str]:
    """The environment the client must give the server. `CALENDAR_ASSISTANT_HOME`, when set here,
    goes in: the client does not see this shell's environment, and without it the server would
    open another calendar than the one this command line uses. No secret is ever written."""
    home = os.environ.get("CALENDAR_ASSISTANT_HOME")
    return {"CALENDAR_ASSISTANT_HOME": str(Path(home).expanduser().absolute())} if home else {}


def client_config() -> dict[str, object]:
    """Claude Desktop's `mcpServers` block for this installation."""
    command, *args = server_command()
    server: dict[str, object] = {"command": command, "args": args}
    if env := client_env():
        server["env"] = env
    return {"mcpServers": {"calendar": server}}


def print_config() -> None:
    """The JSON block on stdout (so `> file` or a pipe gets JSON alone), the Claude Code line
    on stderr."""
    print(json.dumps(client_config(), indent=2))
    env = "".join(f" --env {k}={shlex.quote(v)}" for k, v in client_env().items())
    line = " ".join(shlex.quote(part) for part in server_command())
    print(f"# Claude Desktop: put the block above in claude_desktop_config.json.\n"
          f"# Claude Code:    claude mcp add{env} calendar -- {line}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.print_config:
        if args.http is not None:
            fail("mcp: --print-config describes the stdio server; leave out --http")
        print_config()
        return 0
    from assistant.heap import settle_start_up
    from assistant.mcp.server import build_server, serve

    settings = load_settings()
    fixed = fixed_now(args.now, settings.timezone)
    if args.http is not None and args.http[0] not in ("127.0.0.1", "localhost", "::1"):
        fail("mcp: --http serves without authentication; use a loopback host such as 127.0.0.1")
    server = build_server(settings, now=(lambda: fixed) if fixed is not None else None,
                          settle=settle_start_up)
    serve(server, args.http)
    return 0
