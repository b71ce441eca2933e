"""How soon `calendar-assistant mcp` answers over stdio: start, tool list, first call.

Aim (issue 15): the tool list and a first call within 2 s of starting the process, on this
machine. Each run starts the real console script in a fresh home (local backend, no network, no
API key) with the SDK's stdio client, as Claude Desktop does, and times from the spawn to the
list_tools answer and to the answer of a first `list_events` call.

    .venv/bin/python bench/bench_mcp.py [RUNS]

Measured on the 2-core dev box (5 runs, the machine shared with other work): tool list after
median 1.08 s (max 1.17 s), first call answered after median 1.09 s (max 1.18 s). A busier
moment gave 1.35 s (max 1.70 s). Most of it is Python start-up and imports (the MCP SDK, SQLModel,
the guard); the Anthropic SDK is not loaded until a change needs the configured model.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters


async def one_run(script: str) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "CALENDAR_ASSISTANT_"))}
        env["CALENDAR_ASSISTANT_HOME"] = home
        params = StdioServerParameters(command=script, args=["mcp"], env=env)
        started = time.perf_counter()
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            listed = time.perf_counter() - started
            result = await client.call_tool("list_events", {"start": "2025-10-20",
                                                            "end": "2025-10-27"})
            called = time.perf_counter() - started
        if result.is_error:
            raise SystemExit(f"first call failed: {result.content}")
        return listed, called


async def main(runs: int) -> None:
    script = str(Path(sys.executable).parent / "calendar-assistant")
    listed, called = [], []
    for _ in range(runs):
        a, b = await one_run(script)
        listed.append(a)
        called.append(b)
    print(f"{runs} runs: tool list after median {statistics.median(listed):.2f} s "
          f"(max {max(listed):.2f} s); first call after median {statistics.median(called):.2f} s "
          f"(max {max(called):.2f} s); aim: 2 s")


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 5)
